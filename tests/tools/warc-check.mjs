#!/usr/bin/env node
// warc-check: an independent reader of WARC files for the tests. The
// record framing comes from warcio.js (another project's parser, so a bug
// in nearcrawl's writer and reader cannot cancel out); the digests are
// recomputed here from the raw bytes, with node's own hash functions.
//
//   node tests/tools/warc-check.mjs [--accept-chunked-digest] FILE...
//       one line per record:
//       TYPE <TAB> TARGET-URI <TAB> PAYLOAD-DIGEST <TAB> BLOCK-DIGEST <TAB> STATUS
//   node tests/tools/warc-check.mjs --cdxj FILE...
//       warcio's own CDXJ index of the files (CDXIndexer, format cdxj)
//
// See tests/tools/README.md for what each column means and the exit status.

import { createReadStream, openSync, readSync, closeSync, fstatSync } from "node:fs";
import { createHash } from "node:crypto";
import { basename } from "node:path";
import { Writable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createGunzip } from "node:zlib";
import { loadWarcio } from "./warcio-load.mjs";

const { WARCParser, CDXIndexer } = await loadWarcio("warc-check");

const USAGE =
  "usage: warc-check.mjs [--accept-chunked-digest] FILE...\n" +
  "       warc-check.mjs --cdxj FILE...\n";

// Digest labels a WARC writer may use, as node names them.
const ALGOS = new Map([
  ["sha1", "sha1"],
  ["sha-1", "sha1"],
  ["sha256", "sha256"],
  ["sha-256", "sha256"],
  ["sha512", "sha512"],
  ["sha-512", "sha512"],
  ["md5", "md5"],
]);

const B32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

// RFC 4648 base32, upper case, without the "=" padding.
function base32(bytes) {
  let out = "";
  let acc = 0;
  let bits = 0;
  for (const b of bytes) {
    acc = (acc << 8) | b;
    bits += 8;
    while (bits >= 5) {
      out += B32[(acc >>> (bits - 5)) & 31];
      bits -= 5;
    }
    acc &= (1 << bits) - 1;
  }
  if (bits > 0) out += B32[(acc << (5 - bits)) & 31];
  return out;
}

// A claimed digest ("sha1:BASE32" or "sha256:hex" ...) as something to
// compare a hash with; null when the label or its value is unusable.
function parseClaim(value) {
  const colon = value.indexOf(":");
  if (colon <= 0) return null;
  const algo = ALGOS.get(value.slice(0, colon).trim().toLowerCase());
  const text = value.slice(colon + 1).trim();
  if (!algo || !text) return null;
  return { algo, text };
}

// Does the claim name the digest whose raw bytes are digest? Hex (as long
// as the digest in hex, only hex digits) or base32 (any case, padding
// optional) are both accepted.
function claimMatches(claim, digest) {
  const hex = digest.toString("hex");
  if (claim.text.length === hex.length && /^[0-9a-fA-F]+$/.test(claim.text))
    return claim.text.toLowerCase() === hex;
  return claim.text.replace(/=+$/, "").toUpperCase() === base32(digest);
}

// Undoes the chunked transfer-coding one piece at a time, so that no
// record has to fit in memory. state: "size" (reading a chunk-size line),
// "data", "crlf" (the CRLF after the data), "trailer", "done", "bad".
class Dechunker {
  constructor(onData) {
    this.onData = onData;
    this.state = "size";
    this.line = [];
    this.left = 0;
  }

  push(buf) {
    let i = 0;
    while (i < buf.length && this.state !== "done" && this.state !== "bad") {
      if (this.state === "data") {
        const n = Math.min(this.left, buf.length - i);
        this.onData(buf.subarray(i, i + n));
        this.left -= n;
        i += n;
        if (this.left === 0) this.state = "crlf";
        continue;
      }
      const c = buf[i++];
      if (this.state === "crlf") {
        // The data's CRLF: a bare LF is read as well.
        if (c === 13 && this.line.length === 0) {
          this.line.push(c);
        } else if (c === 10) {
          this.line = [];
          this.state = "size";
        } else {
          this.state = "bad";
        }
        continue;
      }
      if (c !== 10) {
        if (this.line.length > 4096) this.state = "bad";
        else this.line.push(c);
        continue;
      }
      const text = Buffer.from(this.line).toString("latin1").replace(/\r$/, "");
      this.line = [];
      if (this.state === "trailer") {
        if (text === "") this.state = "done";
        continue;
      }
      // chunk-size [ chunk-ext ]
      const m = /^([0-9a-fA-F]+)[ \t]*(;.*)?$/.exec(text);
      if (!m || m[1].length > 12) {
        this.state = "bad";
        continue;
      }
      this.left = parseInt(m[1], 16);
      this.state = this.left === 0 ? "trailer" : "data";
    }
  }
}

// One HTTP message (request or response) read from the WARC block as it
// streams by: the head up to the empty line, then the body, hashed both
// as sent (rawHash) and, when chunked, with the chunking undone
// (payloadHash).
class HttpMessage {
  constructor(algo) {
    this.algo = algo;
    this.head = [];
    this.headLen = 0;
    this.inBody = false;
    this.status = null;
    this.chunked = false;
    this.rawHash = algo ? createHash(algo) : null;
    this.payloadHash = algo ? createHash(algo) : null;
    this.dechunker = null;
  }

  push(buf) {
    if (this.inBody) return this.body(buf);
    this.head.push(buf);
    this.headLen += buf.length;
    const all = Buffer.concat(this.head, this.headLen);
    let end = all.indexOf("\r\n\r\n");
    let sep = 4;
    const lf = all.indexOf("\n\n");
    if (lf >= 0 && (end < 0 || lf < end)) {
      end = lf;
      sep = 2;
    }
    if (end < 0) {
      this.head = [all];
      return;
    }
    this.parseHead(all.subarray(0, end).toString("latin1"));
    this.head = null;
    this.inBody = true;
    this.body(all.subarray(end + sep));
  }

  parseHead(text) {
    const lines = text.split(/\r?\n/);
    const m = /^HTTP\/\d(?:\.\d)?\s+(\d{3})(?:\s|$)/.exec(lines[0]);
    if (m) this.status = m[1];
    const codings = [];
    for (const line of lines.slice(1)) {
      const h = /^transfer-encoding\s*:(.*)$/i.exec(line);
      if (h) codings.push(...h[1].split(",").map((s) => s.trim().toLowerCase()));
    }
    // The body is chunked when chunked is the last coding applied.
    this.chunked = codings.filter((s) => s).at(-1) === "chunked";
    if (this.chunked && this.algo) {
      this.dechunker = new Dechunker((piece) => this.payloadHash.update(piece));
    }
  }

  body(buf) {
    if (!buf.length || !this.algo) return;
    this.rawHash.update(buf);
    if (this.dechunker) this.dechunker.push(buf);
    else this.payloadHash.update(buf);
  }

  // Returns "ok", "chunked" (only the body with its chunking left in
  // matches) or "bad".
  verdict(claim) {
    const raw = this.rawHash.digest();
    if (!this.chunked) return claimMatches(claim, raw) ? "ok" : "bad";
    // Chunk framing that cannot be read: the body as sent is all there is.
    if (this.dechunker.state === "bad") return claimMatches(claim, raw) ? "ok" : "bad";
    if (claimMatches(claim, this.payloadHash.digest())) return "ok";
    return claimMatches(claim, raw) ? "chunked" : "bad";
  }
}

function field(value) {
  if (value === null || value === undefined || value === "") return "-";
  return String(value).replace(/[\t\r\n]/g, " ");
}

// Size of the file and whether it starts like gzip (1f 8b).
function sniff(path) {
  const fd = openSync(path, "r");
  try {
    const magic = Buffer.alloc(2);
    const n = readSync(fd, magic, 0, 2, 0);
    return { size: fstatSync(fd).size, gzip: n === 2 && magic[0] === 0x1f && magic[1] === 0x8b };
  } finally {
    closeSync(fd);
  }
}

// node's own gunzip over the whole file: a member cut short or bytes after
// the last member that are not gzip are errors, which warcio passes over.
async function gzipIntact(path) {
  const sink = new Writable({
    write(chunk, enc, done) {
      done();
    },
  });
  await pipeline(createReadStream(path), createGunzip(), sink);
}

// One file: print a line per record; returns 0 (all good) or 1.
async function checkFile(path, acceptChunked) {
  let failed = 0;
  let records = 0;
  const warnings = [];
  const saveWarn = console.warn;
  // warcio reports a record whose Content-Length is off with a warning
  // and goes on; here that is a broken file.
  console.warn = (...args) => warnings.push(args.join(" "));
  const fail = (msg) => {
    process.stderr.write(`warc-check: ${path}: ${msg}\n`);
    failed = 1;
  };
  try {
    const file = sniff(path);
    if (file.gzip) {
      try {
        await gzipIntact(path);
      } catch (e) {
        throw new Error(`gzip: ${e && e.message ? e.message : e}`);
      }
    }
    let lastOffset = -1;
    const parser = new WARCParser(createReadStream(path), { parseHttp: false });
    for await (const record of parser) {
      records++;
      const where = `record ${records} (offset ${parser.offset})`;
      // With a gzip member per record, every record starts a member of
      // its own, so the offsets warcio reports grow and stay inside the
      // file; one member holding several records breaks that.
      if (file.gzip && (parser.offset <= lastOffset || parser.offset >= file.size)) {
        fail(`record ${records}: does not start a gzip member of its own`);
        break;
      }
      lastOffset = parser.offset;
      const version = record.warcHeaders.statusline.trim();
      if (!/^WARC\/1\.[01]$/.test(version)) {
        fail(`${where}: not a WARC record (first line ${JSON.stringify(version.slice(0, 40))})`);
        break;
      }
      const h = record.warcHeaders.headers;
      const type = h.get("WARC-Type");
      const lengthText = h.get("Content-Length");
      if (!type || !lengthText || !/^\d+$/.test(lengthText.trim())) {
        fail(`${where}: no WARC-Type or no valid Content-Length`);
        break;
      }
      const length = Number(lengthText.trim());
      let uri = h.get("WARC-Target-URI");
      // WARC/1.0 as written by wget puts the URI in angle brackets.
      if (uri && /^<.*>$/.test(uri.trim())) uri = uri.trim().slice(1, -1);

      const blockClaimText = h.get("WARC-Block-Digest");
      const payloadClaimText = h.get("WARC-Payload-Digest");
      const blockClaim = blockClaimText ? parseClaim(blockClaimText) : null;
      const payloadClaim = payloadClaimText ? parseClaim(payloadClaimText) : null;
      const contentType = (h.get("Content-Type") || "").toLowerCase();
      const isHttp =
        contentType.startsWith("application/http") &&
        (type === "response" || type === "request" || type === "revisit");
      // A revisit's payload digest names an earlier record's payload;
      // it cannot be checked against this block.
      const checkPayload = payloadClaim && type !== "revisit";

      const blockHash = blockClaim ? createHash(blockClaim.algo) : null;
      const nonHttpPayload = checkPayload && !isHttp ? createHash(payloadClaim.algo) : null;
      const http = isHttp ? new HttpMessage(checkPayload ? payloadClaim.algo : null) : null;
      let got = 0;
      for await (const chunk of record.reader) {
        const buf = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
        got += buf.length;
        if (blockHash) blockHash.update(buf);
        if (nonHttpPayload) nonHttpPayload.update(buf);
        if (http) http.push(buf);
      }
      if (got !== length) {
        fail(`${where}: block has ${got} bytes, Content-Length says ${length}`);
        break;
      }

      let blockOk = "-";
      if (blockClaimText) {
        blockOk = blockClaim && claimMatches(blockClaim, blockHash.digest()) ? "ok" : "bad";
      }
      let payloadOk = "-";
      if (payloadClaimText && type !== "revisit") {
        if (!payloadClaim) payloadOk = "bad";
        else if (http) payloadOk = http.verdict(payloadClaim);
        else payloadOk = claimMatches(payloadClaim, nonHttpPayload.digest()) ? "ok" : "bad";
      }
      if ((blockClaimText && !blockClaim) || (payloadClaimText && !payloadClaim))
        process.stderr.write(`warc-check: ${path}: ${where}: digest algorithm not known\n`);
      const status = http && type !== "request" ? http.status : null;
      process.stdout.write(
        [field(type), field(uri), payloadOk, blockOk, field(status)].join("\t") + "\n",
      );
      if (blockOk === "bad") fail(`${where}: WARC-Block-Digest does not match`);
      if (payloadOk === "bad") fail(`${where}: WARC-Payload-Digest does not match`);
      if (payloadOk === "chunked" && !acceptChunked)
        fail(
          `${where}: WARC-Payload-Digest is of the body with its chunked ` +
            "coding left in, not of the payload",
        );
    }
  } catch (e) {
    fail(`cannot be parsed: ${e && e.message ? e.message : e}`);
  } finally {
    console.warn = saveWarn;
  }
  for (const w of warnings) fail(`warcio: ${w}`);
  if (records === 0 && !failed) fail("no WARC records");
  return failed;
}

async function cdxj(paths) {
  const indexer = new CDXIndexer({ format: "cdxj" });
  const files = paths.map((p) => ({ filename: basename(p), reader: createReadStream(p) }));
  await indexer.writeAll(files, process.stdout);
}

async function main(argv) {
  let mode = "check";
  let acceptChunked = false;
  const files = [];
  for (const a of argv) {
    if (a === "--cdxj") mode = "cdxj";
    else if (a === "--accept-chunked-digest") acceptChunked = true;
    else if (a === "-h" || a === "--help") {
      process.stdout.write(USAGE);
      return 0;
    } else if (a.startsWith("-")) {
      process.stderr.write(`warc-check: unknown option ${a}\n` + USAGE);
      return 2;
    } else files.push(a);
  }
  if (files.length === 0) {
    process.stderr.write(USAGE);
    return 2;
  }
  if (mode === "cdxj") {
    try {
      await cdxj(files);
    } catch (e) {
      process.stderr.write(`warc-check: cannot index: ${e && e.message ? e.message : e}\n`);
      return 1;
    }
    return 0;
  }
  let rc = 0;
  for (const f of files) rc |= await checkFile(f, acceptChunked);
  return rc;
}

// A reader that stops early (| head) ends the run, without a stack trace.
process.stdout.on("error", (e) => {
  if (e.code !== "EPIPE") throw e;
  process.exit(1);
});
process.exitCode = await main(process.argv.slice(2));
