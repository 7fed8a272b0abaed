#!/bin/sh
# Install the Debian packages nearcrawl needs.
#   scripts/make/install-deps.sh run     what building and running need
#                                        (make demo)
#   scripts/make/install-deps.sh [test]  that and what the tests need
#                                        (make test)
# Running needs the compiler, the libraries' -dev packages, sqlite3 (the
# demo reads its database with it) and gnuplot (report's plots). The tests
# also need the following. (man-db and groff-base read the generated man
# page in tests/e2e/test-install.sh; chromium is for
# tests/e2e/test-report-html.sh, which opens a report's index.html in
# headless Chromium, and tests/e2e/test-serve-browser.sh, which drives it
# through the view of `nearcrawl serve`; postgresql is the throwaway server that
# scripts/lib/pg-server.sh starts for the scale-out tests, libpq-dev the
# client library of the PostgreSQL backend; wrk is the load generator that
# scripts/bench/bench.sh measures the test server's ceiling with, and
# tests/e2e/test-serve.sh and scripts/bench/bench-serve.sh load the view
# with;
# nginx-light and python3-doc serve and make labelled site uni2,
# ../shared/sites/uni2, for scripts/eval/eval-uni2.sh and
# tests/e2e/test-labelled-uni2.sh.)
# The WARC tests also need GNU wget (it writes WARC files of its own with
# --warc-file), node and npm, and warcio.js from npm in tests/tools (an
# independent WARC reader, tests/tools/warc-check.mjs); the browser test of
# the view needs playwright-core from there too (it drives Debian's
# chromium and downloads no browser of its own). nodejs and npm are
# installed only when the commands are missing: node may come from
# elsewhere, and Debian's npm pulls in many packages.
# Only what is missing is installed. As root this runs apt-get and npm
# itself; otherwise it prints the commands to run and exits 1 when
# something is missing.
set -eu

RUN_PKGS="build-essential pkg-config
libcurl4-openssl-dev libevent-dev libxml2-dev libsqlite3-dev
libfuzzy-dev libinih-dev libssl-dev zlib1g-dev libpq-dev libjemalloc-dev
libbrotli-dev
sqlite3 gnuplot-nox"
TEST_PKGS="postgresql curl valgrind python3 openssl
chromium wrk nginx-light python3-doc man-db groff-base"

case "${1:-test}" in
run) PKGS=$RUN_PKGS; FOR_TESTS="" ;;
test) PKGS="$RUN_PKGS $TEST_PKGS"; FOR_TESTS=yes ;;
*) echo "usage: $0 [run|test]" >&2; exit 2 ;;
esac

TOOLS="$(cd "$(dirname "$0")/../.." && pwd)/tests/tools"
NPM_OPTS="--no-audit --no-fund --loglevel=error"

missing=""
for p in $PKGS; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
		missing="$missing $p"
	fi
done
need_tools=""
if [ -n "$FOR_TESTS" ]; then
	# Busybox's wget has no --warc-file: GNU wget it must be.
	if ! wget --version 2>/dev/null | grep -q '^GNU Wget'; then
		missing="$missing wget"
	fi
	command -v node >/dev/null 2>&1 || missing="$missing nodejs"
	command -v npm >/dev/null 2>&1 || missing="$missing npm"
	[ -f "$TOOLS/node_modules/warcio/package.json" ] || need_tools=yes
	[ -f "$TOOLS/node_modules/playwright-core/package.json" ] ||
	    need_tools=yes
fi

if [ -z "$missing" ] && [ -z "$need_tools" ]; then
	exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
	if [ -n "$missing" ]; then
		echo "nearcrawl needs these Debian packages:$missing" >&2
		echo "run: sudo apt-get update && sudo apt-get install -y$missing" >&2
	fi
	if [ -n "$need_tools" ]; then
		echo "the WARC and browser tests need warcio.js and" \
		    "playwright-core in tests/tools" >&2
		echo "run: npm ci --prefix tests/tools $NPM_OPTS" >&2
	fi
	exit 1
fi

if [ -n "$missing" ]; then
	echo "installing:$missing" >&2
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -q >&2
	# shellcheck disable=SC2086
	apt-get install -y -q --no-install-recommends $missing >&2
fi
if [ -n "$need_tools" ]; then
	echo "installing tests/tools from npm (warcio.js, playwright-core)" >&2
	# ci installs exactly what package-lock.json names; install is the
	# fallback when the lock file and package.json disagree.
	# shellcheck disable=SC2086
	npm ci --prefix "$TOOLS" $NPM_OPTS >&2 ||
	    npm install --prefix "$TOOLS" $NPM_OPTS >&2
fi
