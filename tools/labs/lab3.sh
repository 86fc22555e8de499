#!/usr/bin/env bash
# tools/labs/lab3.sh table|report|tunables|strace - Lab 3's runs, as `make lab3`
# (alias bug1541), `make lab3-tunables` and `make lab3-strace` (alias
# bug1541-strace) start them.  Every command is printed before it runs,
# exactly as a student would type it; outputs are kept in .run/lab3/.
#   table     the report's four cases (SIZE 128000 and 1280000, the pre-2.5
#             128 KiB threshold and the reporter's 16 MiB threshold, on this
#             glibc's heaps: threads.c says what it cannot be), today's
#             default and a tuned run, at 1 thread and at N = CPUs threads, as
#             weak scaling: each thread keeps LIVE/N bytes live and makes COUNT
#             requests, the same ones in every thread, so N threads do exactly
#             N times the work of one.  The 1280000 pre-2.5, 16 MiB and tuned
#             pairs run REPEATS times for the speed-up's range.  CSV=1 prints
#             every run as CSV instead of the table.
#   report    the table of the last `table` run again, from .run/lab3/.
#   tunables  --mode default under the tuned thresholds set from outside
#             (GLIBC_TUNABLES, then the MALLOC_*_ variables) beside --mode
#             tuned, and glibc.malloc.arena_max=1 at N threads.
#   strace    strace -f -c of the calls that matter, for each mode.
# Knobs (environment): COUNT_SMALL, COUNT_LARGE (requests per thread at SIZE
# 128000 and 1280000; the report used 10000 for both), LIVE (bytes live over
# all N threads; the report's ~490 MB), REPEATS, THREADS (N; default: CPUs),
# COUNT_FAST (requests per thread of the 1280000 16 MiB and tuned runs;
# default 4 x COUNT_LARGE: at COUNT_LARGE their timed part is too short
# for a speed-up, and pre-2.5 at 4 x would take a minute a run).
set -u -o pipefail
cd "$(dirname "$0")/../.." || exit 1
OUT=${LAB3_OUT:-.run/lab3}
SHORT=0.25      # seconds: a timed part shorter than this is mostly start-up and noise
. tools/lib/lib.sh
prog=lab3
usage() { echo "usage: tools/labs/lab3.sh table|report|tunables|strace"; }

# Knobs first: a bad one stops everything before the first run.
# Their defaults and ranges: tools/labs/knobs.  Two have no default there,
# being worked out here: COUNT_FAST (4 x COUNT_LARGE) and THREADS (CPUs).
lab_knobs lab3 "${1:-}"
[ -n "$COUNT_FAST" ] || COUNT_FAST=$((4 * COUNT_LARGE))
[ -n "$THREADS" ] || THREADS=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)
N=$THREADS
LIVE_OWN=$(lab_default lab3 LIVE)   # ./threads' own: --live is left out at it
need_built threads
leftover_settings "the default runs"
mkdir -p "$OUT" || exit 1

# say WORDS...: the command as a student would type it, in 78 columns
# (show_cmd).  Under CSV=1 stdout is the CSV, so commands go to stderr.
say() { if [ "$CSV" = 1 ]; then show_cmd "$@" >&2; else show_cmd "$@"; fi; }

note() { if [ "$CSV" = 1 ]; then printf '%s\n' "$*" >&2; else printf '%s\n' "$*"; fi; }

# wait_shown PID I N TEXT: wait for PID; on a terminal, "[I/N] TEXT" and
# the seconds so far four times a second (a pre-2.5 run lasts seconds;
# progress: tools/lib/lib.sh).  The pause is a read that times out on a
# FIFO nobody writes: no process started per tick.
wait_shown() {
	local pid=$1 fd
	if [ -t 2 ] && mkfifo "$OUT/.tick.$$" 2>/dev/null && exec {fd}<>"$OUT/.tick.$$"; then
		rm -f "$OUT/.tick.$$"
		while progress "[$2/$3] $4"; read -r -t 0.25 -u "$fd" _ || :; kill -0 "$pid" 2>/dev/null; do :; done
		exec {fd}<&-
	fi
	wait "$pid"
}

# run FILE QUIET ENV... -- ARGS...: run ./threads ARGS with the ENV
# assignments, stdout to FILE.  QUIET=1: do not print the command (a repeat).
# The first failure stops the script with the program's own reason.
STEP=0 STEPS=0
run() {
	local file=$1 quiet=$2 envs=() rc
	shift 2
	while [ "$1" != -- ]; do envs+=("$1"); shift; done
	shift
	STEP=$((STEP + 1))
	[ "$quiet" = 1 ] || say "${envs[@]}" ./threads "$@"
	env "${envs[@]}" ./threads "$@" >"$file" 2>"$file.err" &
	wait_shown $! "$STEP" "$STEPS" "./threads $*"
	rc=$?
	progress
	[ "$rc" -eq 0 ] || die "the run failed (exit $rc): $(head -n 1 "$file.err")"
}

# col FILE NAME: the value of column NAME in a --csv file (header + one row).
# The columns read here all come before the environment's quoted ones.
col() { awk -F, -v n="$2" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == n) c = i; next }
	NR == 2 && c { print $c; exit }' "$1"; }

# field FILE LABEL: the first word after "LABEL:" in a report.
field() { awk -v l="$2" '{ s = $0; sub(/^ +/, "", s) } index(s, l ":") == 1 {
	s = substr(s, length(l) + 2); sub(/^ +/, "", s); sub(/ .*/, "", s); print s; exit }' "$1"; }

calc() { awk "BEGIN { $1 }"; }
# per_req FILE NAME: column NAME of a --csv file divided by its requests.
per_req() { calc "r = $(col "$1" requests) + 0; if (r > 0) printf \"%.9g\", $(col "$1" "$2") / r"; }
ratio() { calc "a = $1 + 0; b = $2 + 0; if (b > 0) printf \"%.1f\", a / b; else printf \"n/a\""; }

# The environment once per target; a line over 100 columns is folded at its
# " | " separators.
header() { ./threads --env | awk 'length > 100 { gsub(/ \| /, "\n# ") } 1'; }

# ------------------------------------------------------------------ table
CASES="s-old s-16M l-old l-16M l-def l-tun"
REPEATED="l-old l-16M l-tun"
label() {
	case $1 in
	s-old) echo "128000 pre-2.5" ;;   s-16M) echo "128000 16 MiB" ;;
	l-old) echo "1280000 pre-2.5" ;;  l-16M) echo "1280000 16 MiB" ;;
	l-def) echo "1280000 default" ;;  l-tun) echo "1280000 tuned" ;;
	esac
}
args() {
	case $1 in
	s-old) echo "--mode pre25 128000 $COUNT_SMALL" ;;
	s-16M) echo "--mode pre25 --threshold 16M 128000 $COUNT_SMALL" ;;
	l-old) echo "--mode pre25 1280000 $COUNT_LARGE" ;;
	l-16M) echo "--mode pre25 --threshold 16M 1280000 $COUNT_FAST" ;;
	l-def) echo "--mode default 1280000 $COUNT_LARGE" ;;
	l-tun) echo "--mode tuned 1280000 $COUNT_FAST" ;;
	esac
}

# The table is two, so each fits 80 columns: the counts, then the times.
COUNT_COLS='%-16s %3s %9s %7s %7s %9s %6s %7s\n'
TIME_COLS='%-16s %3s %9s %10s %8s %8s\n'

count_row() {   # count_row FILE LABEL
	local f=$1
	# shellcheck disable=SC2059
	printf "$COUNT_COLS" "$2" \
		"$(col "$f" threads)" "$(col "$f" requests)" "$(col "$f" avg_request)" \
		"$(col "$f" mmapped)" "$(col "$f" minor_faults)" \
		"$(calc "printf \"%.1f\", $(col "$f" minor_faults) / $(col "$f" requests)")" \
		"$(col "$f" tlb_shootdowns)"
}

time_row() {    # time_row FILE LABEL
	local f=$1
	# shellcheck disable=SC2059
	printf "$TIME_COLS" "$2" "$(col "$f" threads)" \
		"$(calc "printf \"%.3f\", $(col "$f" time_s)")" \
		"$(calc "printf \"%.1f\", $(col "$f" us_per_request)")" \
		"$(calc "printf \"%.2f\", $(col "$f" user_s)")" \
		"$(calc "printf \"%.2f\", $(col "$f" sys_s)")"
}

# speedup ID: one line of the speed-up section, and its caveats.  Each run
# gives requests, time, faults and CPU time; runs come in pairs, 1 then N.
speedup() {
	local id=$1 r f
	for r in $(seq 1 "$REPEATS"); do
		for f in "$OUT/$id-1-$r.csv" "$OUT/$id-$N-$r.csv"; do
			echo "$(col "$f" requests) $(col "$f" time_s) $(col "$f" minor_faults)" \
				"$(col "$f" user_s) $(col "$f" sys_s)"
		done
	done | awk -v n="$N" -v short="$SHORT" -v name="$(label "$id")" \
		-v knob="$([ "$id" = l-old ] && echo COUNT_LARGE || echo COUNT_FAST)" '
		{ if (NR == 1 || $2 < shortest) shortest = $2 }
		NR % 2 == 1 { q1 = $1; t1 = $2; f1 += $3; r1 += $1; c1 += ($4 + $5) / $2; next }
		{
			s = ($1 / $2) / (q1 / t1)
			if (NR == 2 || s < lo) lo = s
			if (NR == 2 || s > hi) hi = s
			fn += $3; rn += $1; cn += ($4 + $5) / $2; pairs++
		}
		END {
			a = f1 / r1; b = fn / rn
			printf "  %-16s %.2f-%.2f   f/req %.1f | %.1f   CPUs busy %.1f | %.1f\n",
				name, lo, hi, a, b, c1 / pairs, cn / pairs
			why = 0
			if (hi > n)
				printf "      above %d, which no parallel program reaches; what this run found:\n", n
			if (shortest < short) {
				printf "      too short: a timed part lasted %.3f s (under %s s): start-up and\n", shortest, short
				printf "      timer noise weigh as much as the work; raise %s\n", knob
				why++
			}
			d = a > b ? a - b : b - a
			if (d > 0.1 * (a > b ? a : b)) {
				printf "      unequal work: %.1f vs %.1f faults a request (over 10%% apart), so\n", a, b
				printf "      the two sides did not pay the same price per request\n"
				why++
			}
			if (lo > 0 && hi / lo > 1.25) {
				printf "      noisy: the %d pairs spread from %.2f to %.2f\n", pairs, lo, hi
				why++
			}
			if (c1 / pairs < 0.8)
				printf "      busy machine: one thread alone kept only %.1f of a CPU busy (uptime)\n", c1 / pairs
			else if (cn / pairs < 0.8 * n)
				printf "      the %d threads kept only %.1f CPUs busy: they waited (locks), or\n" \
					"      other programs had the CPUs\n", n, cn / pairs
			if (hi > n && !why)
				printf "      no cause found: equal work, long enough runs; rerun with REPEATS=5\n"
		}'
}

table() {
	local lw=$LIVE id t r quiet sides=1 f
	[ "$N" -gt 1 ] && sides="1 $N" && lw=$((LIVE / N))
	STEPS=$(( (6 + 3 * (REPEATS - 1)) * (N > 1 ? 2 : 1) ))
	note "# weak scaling: every thread keeps $lw bytes live and replays the"
	note "# same requests"
	for r in $(seq 1 "$REPEATS"); do
		quiet=0
		[ "$r" -gt 1 ] && quiet=1
		for id in $([ "$r" = 1 ] && echo "$CASES" || echo "$REPEATED"); do
			for t in $sides; do
				# shellcheck disable=SC2046  # args() is words on purpose
				run "$OUT/$id-$t-$r.csv" "$quiet" -- --csv --weak --live "$lw" $(args "$id") "$t"
			done
		done
	done
	if [ "$REPEATS" -gt 1 ]; then
		note "# then the 1280000 pre-2.5, 16 MiB and tuned pairs again: $REPEATS runs"
		note "# of each (REPEATS)"
	fi
	render
}

# render: the CSV, table, ratios and speed-up from the runs kept in $OUT
# (`tools/labs/lab3.sh report` prints them again, with the same knobs, without
# running anything).
render() {
	local lw=$LIVE id t r sides=1 f
	[ "$N" -gt 1 ] && sides="1 $N" && lw=$((LIVE / N))
	for f in "$OUT"/l-tun-"$N"-"$REPEATS".csv "$OUT"/s-old-1-1.csv; do
		[ -s "$f" ] || die "no runs in $OUT for these knobs (missing $f)"
	done

	# Every run as one CSV, read by column name: the table below and CSV=1.
	{
		f=$OUT/s-old-1-1.csv
		printf 'case,repeat,%s\n' "$(head -n 1 "$f")"
		for r in $(seq 1 "$REPEATS"); do
			for id in $([ "$r" = 1 ] && echo "$CASES" || echo "$REPEATED"); do
				for t in $sides; do
					printf '%s,%s,%s\n' "$(label "$id")" "$r" "$(sed -n 2p "$OUT/$id-$t-$r.csv")"
				done
			done
		done
	} >"$OUT/bug1541.csv.part" && mv "$OUT/bug1541.csv.part" "$OUT/bug1541.csv" || exit 1
	if [ "$CSV" = 1 ]; then
		cat "$OUT/bug1541.csv"
		return
	fi

	echo
	header
	echo "# timed part only: the threads are started and the live set built before it"
	echo "# (first repeat); TLB = TLB-shootdown interrupts during it (system-wide)"
	# shellcheck disable=SC2059
	printf "$COUNT_COLS" case thr requests 'avg B' mmapped faults 'f/req' TLB
	for t in $sides; do
		for id in $CASES; do
			count_row "$OUT/$id-$t-1.csv" "$(label "$id")"
		done
	done
	echo
	# shellcheck disable=SC2059
	printf "$TIME_COLS" case thr 'time s' 'us/req' 'user s' 'sys s'
	for t in $sides; do
		for id in $CASES; do
			time_row "$OUT/$id-$t-1.csv" "$(label "$id")"
		done
	done
	echo
	echo "# ratios a request in the first repeat (16 MiB and tuned make COUNT_FAST"
	echo "# requests)"
	for t in $sides; do
		printf '  %2s thr: pre-2.5 / 16 MiB: %sx the time, %sx the faults;\n' \
			"$t" "$(ratio "$(per_req "$OUT/l-old-$t-1.csv" time_s)" "$(per_req "$OUT/l-16M-$t-1.csv" time_s)")" \
			"$(ratio "$(per_req "$OUT/l-old-$t-1.csv" minor_faults)" "$(per_req "$OUT/l-16M-$t-1.csv" minor_faults)")"
		printf '          pre-2.5 / tuned: %sx the faults\n' \
			"$(ratio "$(per_req "$OUT/l-old-$t-1.csv" minor_faults)" "$(per_req "$OUT/l-tun-$t-1.csv" minor_faults)")"
	done
	if [ "$N" -gt 1 ]; then
		echo
		echo "# speed-up from 1 to $N threads: requests per second at $N over that at 1,"
		echo "# weak scaling (each thread: $lw bytes live, $COUNT_LARGE requests, 16 MiB and"
		echo "# tuned $COUNT_FAST, the same in every thread; $N threads do $N times the work"
		echo "# of 1, so $N would be perfect).  min-max over $REPEATS pair(s) of runs, then"
		echo "# faults per request and CPUs kept busy ((user + sys) / time)"
		echo "# at 1 | $N threads:"
		for id in $REPEATED; do
			speedup "$id"
		done
	fi
	echo "# every run as CSV: $OUT/bug1541.csv"
	echo "# (CSV=1 prints it instead of the table)"
}

# --------------------------------------------------------------- tunables
TUNED_T="glibc.malloc.mmap_threshold=16777216:glibc.malloc.trim_threshold=33554432"

tunables() {
	local w=(1280000 "$COUNT_LARGE" "$N") live=() f
	[ "$LIVE" = "$LIVE_OWN" ] || live=(--live "$LIVE")
	STEPS=6
	echo "# the tuned thresholds set inside (mallopt, --mode tuned) and from outside"
	run "$OUT/t-tuned" 0 -- "${live[@]}" --mode tuned "${w[@]}"
	run "$OUT/t-env" 0 "GLIBC_TUNABLES=$TUNED_T" -- "${live[@]}" --mode default "${w[@]}"
	run "$OUT/t-alias" 0 MALLOC_MMAP_THRESHOLD_=16777216 MALLOC_TRIM_THRESHOLD_=33554432 -- \
		"${live[@]}" --mode default "${w[@]}"
	run "$OUT/t-default" 0 -- "${live[@]}" --mode default "${w[@]}"
	echo "# one arena for all $N threads, the tuned policy: glibc.malloc.arena_max=1"
	run "$OUT/t-arenas" 0 -- "${live[@]}" --stats --mode tuned "${w[@]}"
	run "$OUT/t-arena1" 0 GLIBC_TUNABLES=glibc.malloc.arena_max=1 -- \
		"${live[@]}" --stats --mode tuned "${w[@]}"
	echo
	header
	# 79 columns: the longest run's name is 29 characters.
	printf '%-29s %8s %6s %7s %7s %6s  %8s\n' run faults f/req mmapped 'time s' 'sys s' \
		"vs tuned"
	local tf d
	tf=$(field "$OUT/t-tuned" 'minor faults')
	for f in t-tuned:"tuned (mallopt inside)" t-env:"default + GLIBC_TUNABLES" \
		t-alias:"default + MALLOC_*_ variables" t-default:"default, nothing set"; do
		d=$(calc "t = $tf + 0; g = $(field "$OUT/${f%%:*}" 'minor faults') + 0;
			if (t > 0) printf \"%+.2f%%\", (g - t) * 100 / t")
		printf '%-29s %8s %6s %7s %7s %6s  %8s\n' "${f#*:}" \
			"$(field "$OUT/${f%%:*}" 'minor faults')" "$(field "$OUT/${f%%:*}" faults/request)" \
			"$(field "$OUT/${f%%:*}" mmapped)" "$(field "$OUT/${f%%:*}" time)" \
			"$(field "$OUT/${f%%:*}" 'sys time')" "$d"
	done
	for f in t-env t-alias; do
		d=$(calc "t = $tf + 0; g = $(field "$OUT/$f" 'minor faults') + 0;
			d = g > t ? g - t : t - g; print (t > 0 && d <= t / 100) ? \"within\" : \"NOT within\"")
		printf '  %-15s %s 1%% of tuned'"'"'s faults\n                  (%s)\n' \
			"$([ "$f" = t-env ] && echo GLIBC_TUNABLES: || echo MALLOC_*_:)" "$d" \
			"$(sed -n 's/^  mmap threshold: *\([0-9]*\) (pinned by \([^:]*\):.*/threshold \1 from \2/p' \
				"$OUT/$f")"
	done
	echo
	printf '%-30s %6s %8s %7s %7s %6s %6s\n' run arenas faults 'time s' 'user s' 'sys s' waits
	for f in t-arenas:"tuned, arenas as glibc makes" t-arena1:"tuned, arena_max=1"; do
		printf '%-30s %6s %8s %7s %7s %6s %6s\n' "${f#*:}" "$(field "$OUT/${f%%:*}" arenas)" \
			"$(field "$OUT/${f%%:*}" 'minor faults')" "$(field "$OUT/${f%%:*}" time)" \
			"$(field "$OUT/${f%%:*}" 'user time')" "$(field "$OUT/${f%%:*}" 'sys time')" \
			"$(field "$OUT/${f%%:*}" waits)"
	done
	echo "# vs tuned: a run's faults against tuned's; arenas: malloc_info()'s count"
	echo "# (the main thread's arena included); waits: voluntary context switches, a"
	echo "# thread blocking (here: on the one arena's lock, a futex)"
}

# ----------------------------------------------------------------- strace
CALLS=mmap,munmap,brk,mprotect,madvise,futex
STRACE=${STRACE:-strace}        # the tests name a missing one to see the skip

strace_table() {
	local mode count=$((COUNT_LARGE / 4)) live=() err
	prog=lab3-strace
	if ! strace_works "$STRACE"; then echo "$prog: skipped: $STRACE_WHY"; return 0; fi
	[ "$count" -ge 1 ] || count=1
	[ "$LIVE" = "$LIVE_OWN" ] || live=(--live "$LIVE")
	STEPS=3
	for mode in pre25 default tuned; do
		STEP=$((STEP + 1))
		show_cmd strace -f -c -e trace="$CALLS" -o "$OUT/$mode.strace" \
			./threads "${live[@]}" --mode "$mode" 1280000 "$count" "$N"
		progress "[$STEP/$STEPS] strace ./threads --mode $mode"
		"$STRACE" -f -c -e trace=$CALLS -o "$OUT/$mode.strace" \
			./threads "${live[@]}" --mode "$mode" 1280000 "$count" "$N" \
			>"$OUT/$mode.out" 2>"$OUT/$mode.err"
		err=$?
		progress
		[ "$err" -eq 0 ] || die "the run failed (exit $err): $(head -n 1 "$OUT/$mode.err")"
	done
	echo "# calls over the whole run (live set built, $count requests a thread, freed)"
	printf '  %-10s %9s %9s %9s\n' call pre25 default tuned
	for c in ${CALLS//,/ }; do
		printf '  %-10s' "$c"
		for mode in pre25 default tuned; do
			printf ' %9s' "$(strace_calls "$OUT/$mode.strace" "$c")"
		done
		echo
	done
	# x86: flush_tlb_mm_range (arch/x86/mm/tlb.c) interrupts the CPUs in the
	# process's mm_cpumask besides its own; mmap (vm_mmap_pgoff, mm/util.c)
	# and munmap (__vm_munmap) take mmap_lock for write.
	echo "# mmap + munmap per request is the old policy's price: each takes mmap_lock for"
	echo "# write, and a munmap interrupts each other CPU that may hold the process's"
	echo "# mappings in its TLB (a TLB shootdown: make lab3's TLB column)."
	echo "# mprotect grows a thread's heap; madvise gives a heap's free pages back; futex"
	echo "# is a thread waiting (the barriers, an arena's lock)."
}

case ${1:-} in
table) table ;;
report) render ;;
tunables) prog=lab3-tunables; tunables ;;
strace) strace_table ;;
*) bad_usage "no mode '${1:-}'" ;;
esac
