#!/usr/bin/env bash
# tests/run.sh [NAME...] - run the kit's test files, each as its own
# process (bash tests/NAME.sh, with its own temporary directory: see
# tests/lib.sh), and end with the one line "N passed, M failed" (",
# K skipped" after it when checks were skipped).  Exit status 1 when any
# check failed, 2 when a NAME is not a test file.  Without NAMEs: every
# tests/*.sh but lib.sh and run.sh, the labs first (lab1, lab2, ...), then
# the rest by name.  Run it through `make test` (or `make test T=NAME`),
# which builds the programs first.
set -u -o pipefail
cd "$(dirname "$0")/.." || exit 1
. tools/lib/lib.sh
prog=tests/run.sh

# test_names: every test file's NAME, in the order they run.
test_names() {
	local f n
	for f in tests/*.sh; do
		n=${f#tests/}
		n=${n%.sh}
		case $n in lib | run) continue ;; esac
		echo "$n"
	done | awk '{ key = /^lab[0-9]+$/ ? sprintf("0 %09d", substr($0, 4)) : "1 " $0
		      printf "%s\t%s\n", key, $0 }' | sort | cut -f 2
}
usage() {
	echo "usage: tests/run.sh [NAME...]  (make test [T=NAME]); NAME is one of:"
	test_names | paste -sd' ' | fold -s -w 78 | sed 's/^/  /; s/ *$//'
}

names=("$@")
[ $# -gt 0 ] || mapfile -t names < <(test_names)
for n in "${names[@]}"; do
	[[ $n != */* ]] && [ "$n" != lib ] && [ "$n" != run ] && [ -f "tests/$n.sh" ] ||
		bad_usage "no test file tests/$n.sh"
done

# The counts each file leaves; nothing else is kept here.
if ! SCRATCH=$(mktemp -d) || [ ! -d "$SCRATCH" ] || [ ! -w "$SCRATCH" ]; then
	die "mktemp -d failed (TMPDIR=${TMPDIR:-unset}): set TMPDIR to a writable directory"
fi
trap 'rm -rf "$SCRATCH"' EXIT

./frames --env 2>/dev/null || echo "# (./frames --env failed)"
passed=0 failed=0 skipped=0 kept=()
for n in "${names[@]}"; do
	echo "== tests/$n.sh"
	rm -f "$SCRATCH/counts"
	TESTS_COUNTS=$SCRATCH/counts bash "tests/$n.sh"
	rc=$?
	if ! read -r p f s dir <"$SCRATCH/counts" 2>/dev/null; then
		# Killed, or it never reached tests/lib.sh: one failure, said once.
		p=0 f=1 s=0 dir=-
		echo "FAIL    tests/$n.sh left no counts (exit $rc)"
	fi
	passed=$((passed + p)) failed=$((failed + f)) skipped=$((skipped + s))
	[ "$f" -eq 0 ] || kept+=("tests/$n.sh: $f failed; its files: $dir")
done

echo
for k in ${kept[@]+"${kept[@]}"}; do echo "$k"; done
line="$passed passed, $failed failed"
[ "$skipped" -gt 0 ] && line="$line, $skipped skipped"
echo "$line"
[ "$failed" -eq 0 ]
