#!/usr/bin/env bash
# tools/bug1541.sh table|strace - Lab 3's runs, as `make bug1541` and
# `make bug1541-strace` start them.  Every command is printed before it runs,
# exactly as a student would type it; outputs are kept in .run/lab3/.
#   table   the report's four cases (SIZE 128000 and 1280000, the pre-2.5
#           128 KiB threshold and the reporter's 16 MiB build) at 1 thread and
#           at N = CPUs threads, then today's default and a tuned run at
#           1280000; a table and the ratios measured in this run.
#   strace  the system calls of the old policy and the tuned one (strace -f -c).
# Scale with COUNT_SMALL / COUNT_LARGE (requests per thread; the report used
# 10000 for both) and LIVE (bytes live in total; the report's ~490 MB).
set -u
cd "$(dirname "$0")/.." || exit 1
COUNT_SMALL=${COUNT_SMALL:-10000}
COUNT_LARGE=${COUNT_LARGE:-4000}
LIVE=${LIVE:-490000000}
NCPU=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)
OUT=.run/lab3
mkdir -p "$OUT"
[ -x ./threads ] || { echo "bug1541: ./threads is not built; run make threads" >&2; exit 1; }
[ "$LIVE" = 490000000 ] && L= || L=" --live $LIVE"

# run NAME WORDS...: echo the command, run it quietly into .run/lab3/NAME.
run() {
	local name=$1
	shift
	printf '$ %s\n' "$*"
	"$@" >"$OUT/$name" || { echo "bug1541: the run failed" >&2; exit 1; }
}

field() { awk -v l="$2" 'index($0, "  " l ":") == 1 { sub(/^ +[^:]+: +/, ""); sub(/ .*/, ""); print; exit }' "$OUT/$1"; }

row() {
	local name=$1 what=$2
	printf '%-26s %7s %8s %7s %8s %9s %8s %8s %9s %7s %7s %6s\n' "$what" \
		"$(field "$name" threads)" "$(field "$name" requests)" \
		"$(field "$name" 'average request')" "$(field "$name" mmapped)" \
		"$(field "$name" 'minor faults')" "$(field "$name" faults/request)" \
		"$(field "$name" time)" "$(field "$name" 'per request')" \
		"$(field "$name" 'user time')" "$(field "$name" 'sys time')" \
		"$(field "$name" 'TLB shootdowns')"
}

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.1f", a / b; else print "n/a" }'; }

table() {
	local t cases=()
	for t in 1 "$NCPU"; do
		run "old-128000-$t" ./threads$L --mode pre25 128000 "$COUNT_SMALL" "$t"
		run "16M-128000-$t" ./threads$L --mode pre25 --threshold 16M 128000 "$COUNT_SMALL" "$t"
		run "old-1280000-$t" ./threads$L --mode pre25 1280000 "$COUNT_LARGE" "$t"
		run "16M-1280000-$t" ./threads$L --mode pre25 --threshold 16M 1280000 "$COUNT_LARGE" "$t"
		run "default-1280000-$t" ./threads$L --mode default 1280000 "$COUNT_LARGE" "$t"
		run "tuned-1280000-$t" ./threads$L --mode tuned 1280000 "$COUNT_LARGE" "$t"
		[ "$t" = "$NCPU" ] && break    # a 1-CPU machine runs one set
	done
	echo
	head -n 1 "$OUT/old-128000-1"
	echo "# timed part only: COUNT requests per thread once the live set is built;"
	echo "# TLB = TLB-shootdown interrupts during it (system-wide, /proc/interrupts)"
	printf '%-26s %7s %8s %7s %8s %9s %8s %8s %9s %7s %7s %6s\n' case threads requests \
		'avg B' mmapped faults 'f/req' 'time s' 'us/req' 'user s' 'sys s' 'TLB'
	for t in 1 "$NCPU"; do
		row "old-128000-$t" "128000, pre-2.5 (128 KiB)"
		row "16M-128000-$t" "128000, 16 MiB threshold"
		row "old-1280000-$t" "1280000, pre-2.5 (128 KiB)"
		row "16M-1280000-$t" "1280000, 16 MiB threshold"
		row "default-1280000-$t" "1280000, today's default"
		row "tuned-1280000-$t" "1280000, tuned"
		[ "$t" = "$NCPU" ] && break
	done
	echo
	echo "# ratios measured in this run (same work on each side)"
	for t in 1 "$NCPU"; do
		printf '  %s thread(s), 1280000: pre-2.5 / 16 MiB: %sx the time, %sx the faults; pre-2.5 / tuned: %sx the faults\n' "$t" \
			"$(ratio "$(field "old-1280000-$t" time)" "$(field "16M-1280000-$t" time)")" \
			"$(ratio "$(field "old-1280000-$t" 'minor faults')" "$(field "16M-1280000-$t" 'minor faults')")" \
			"$(ratio "$(field "old-1280000-$t" 'minor faults')" "$(field "tuned-1280000-$t" 'minor faults')")"
		[ "$t" = "$NCPU" ] && break
	done
	if [ "$NCPU" -gt 1 ]; then
		printf '  speed-up from 1 to %s threads (requests per second; %s would be perfect): pre-2.5 %s, 16 MiB %s, tuned %s\n' \
			"$NCPU" "$NCPU" \
			"$(ratio "$(field "old-1280000-1" 'per request')" "$(field "old-1280000-$NCPU" 'per request')")" \
			"$(ratio "$(field "16M-1280000-1" 'per request')" "$(field "16M-1280000-$NCPU" 'per request')")" \
			"$(ratio "$(field "tuned-1280000-1" 'per request')" "$(field "tuned-1280000-$NCPU" 'per request')")"
	fi
	echo "# the report's own times are in README.md (Lab 3): this table prints only what ran here"
}

strace_table() {
	local mode count=$((COUNT_LARGE / 4)) cmd
	if ! command -v strace >/dev/null 2>&1; then
		echo "bug1541-strace: skipped: strace is not installed (apt-get install strace)"; return 0
	fi
	if ! strace -o /dev/null true >/dev/null 2>&1; then
		echo "bug1541-strace: skipped: strace cannot trace here (ptrace is not permitted)"; return 0
	fi
	[ "$count" -ge 1 ] || count=1
	for mode in pre25 tuned; do
		cmd="strace -f -c -o $OUT/$mode.strace ./threads$L --mode $mode 1280000 $count $NCPU"
		printf '$ %s\n' "$cmd"
		$cmd >"$OUT/$mode.out" || { echo "bug1541-strace: the run failed" >&2; exit 1; }
		echo "# $mode: the whole run (live set built, $count requests per thread, freed); top calls:"
		awk '/^ *[0-9.]+ +[0-9.]+/ && $NF != "total"' "$OUT/$mode.strace" |
			sort -k4,4nr | head -n 6 |
			awk '{ printf "  %-14s %9s calls\n", $NF, $4 }'
	done
	echo "# mmap + munmap per request is the old policy's price: each takes mmap_lock for"
	echo "# write, and each munmap in a threaded process sends TLB-shootdown interrupts."
}

case ${1:-} in
table) table ;;
strace) strace_table ;;
*) echo "usage: $0 table|strace" >&2; exit 2 ;;
esac
