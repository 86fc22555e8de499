#!/usr/bin/env bash
# tools/labs/lab6.sh [table|tunables|strace] - Lab 6's runs, as `make lab6`,
# `make lab6-tunables` and `make lab6-strace` start them.  Every command is
# printed before it runs, exactly as a student would type it.
#   table     1, 2, 4, ... MAX_THREADS threads, three runs each: glibc's
#             defaults, MALLOC_ARENA_MAX=2, and the defaults with
#             malloc_trim(0) after the burst; two tables: resident memory
#             against the bytes live, then the arenas and x live
#   tunables  8 threads (or MAX_THREADS, if fewer) under arena_max=1 and =2
#             (GLIBC_TUNABLES and MALLOC_ARENA_MAX), trim_threshold=0, and
#             --trim, each with its RssAnon before and after malloc_trim(0)
#   strace    strace -f -c of mmap/munmap/mprotect/madvise/brk: a run
#             without and with --trim, at 4 threads and at arena_max=1
# Knobs (environment): ROUNDS (requests per thread), MAX_THREADS (16 x
# CPUs, at most 64, when not given); their defaults and ranges are
# tools/labs/knobs'.  Checked before anything runs; a failed run stops it
# all.
set -u -o pipefail
cd "$(dirname "$0")/../.." || exit 1
. tools/lib/lib.sh
prog=lab6
MODE=${1:-table}
NCPU=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)
lab_knobs lab6 "$MODE"
[ -n "$MAX_THREADS" ] || MAX_THREADS=$(( 16 * NCPU > 64 ? 64 : 16 * NCPU ))
case $MODE in
table|tunables|strace) ;;
*) echo "$prog: no mode '$MODE' (usage: $0 [table|tunables|strace])" >&2; exit 2 ;;
esac
[ -x ./arenas ] || die "./arenas is not built; run make arenas"
leftover_settings "the default runs"
scratch_dir                     # tools/lib/lib.sh: TMPD, removed at exit

# run FILE WORDS...: print the command (VAR=value words first), run it with
# its CSV into FILE; the first failure stops everything.
run() {
	local file=$1
	shift
	progress                    # tools/lib/lib.sh: clear it before a line
	show_cmd "$@"
	progress "$*"
	env "$@" >"$file" 2>"$file.err" || { progress; die "the run failed: $* ($(head -n 1 "$file.err"))"; }
}

# col FILE NAME: column NAME of a one-row --csv file, read by its name.
col() { awk -F, -v n="$2" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == n) c = i; next }
	NR == 2 && c { print $c; exit }' "$1"; }
# x_live KIB BYTES: KIB of resident memory per KiB live, one decimal.
x_live() { awk -v k="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.1f", k * 1024 / b; else printf "n/a" }'; }
grown() { echo $(( $(col "$1" "$2") - $(col "$1" anon_start_kib) )); }

# The environment once, at the top.
./arenas --env || die "./arenas does not run"

# lab6's two tables: the KiB (live, then RssAnon grown in each run), then
# the arenas and x live.  Room for 9-digit KiB and 7-character ratios.
L6_KIB='%7s %9s %9s  %9s %11s  %9s %9s\n'
L6_X='%7s %9s %11s  %9s %11s %9s\n'

threads_list() {
	local t=1
	while [ "$t" -le "$MAX_THREADS" ]; do echo "$t"; t=$((t * 2)); done
}

table() {
	local t d a m
	echo
	for t in $(threads_list); do
		run "$TMPD/d$t" ./arenas --csv --threads "$t" --rounds "$ROUNDS"
		run "$TMPD/a$t" MALLOC_ARENA_MAX=2 ./arenas --csv --threads "$t" --rounds "$ROUNDS"
		run "$TMPD/m$t" ./arenas --csv --trim --threads "$t" --rounds "$ROUNDS"
	done
	progress
	echo
	echo "Three separate runs a row, the same requests: glibc's defaults,"
	echo "MALLOC_ARENA_MAX=2, and malloc_trim(0) after the burst.  Resident memory is"
	echo "RssAnon grown (after the burst minus before it) beside the bytes live; x live"
	echo "is resident KiB per KiB live after the burst."
	echo
	# Two tables, so each fits 80 columns: the KiB, then the arenas and each
	# run's x live (resident KiB per KiB live after the burst).
	echo "             live KiB            RssAnon grown, KiB       malloc_trim(0)"
	printf "$L6_KIB" threads peak after default ARENA_MAX=2 before after
	for t in $(threads_list); do
		d=$TMPD/d$t a=$TMPD/a$t m=$TMPD/m$t
		# shellcheck disable=SC2059
		printf "$L6_KIB" "$t" $(( $(col "$d" live_peak) / 1024 )) $(( $(col "$d" live_after) / 1024 )) \
			"$(grown "$d" anon_after_kib)" "$(grown "$a" anon_after_kib)" \
			"$(grown "$m" anon_after_kib)" "$(grown "$m" anon_trimmed_kib)"
	done
	echo
	echo "               arenas                        x live"
	printf "$L6_X" threads default ARENA_MAX=2 default ARENA_MAX=2 trimmed
	for t in $(threads_list); do
		d=$TMPD/d$t a=$TMPD/a$t m=$TMPD/m$t
		# shellcheck disable=SC2059
		printf "$L6_X" "$t" "$(col "$d" arenas)" "$(col "$a" arenas)" \
			"$(x_live "$(grown "$d" anon_after_kib)" "$(col "$d" live_after)")" \
			"$(x_live "$(grown "$a" anon_after_kib)" "$(col "$a" live_after)")" \
			"$(x_live "$(grown "$m" anon_trimmed_kib)" "$(col "$m" live_after)")"
	done
	echo
	echo "Read it: live is the program's own count (the same requests under every"
	echo "policy, so the same live bytes); arenas is what malloc_info() listed,"
	echo "predicted in ./arenas's report as min(threads + 1, limit).  Each arena keeps"
	echo "the pages of the largest bursts it served, pinned by the few blocks each"
	echo "request kept; two arenas keep what the threads held at once, which rises with"
	echo "threads on a busy CPU too.  malloc_trim(0) madvises the free pages inside"
	echo "every arena: 'after' is what it could not return."
	trim_by_page_size
	echo "The x columns are measured ratios on this machine, not targets."
}

# What malloc_trim(0) can return depends on the page size: the reason, with
# this machine's page size (the blocks are SMALL_MAX/MEDIUM_MAX of
# tools/include/arenas.h).
trim_by_page_size() {
	local page
	page=$(getconf PAGESIZE)
	echo "It returns whole pages only ($page bytes here): a free run between two kept"
	echo "blocks gives back the pages wholly inside it.  The blocks are 16 B to 16 KiB,"
	if [ "$page" -le 4096 ]; then
		echo "so the larger gaps hold whole pages and most of the freed memory goes back;"
		echo "with 16 KiB or 64 KiB pages (arm64) fewer gaps hold one, and more of"
		echo "'default' stays."
	else
		echo "so the gaps that hold a whole $((page / 1024)) KiB page are fewer than with 4 KiB"
		echo "pages: expect more of 'default' to stay resident after the trim than on a"
		echo "4 KiB-page machine."
	fi
}

tunables() {
	local t=8 i label f
	[ "$MAX_THREADS" -lt 8 ] && t=$MAX_THREADS
	local envs=("" "GLIBC_TUNABLES=glibc.malloc.arena_max=1" "GLIBC_TUNABLES=glibc.malloc.arena_max=2"
		    "MALLOC_ARENA_MAX=2" "GLIBC_TUNABLES=glibc.malloc.trim_threshold=0")
	echo
	echo "$t threads, $ROUNDS requests each; every run ends with malloc_trim(0) (--trim):"
	for i in "${!envs[@]}"; do
		# shellcheck disable=SC2086
		run "$TMPD/t$i" ${envs[$i]} ./arenas --csv --trim --threads "$t" --rounds "$ROUNDS"
	done
	progress
	echo
	# 79 columns: the longest setting is 29 characters.
	echo "                                         live     RssAnon grown      trimmed"
	printf '%-29s %6s %8s  %8s %6s  %8s %6s\n' settings arenas KiB "KiB" "x" "KiB" "x"
	for i in "${!envs[@]}"; do
		f=$TMPD/t$i label=${envs[$i]:-default}
		printf '%-29s %6s %8s  %8s %6s  %8s %6s\n' "${label#GLIBC_TUNABLES=}" \
			"$(col "$f" arenas)" $(( $(col "$f" live_after) / 1024 )) \
			"$(grown "$f" anon_after_kib)" "$(x_live "$(grown "$f" anon_after_kib)" "$(col "$f" live_after)")" \
			"$(grown "$f" anon_trimmed_kib)" "$(x_live "$(grown "$f" anon_trimmed_kib)" "$(col "$f" live_after)")"
	done
	echo
	echo "Read it: RssAnon is grown over the run (after minus start), before and after"
	echo "malloc_trim(0) in the same process.  arena_max=1 and =2 (either spelling) cap"
	echo "the arenas; trim_threshold=0 trims only an arena's top chunk, which the kept"
	echo "blocks pin, so it changes little; malloc_trim(0) returns the free pages between"
	echo "them."
	trim_by_page_size
	echo "The x columns are measured ratios (KiB resident per KiB live), not targets."
}

strace_rows() {
	local i label f
	strace_works || { echo "$prog: skipped: $STRACE_WHY"; return 0; }
	local runs=("|" "|--trim" "GLIBC_TUNABLES=glibc.malloc.arena_max=1|"
		    "GLIBC_TUNABLES=glibc.malloc.arena_max=1|--trim")
	echo
	for i in "${!runs[@]}"; do
		local e=${runs[$i]%%|*} o=${runs[$i]#*|}
		progress
		# shellcheck disable=SC2086
		show_cmd $e strace -f -c -o run$i.strace -e trace=mmap,munmap,mprotect,madvise,brk \
			./arenas --threads 4 --rounds "$ROUNDS" $o
		progress "strace run $((i + 1)) of 4"
		# shellcheck disable=SC2086
		env $e strace -f -c -o "$TMPD/s$i" -e trace=mmap,munmap,mprotect,madvise,brk \
			./arenas --threads 4 --rounds "$ROUNDS" $o >"$TMPD/o$i" 2>"$TMPD/o$i.err" ||
			{ progress; die "the run failed under strace: $e ./arenas $o"; }
	done
	progress
	echo
	printf '%-18s %6s %6s %8s %7s %5s  %9s %9s\n' run mmap munmap mprotect madvise brk \
		"RssAnon" "trimmed"
	for i in "${!runs[@]}"; do
		f=$TMPD/s$i
		label="${runs[$i]%%|*} ${runs[$i]#*|}"
		label=${label#GLIBC_TUNABLES=glibc.malloc.}
		label=${label# }
		printf '%-18s %6s %6s %8s %7s %5s  %9s %9s\n' "${label:-default}" \
			"$(strace_calls "$f" mmap)" "$(strace_calls "$f" munmap)" "$(strace_calls "$f" mprotect)" \
			"$(strace_calls "$f" madvise)" "$(strace_calls "$f" brk)" \
			"$(field "$TMPD/o$i" 'RssAnon after')" "$(field "$TMPD/o$i" 'RssAnon trimmed' | grep . || echo -)"
	done
	echo
	# alloc_new_heap, shrink_heap, mtrim: glibc-2.36 malloc/arena.c:482-559,
	# 612-637, malloc/malloc.c:5035-5088 (4 threads here: 3 heaps of 128 MiB
	# cut by 1 or 2 munmaps, 1 of 64 MiB at the address a cut left free).
	echo "Read it: calls counted by strace -f -c over the whole run, 4 threads.  A thread"
	echo "arena's heap is an mmap of 128 MiB of PROT_NONE cut to an aligned 64 MiB (one"
	echo "or two munmaps), or of 64 MiB where an earlier cut left an aligned hole; it is"
	echo "mprotect'ed as it grows; free() hands back a heap's top with"
	echo "madvise(MADV_DONTNEED) (shrink_heap).  malloc_trim(0) adds one madvise per free"
	echo "chunk holding a whole page, in every arena (mtrim), and a brk for the main"
	echo "heap's top (systrim).  The counts under strace are real; its times are not."
}
field() { awk -v l="$2" '{ s = $0; sub(/^ +/, "", s) } index(s, l ":") == 1 {
	s = substr(s, length(l) + 2); sub(/^ +/, "", s); sub(/ .*/, "", s); print s; exit }' "$1"; }

case $MODE in
table) table ;;
tunables) tunables ;;
strace) strace_rows ;;
esac
