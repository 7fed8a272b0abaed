#!/usr/bin/env node
// warc-refers: resolves every revisit record of a crawl's WARC files to
// the record it refers to in earlier WARC files, with warcio.js (another
// project's parser), for the tests of cross-crawl dedup.
//
//   node tests/tools/warc-refers.mjs EARLIER-FILE... -- LATER-FILE...
//       one line per revisit record of the later files:
//       RESULT <TAB> TARGET-URI <TAB> HOW
//       RESULT is "ok" when a response record of the earlier files has
//       the revisit's WARC-Refers-To-Target-URI, WARC-Refers-To-Date and
//       WARC-Payload-Digest -- and, where the revisit names them, sits at
//       its WARC-Refers-To-Filename and WARC-Refers-To-File-Offset and has
//       its WARC-Refers-To record ID; "bad" otherwise (HOW says why). HOW
//       is "offset" when the record was found at the file and offset the
//       revisit names, "uri+date" when it was found by those alone.
//       A revisit whose target is in the later files themselves (the same
//       crawl's earlier response) is "within", checked as the others
//       when it names the file and offset.
//
// Exit status: 0 every revisit resolved (ok or within), 1 some did not,
// 2 bad usage or an unreadable file.

import { createReadStream } from "node:fs";
import { basename } from "node:path";
import { loadWarcio } from "./warcio-load.mjs";

const { WARCParser } = await loadWarcio("warc-refers");

const args = process.argv.slice(2);
const cut = args.indexOf("--");
if (cut < 1 || cut === args.length - 1) {
  process.stderr.write("usage: warc-refers.mjs EARLIER-FILE... -- LATER-FILE...\n");
  process.exit(2);
}
const earlier = args.slice(0, cut);
const later = args.slice(cut + 1);

// Every record of path: its file, offset and the fields compared.
async function records(path) {
  const out = [];
  const parser = new WARCParser(createReadStream(path), { parseHttp: false });
  for await (const record of parser) {
    const h = record.warcHeaders.headers;
    out.push({
      file: basename(path),
      offset: parser.offset,
      type: h.get("WARC-Type"),
      id: h.get("WARC-Record-ID"),
      uri: h.get("WARC-Target-URI"),
      date: h.get("WARC-Date"),
      digest: h.get("WARC-Payload-Digest"),
      refUri: h.get("WARC-Refers-To-Target-URI"),
      refDate: h.get("WARC-Refers-To-Date"),
      refId: h.get("WARC-Refers-To"),
      refFile: h.get("WARC-Refers-To-Filename"),
      refOffset: h.get("WARC-Refers-To-File-Offset"),
    });
    // The block is skipped: only the headers are compared.
    await record.readFully();
  }
  return out;
}

let all;
try {
  const before = [];
  for (const f of earlier) before.push(...(await records(f)));
  const now = [];
  for (const f of later) now.push(...(await records(f)));
  all = { before, now };
} catch (e) {
  process.stderr.write(`warc-refers: ${e && e.message ? e.message : e}\n`);
  process.exit(2);
}

const key = (uri, date) => `${uri} ${date}`;
const byAt = new Map();
const byUriDate = new Map();
for (const r of all.before) {
  byAt.set(`${r.file} ${r.offset}`, r);
  if (r.type === "response") byUriDate.set(key(r.uri, r.date), r);
}
const within = new Set();
const nowAt = new Map();
for (const r of all.now) {
  nowAt.set(`${r.file} ${r.offset}`, r);
  if (r.type === "response") within.add(key(r.uri, r.date));
}

let bad = 0;
for (const r of all.now) {
  if (r.type !== "revisit") continue;
  let result = "ok";
  let how;
  let target;
  if (r.refFile !== null && r.refOffset !== null) {
    const at = `${r.refFile} ${Number(r.refOffset)}`;
    target = byAt.get(at);
    how = "offset";
    // The same crawl's first response, named where it is in the later
    // files: "within", its fields checked all the same.
    if (!target && (target = nowAt.get(at)) !== undefined) {
      result = "within";
      how = "offset, within";
    }
    if (!target) {
      result = "bad";
      how = `no record at ${r.refFile} offset ${r.refOffset}`;
    }
  } else {
    target = byUriDate.get(key(r.refUri, r.refDate));
    how = "uri+date";
    if (!target && within.has(key(r.refUri, r.refDate))) {
      console.log(`within\t${r.uri}\t${how}`);
      continue;
    }
    if (!target) {
      result = "bad";
      how = `no response of ${r.refUri} at ${r.refDate}`;
    }
  }
  if (target) {
    const wrong = [];
    if (target.type !== "response") wrong.push(`type ${target.type}`);
    if (target.uri !== r.refUri) wrong.push(`uri ${target.uri}`);
    if (target.date !== r.refDate) wrong.push(`date ${target.date}`);
    if (target.digest !== r.digest) wrong.push(`digest ${target.digest}`);
    if (r.refId !== null && target.id !== r.refId) wrong.push(`id ${target.id}`);
    if (wrong.length > 0) {
      result = "bad";
      how = `${how}: ${wrong.join(", ")}`;
    }
  }
  if (result !== "ok" && result !== "within") bad++;
  console.log(`${result}\t${r.uri}\t${how}`);
}
process.exit(bad > 0 ? 1 : 0);
