// warcio-load: the tests' tools load warcio.js through here, so that a
// missing install is said the same way by each (exit 2, as bad usage).
//
//   const { WARCParser } = await loadWarcio("warc-check");

export async function loadWarcio(tool) {
  try {
    return await import("warcio");
  } catch (e) {
    process.stderr.write(
      `${tool}: warcio.js is not installed; ` +
        "run scripts/make/install-deps.sh (npm ci --prefix tests/tools)\n",
    );
    process.exit(2);
  }
}
