#!/usr/bin/env bash
# tools/maint/grade-timing.sh [SUBMISSION] - how long tools/grade.sh takes
# on the two loads a course can meet (issue 24: it must stay linear):
#   one 40 MB file: the submission with one Lab 4 CSV row repeated until
#     the file holds 40 MB (the grader flags it INTEGRITY, rows_once)
#   500 files: copies of the submission, each under another name with one
#     recorded time edited (graded as a DIR: 500 reports, the CSV, the
#     copy groups)
# under every awk found here (awk, mawk, gawk, busybox awk).  Prints a
# table headed by this machine's description; with OUT=results/grade-timing.txt
# it writes there (only through this script: nothing in results/ by hand).
# SUBMISSION defaults to results/reference-submission.txt.  Takes a minute
# or two; the scratch files live in a temporary directory.
set -u -o pipefail
cd "$(dirname "$0")/../.." || exit 1
prog=grade-timing
. tools/lib/lib.sh || exit 1
usage() { echo "usage: tools/maint/grade-timing.sh [SUBMISSION]   (OUT=file to keep the table)"; }
case ${1:-} in -h|--help) usage; exit 0 ;; -*) bad_usage "unknown option '$1'" ;; esac
[ $# -le 1 ] || bad_usage "one SUBMISSION at most"
SUB=${1:-results/reference-submission.txt}
[ -f "$SUB" ] && [ -r "$SUB" ] || bad_usage "cannot read '$SUB'"
T=$(mktemp -d) || die "no temporary directory"
trap 'rm -rf "$T"' EXIT

# the 40 MB file: one data row of lab4.34M, repeated after itself
row=$(sed -n '/^@run lab4\.34M$/,/^@end$/p' "$SUB" | grep '^csv: ' | sed -n 2p)
[ -n "$row" ] || die "$SUB has no lab4.34M row to repeat"
need=$(( 40 * 1000 * 1000 / (${#row} + 1) + 1 ))
awk -v row="$row" -v n="$need" '{ print } $0 == "@run lab4.34M" { r = 1 }
	r && /^csv: / && ++k == 2 { for (i = 0; i < n; i++) print row; r = 0 }' "$SUB" >"$T/big.txt" ||
	die "cannot write the 40 MB file"
mb=$(( $(wc -c <"$T/big.txt") / 1000000 ))

# 500 files, each with its own name and one time changed
mkdir "$T/class"
for i in $(seq 1 500); do
	awk -v i="$i" '/^student: / { $0 = "student: s" i }
		/^csv: / && !done && $0 ~ /,0\.[0-9]+,/ { sub(/,0\.[0-9]+,/, ",0." i ","); done = 1 } { print }' "$SUB" >"$T/class/s$i.txt"
done

awks="awk"           # and each other awk found, unless it is the one awk is
for a in mawk gawk; do
	command -v $a >/dev/null 2>&1 && [ "$(readlink -f "$(command -v $a)")" != "$(readlink -f "$(command -v awk)")" ] && awks="$awks $a"
done
command -v busybox >/dev/null 2>&1 && busybox awk 'BEGIN { exit 0 }' 2>/dev/null && awks="$awks busybox"
mkdir "$T/bin"
# seconds COMMAND...: "WALL (CPU)": the wall time of COMMAND and the CPU
# time (user + system) of it and its children, output discarded.  On a
# loaded machine the CPU time is the steadier figure.
seconds() {
	local t
	t=$( { TIMEFORMAT='%R %U %S'; time "$@" >/dev/null 2>&1; } 2>&1 )
	awk -v t="$t" 'BEGIN { split(t, a, " "); printf "%.1f (%.1f)", a[1], a[2] + a[3] }'
}
{
	echo "# tools/grade.sh timed by tools/maint/grade-timing.sh on $(date -u '+%Y-%m-%d %H:%M UTC')"
	# Every line within 100 columns: the machine's names are cut short.
	printf '# machine: %.40s, %s CPU(s): %.40s\n' "$(uname -srm)" "$(getconf _NPROCESSORS_ONLN)" \
		"$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo 2>/dev/null)"
	echo "# $(grep -qw hypervisor /proc/cpuinfo 2>/dev/null && echo 'a virtual machine' || echo 'no hypervisor flag'), shared with other jobs; load average at the start: $(cut -d' ' -f1-3 /proc/loadavg)"
	echo "# each cell: wall seconds (CPU seconds, user + system, of the grader and its children)"
	printf '# submission: %.60s (kit %.20s)\n' "$SUB" "$(sed -n 's/^kit: //p' "$SUB" | head -n 1)"
	echo "# limits (issue 24): 40 MB <= 5 s, 500 files <= 10 s"
	printf '%-18s %20s %20s\n' "awk" "one ${mb} MB file" "500 files (DIR)"
	for a in $awks; do
		rm -f "$T/bin/awk"
		if [ "$a" = busybox ]; then printf '#!/bin/sh\nexec busybox awk "$@"\n' >"$T/bin/awk"; chmod +x "$T/bin/awk"
		else ln -s "$(command -v "$a")" "$T/bin/awk"; fi
		name=$a; [ "$a" = awk ] && name="awk ($(readlink -f "$(command -v awk)" | sed 's|.*/||'))"
		big=$(PATH=$T/bin:$PATH seconds tools/grade.sh "$T/big.txt")
		class=$(PATH=$T/bin:$PATH seconds tools/grade.sh --csv "$T/class")
		printf '%-18s %20s %20s\n' "$name" "$big" "$class"
	done
} >"$T/table" || die "cannot write the table"
cat "$T/table"
if [ -n "${OUT:-}" ]; then
	cp "$T/table" "$OUT.part" && mv "$OUT.part" "$OUT" || die "cannot write $OUT"
	echo "$prog: written to $OUT" >&2
fi
