#!/bin/sh
# Install the Debian packages nearcrawl needs to build, test and run its demo.
# (chromium is for tests/e2e/test-report-html.sh, which opens a report's
# index.html in headless Chromium; postgresql is the throwaway server that
# scripts/pg-server.sh starts for the scale-out tests, libpq-dev the client
# library of the PostgreSQL backend.)
# Only what is missing is installed. As root this runs apt-get itself;
# otherwise it prints the command to run and exits 1 when something is missing.
set -eu

PKGS="build-essential pkg-config
libcurl4-openssl-dev libevent-dev libxml2-dev libsqlite3-dev
libfuzzy-dev libinih-dev libssl-dev zlib1g-dev libpq-dev
sqlite3 postgresql curl gnuplot-nox valgrind python3 openssl
chromium"

missing=""
for p in $PKGS; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
		missing="$missing $p"
	fi
done

if [ -z "$missing" ]; then
	exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
	echo "nearcrawl needs these Debian packages:$missing" >&2
	echo "run: sudo apt-get update && sudo apt-get install -y$missing" >&2
	exit 1
fi

echo "installing:$missing" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -q >&2
# shellcheck disable=SC2086
apt-get install -y -q --no-install-recommends $missing >&2
