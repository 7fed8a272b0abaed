#!/bin/sh
# The whole suite: the architecture's rules (scripts/make/check-layers.py, on
# the plain build's objects), unit tests and end-to-end crawls, both under
# AddressSanitizer + UndefinedBehaviorSanitizer, plus the test server's own
# check. Every part closes with "N passed, N failed"; this script adds them
# up and closes the same way. Run from the repository root (make test).
set -u

export NEARCRAWL=${NEARCRAWL:-build/san/nearcrawl}
export NCSERVER=${NCSERVER:-build/plain/ncserver}
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

total_pass=0
total_fail=0
log=$(mktemp)
trap 'rm -f "$log"' EXIT

run_part() {
	name=$1
	shift
	echo "== $name"
	"$@" >"$log" 2>&1
	status=$?
	cat "$log"
	line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$log" | tail -n 1)
	if [ -z "$line" ]; then
		echo "FAIL $name: exited $status without a summary line"
		total_fail=$((total_fail + 1))
		return
	fi
	p=${line%% passed*}
	f=${line#*passed, }
	f=${f%% failed*}
	total_pass=$((total_pass + p))
	total_fail=$((total_fail + f))
	if [ "$status" -ne 0 ] && [ "$f" -eq 0 ]; then
		echo "FAIL $name: exited $status"
		total_fail=$((total_fail + 1))
	fi
}

run_part layers python3 scripts/make/check-layers.py
run_part unit build/san/unit
run_part server sh tests/server/smoke.sh "$NCSERVER"
for t in tests/e2e/test-*.sh; do
	run_part "$t" sh "$t"
done

echo "$total_pass passed, $total_fail failed"
[ "$total_fail" -eq 0 ]
