#!/usr/bin/env bash
# tests/run.sh - run every tests/lab*.sh in order and end with the line
# "N passed, M failed" (", K skipped" after it when checks were skipped).
# Exit status 1 when any check failed.  Run it through `make test`, which
# builds the programs first.
cd "$(dirname "$0")/.." || exit 1
# Every check writes under $TMP: without it they would write into the
# current directory (or /, as root), so refuse to start.
if ! TMP=$(mktemp -d) || [ ! -d "$TMP" ] || [ ! -w "$TMP" ]; then
	echo "tests/run.sh: mktemp -d failed (TMPDIR=${TMPDIR:-unset}): set TMPDIR to a writable directory" >&2
	exit 1
fi
trap 'rm -rf "$TMP"' EXIT
. tests/lib.sh

./frames --env 2>/dev/null || echo "# (./frames --env failed)"
for t in tests/lab*.sh tests/course-grader.sh; do
	echo "== $t"
	. "$t"
done

line="$PASSED passed, $FAILED failed"
[ "$SKIPPED" -gt 0 ] && line="$line, $SKIPPED skipped"
echo "$line"
[ "$FAILED" -eq 0 ]
