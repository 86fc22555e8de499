#!/usr/bin/env bash
# tools/labs/lab7.sh [table|tunables|strace] - Lab 7: would another
# allocator have saved you?  Lab 1's frames (calloc, malloc and memset a
# frame) and Lab 6's thread bursts under glibc and under jemalloc, tcmalloc
# and mimalloc, each preloaded with LD_PRELOAD, as `make lab7`,
# `make lab7-tunables` and `make lab7-strace` start them.
#   table     glibc's defaults, glibc tuned, and each allocator's defaults
#   tunables  each preloaded allocator's defaults beside its own setting
#             that keeps a freed frame (or says none keeps calloc's);
#             glibc's two rows are make lab7's
#   strace    every row of both, once, under strace -f -c: the calls that
#             give memory back (brk, mmap, munmap, madvise) and the faults
#   csv       table's frames runs as one CSV on stdout (./frames --csv's
#             columns plus "allocator"), every round: what make plots draws
#   plot      (make plots) csv into CSV_DIR/lab7.csv, drawn by tools/plots/plot
#             as PLOTS_DIR/plot-lab7-time.svg and plot-lab7-faults.svg: one
#             colour an allocator, the medians
# Per row and program: the median time of REPEATS interleaved rounds,
# minor faults against a prediction from the allocator's own source where
# its policy allows one (else "measured only"), peak and final RSS, and
# the four calls counted by strace (one more run, when strace works;
# tunables leaves them to strace).
# An allocator whose library is not installed is skipped with its Debian
# package named; glibc's rows always run.  Every command is printed.
# Knobs (environment), checked before anything runs (their defaults and
# ranges: tools/labs/knobs): FRAMES (frames a run), REPEATS (rounds for
# the median time), THREADS (Lab 6's threads), ROUNDS (Lab 6's requests
# per thread), ALLOC_LIBDIR (where to look for the libraries; none:
# ldconfig's list, then /usr/lib/MULTIARCH).
set -u -o pipefail
cd "$(dirname "$0")/../.." || exit 1
. tools/lib/lib.sh
prog=lab7

usage() {
	echo "usage: $0 [table|tunables|strace|csv|plot]"
	echo "  knobs: FRAMES REPEATS THREADS ROUNDS ALLOC_LIBDIR (see the script's head)"
}
MODE=${1:-table}
case $MODE in
table|tunables|strace|csv|plot) ;;
*) bad_usage "no mode '$MODE'" ;;
esac
[ $# -le 1 ] || bad_usage "one mode at most, not '$*'"
lab_knobs lab7 "$MODE"          # tools/lib/lib.sh: default, range, or exit 2
need_built frames arenas
scratch_dir                     # TMPD, removed at exit

if [ "$MODE" = plot ]; then
	PLOTS_DIR=${PLOTS_DIR:-plots} CSV_DIR=${CSV_DIR:-${PLOTS_DIR:-plots}}
	mkdir -p "$PLOTS_DIR" "$CSV_DIR" || die "cannot create $PLOTS_DIR or $CSV_DIR"
	csv=$CSV_DIR/lab7.csv
	"$0" csv >"$csv" || die "the runs for the pictures failed"
	tools/plots/plot --kind bars --x alloc --y time_s --series allocator --median \
		--title "Lab 7: time per run of $FRAMES frames, by allocator (median)" \
		--xlabel "how each frame is allocated (./frames --alloc)" --ylabel "wall time (s)" \
		"$csv" >"$PLOTS_DIR/plot-lab7-time.svg" || die "drawing plot-lab7-time failed"
	tools/plots/plot --kind bars --x alloc --y minor_faults --series allocator --median --logy \
		--title "Lab 7: page faults per run of $FRAMES frames, by allocator" \
		--xlabel "how each frame is allocated (./frames --alloc)" \
		--ylabel "minor page faults (log scale)" \
		"$csv" >"$PLOTS_DIR/plot-lab7-faults.svg" || die "drawing plot-lab7-faults failed"
	exit 0
fi

FRAME_BYTES=$(frame_bytes)      # frames.c's FRAME_BYTES, from ./frames --help
[ -n "$FRAME_BYTES" ] || die "./frames --help gives no --size default (a frame's bytes)"
PAGE=$(getconf PAGESIZE)
PAGES=$(( (FRAME_BYTES + PAGE - 1) / PAGE ))
TC_EXTRA=$(( 2097152 / PAGE ))     # tcmalloc's 2 MiB (predict, below)
RF=$(read_faults_per_page)
[ -n "$RF" ] || die "./frames --env printed no 'read fault:' line"
FAULT_TOL=$(awk -v KIND=tolerance -f tools/grading/steps.awk)
KINDS="calloc malloc memset"

# ------------------------------------------------------------ the allocators
# One row each: name | Debian package | library (soname) | the setting that
# keeps a freed 63 MiB frame.  glibc is the C library itself (no preload).
# Why each does what it does, from its source, is in why_lines below and,
# with the functions read, in FURTHER.md ("Lab 7: sources read").
ALLOCATORS='glibc|libc6|-|GLIBC_TUNABLES=glibc.malloc.mmap_max=0:glibc.malloc.trim_threshold=4294967295
jemalloc|libjemalloc2|libjemalloc.so.2|MALLOC_CONF=oversize_threshold:0,dirty_decay_ms:-1
tcmalloc|libtcmalloc-minimal4|libtcmalloc_minimal.so.4|TCMALLOC_RELEASE_RATE=0
mimalloc|libmimalloc2.0|libmimalloc.so.2|MIMALLOC_RESERVE_OS_MEMORY=1GiB'

# alloc_field NAME N: field N (1-4) of NAME's row.
alloc_field() { awk -F'|' -v n="$1" -v f="$2" '$1 == n { print $f; exit }' <<<"$ALLOCATORS"; }

# library_path SONAME: the installed file, or nothing.
library_path() {
	local dir
	if [ -n "${ALLOC_LIBDIR:-}" ]; then
		[ -f "$ALLOC_LIBDIR/$1" ] && echo "$ALLOC_LIBDIR/$1"
		return 0
	fi
	/sbin/ldconfig -p 2>/dev/null | awk -v s="$1" '$1 == s && !found { print $NF; found = 1 }' |
		grep . && return 0
	dir=/usr/lib/$(gcc -print-multiarch 2>/dev/null)
	[ -f "$dir/$1" ] && echo "$dir/$1"
	return 0
}

# The two or three lines that say why, from each allocator's source (a
# variant is "default" or "knob").  At most 70 columns each.
why_lines() {
	local -a l
	case $1/$2 in
	glibc/default) l=("a block above the mmap threshold is its own mmap and free() munmaps" \
		"it (the threshold grows to 32 MiB at most: a 63 MiB frame stays" \
		"above); calloc() skips zeroing fresh mmap pages: Lab 1") ;;
	glibc/knob) l=("mmap_max=0 puts every frame on the brk heap and trim_threshold=4 GiB" \
		"keeps its top: a reused frame faults no more; calloc() memsets it") ;;
	jemalloc/default) l=("a freed extent of oversize_threshold (8 MiB) or more is purged at" \
		"once (extent_maximally_purge: madvise DONTNEED, the mapping kept);" \
		"calloc() re-zeroes a reused dirty extent the same way") ;;
	jemalloc/knob) l=("oversize_threshold:0 and dirty_decay_ms:-1 keep freed extents dirty;" \
		"calloc() still zeroes a dirty one with madvise DONTNEED" \
		"(ehooks_default_zero_impl): no setting keeps calloc's frame") ;;
	tcmalloc/default) l=("a freed span stays on the page heap; IncrementalScavenge returns" \
		"one span, then waits 1000 pages freed for each page it returned" \
		"(2^20 at most): a frame goes back at most once in 129") ;;
	tcmalloc/knob) l=("release rate 0 turns IncrementalScavenge off: nothing is returned;" \
		"calloc() memsets every block (do_calloc), fresh or reused") ;;
	mimalloc/default) l=("a block over 16 MiB is a huge segment of its own, never cached:" \
		"free() unmaps it (_mi_arena_free, _mi_os_free); calloc() memsets" \
		"a huge block in full, even fresh from mmap (_mi_malloc_generic)") ;;
	mimalloc/knob) l=("a committed 1 GiB arena reserved at start serves huge segments" \
		"and takes them back without decommit: kept; calloc() memsets") ;;
	esac
	printf '%s\n' "${l[@]}"
}

# predict NAME VARIANT KIND CSV: "FAULTS TOL WORD" for a frames run, WORD
# exact or bound (FAULTS then the upper end, TOL the lower); or "- - -",
# measured only.  PAGES pages a frame; RF faults for a page read first
# (render_frame reads a blank frame first), 1 for one written first.
predict() {
	local name=$1 var=$2 kind=$3 csv=$4 first kept fresh
	if [ "$name" = glibc ]; then
		# frames' own model of glibc (malloc.c's rules), to FAULT_TOL
		echo "$(tools/lib/csvget predicted_faults "$csv") $FAULT_TOL exact"
		return
	fi
	first=$RF
	case $name/$kind in
	*/memset|tcmalloc/calloc|mimalloc/calloc) first=1 ;;   # written first
	esac
	kept=$(( PAGES * first ))                    # the first frame only
	fresh=$(( FRAMES * PAGES * first ))          # every frame anew
	case $name/$var/$kind in
	jemalloc/default/*) echo "$fresh $(( fresh / 100 )) exact" ;;
	jemalloc/knob/calloc) echo "$(( FRAMES * PAGES * RF )) $(( FRAMES * PAGES * RF / 100 )) exact" ;;
	jemalloc/knob/*) echo "$kept $(( kept / 100 )) exact" ;;
	# tcmalloc: 1% and 2 MiB more.  Measured (gperftools 2.10, 4 KiB
	# pages): 3 runs in 36 faulted 512 pages (2 MiB) more, by where
	# address randomisation put tcmalloc's heap; with it off (setarch -R)
	# none in 16.  Its own bookkeeping, not the frames.
	tcmalloc/knob/*) echo "$kept $(( kept / 100 + TC_EXTRA )) exact" ;;
	# the first frame, then a fresh one after each release: at most one
	# in the first free and one more every 129 after (2^20 tcmalloc pages
	# of 8 KiB, over a frame's 8100)
	tcmalloc/default/*) echo "$(( kept * (1 + (FRAMES - 1 + 128) / 129) )) $kept bound" ;;
	*) echo "- - -" ;;
	esac
}

# ------------------------------------------------------------------ the runs
# A row is NAME/VARIANT.  env_of ROW: its environment words (LD_PRELOAD
# and the setting), one a line.
env_of() {
	local name=${1%/*} var=${1#*/}
	[ "$name" = glibc ] || echo "LD_PRELOAD=$(library_path "$(alloc_field "$name" 3)")"
	[ "$var" = knob ] && alloc_field "$name" 4
	return 0
}

# The commands of a row: frames three ways and arenas once.
cmd_of() {
	case $1 in
	threads) echo "./arenas --csv --threads $THREADS --rounds $ROUNDS" ;;
	*) echo "./frames --csv --trim --alloc $1 --frames $FRAMES" ;;
	esac
}

# run_one ROW PROG OUT [strace]: the row's command with its environment,
# CSV into OUT; under strace -f -c (the counts in OUT.strace) when asked.
# The first failure stops everything.
run_one() {
	local row=$1 p=$2 out=$3 e=() tr=()
	mapfile -t e < <(env_of "$row")
	[ "${4:-}" = strace ] && tr=(strace -f -c -o "$out.strace" -e trace=brk,mmap,munmap,madvise)
	# shellcheck disable=SC2046
	env "${e[@]}" "${tr[@]}" $(cmd_of "$p") >"$out" 2>"$out.err" ||
		{ progress; die "the run failed: ${e[*]} ${tr[*]} $(cmd_of "$p") ($(head -n 1 "$out.err"))"; }
}

# The rows each mode measures, and which of them can run here.
rows_of_mode() {
	case $MODE in
	table|csv) echo glibc/default glibc/knob jemalloc/default tcmalloc/default mimalloc/default ;;
	tunables) echo jemalloc/default jemalloc/knob tcmalloc/default tcmalloc/knob \
		mimalloc/default mimalloc/knob ;;
	strace) echo glibc/default glibc/knob jemalloc/default jemalloc/knob \
		tcmalloc/default tcmalloc/knob mimalloc/default mimalloc/knob ;;
	esac
}
ROWS=() SKIPPED=
for row in $(rows_of_mode); do
	name=${row%/*}
	if [ "$name" != glibc ] && [ -z "$(library_path "$(alloc_field "$name" 3)")" ]; then
		case " $SKIPPED " in *" $name "*) ;; *) SKIPPED="$SKIPPED $name" ;; esac
		continue
	fi
	ROWS+=("$row")
done

# The environment once, at the top (csv: its "# " lines); each
# allocator's own line below.
./frames --env || die "./frames does not run"
for name in $SKIPPED; do
	# csv: on stderr, so that the CSV holds only rows
	# (two lines: the longest name and package need 104 columns on one)
	printf '%s: skipped %s: %s is not installed\n      (apt-get install %s)\n' "$prog" "$name" \
		"$(alloc_field "$name" 3)" "$(alloc_field "$name" 2)" >&"$([ "$MODE" = csv ] && echo 2 || echo 1)"
done
# tunables counts no calls: make lab7-strace counts them for every row.
STRACE=1
[ "$MODE" = csv ] || [ "$MODE" = tunables ] && STRACE=0
[ "$MODE" = csv ] && KINDS_RUN=$KINDS || KINDS_RUN="$KINDS threads"
[ "$STRACE" = 0 ] || strace_works || STRACE=0
if [ "$MODE" = strace ] && [ "$STRACE" = 0 ]; then
	echo "$prog: skipped: $STRACE_WHY"
	exit 0
fi

[ "$MODE" = csv ] || {
echo
echo "Each row: ./frames (Lab 1) three ways and ./arenas (Lab 6) once:"
for p in $KINDS threads; do show_cmd $(cmd_of "$p"); done
echo "under each allocator's environment, shown with its row.  Times are the median"
echo "of $REPEATS interleaved rounds; faults, RSS and calls are from one run."
}

# ------------------------------------------------------------------ measure
file_of() { echo "$TMPD/$(tr / _ <<<"$1")_$2_$3"; }
n_runs=$(( ${#ROWS[@]} * $(wc -w <<<"$KINDS_RUN") ))
if [ "$MODE" != strace ]; then
	for r in $(seq 1 "$REPEATS"); do
		i=0
		for row in "${ROWS[@]}"; do
			for p in $KINDS_RUN; do
				i=$((i + 1))
				progress "round $r of $REPEATS, run $i of $n_runs: $row $p"
				run_one "$row" "$p" "$(file_of "$row" "$p" "$r")"
			done
		done
	done
fi
if [ "$STRACE" = 1 ]; then
	i=0
	for row in "${ROWS[@]}"; do
		for p in $KINDS threads; do
			i=$((i + 1))
			progress "under strace, run $i of $n_runs: $row $p"
			run_one "$row" "$p" "$(file_of "$row" "$p" s)" strace
		done
	done
fi
progress

# ------------------------------------------------------------------ report
# The allocator each run really had: its CSV's malloc_owner must name the
# library preloaded (a preload that did not load would measure glibc).
check_owner() {
	local row=$1 f=$2 want owner
	want=$(alloc_field "${row%/*}" 3)
	owner=$(tools/lib/csvget malloc_owner "$f") || die "no malloc_owner in $f"
	if [ "$want" = - ]; then
		[[ ${owner##*/} == libc.so* || ${owner##*/} == libc-2.* ]] ||
			die "$row: malloc() came from $owner, not glibc's libc"
	else
		[ "${owner##*/}" = "$want" ] || die "$row: malloc() came from $owner, not $want"
	fi
}

mib() { awk -v k="$1" 'BEGIN { if (k == "") print "-"; else printf "%.1f", k / 1024 }'; }
col() { tools/lib/csvget "$2" "$1"; }

print_row() {
	local row=$1 p=$2 f t pf pt pw pred peak final s calls c
	if [ "$MODE" = strace ]; then f=$(file_of "$row" "$p" s); t=-
	else
		f=$(file_of "$row" "$p" 1)
		t=$(for r in $(seq 1 "$REPEATS"); do file_of "$row" "$p" "$r"; done)
		# shellcheck disable=SC2086
		t=$(median_range $t) || exit 1
		t=$(printf '%.3f' "${t%% *}")
	fi
	check_owner "$row" "$f"
	if [ "$p" = threads ]; then
		pred="measured only"
		peak=$(mib "$(col "$f" hwm_kib)") final=$(mib "$(col "$f" rss_after_kib)")
	else
		read -r pf pt pw <<<"$(predict "${row%/*}" "${row#*/}" "$p" "$f")"
		case $pw in
		exact) pred="$pf ±$pt" ;;
		bound) pred="$pt..$pf" ;;
		*) pred="measured only" ;;
		esac
		peak=$(awk -v m="$(col "$f" max_rss_mib)" 'BEGIN { printf "%.1f", m }')
		final=$(mib "$(col "$f" rss_before_trim_kib)")
	fi
	calls=
	for c in brk mmap munmap madvise; do
		s=-
		[ "$STRACE" = 1 ] && s=$(strace_calls "$(file_of "$row" "$p" s).strace" "$c")
		calls="$calls $(printf '%5s' "$s")"
	done
	printf '  %-7s %6s %8s %-15s %6s %6s%s\n' "$p" "$t" "$(col "$f" minor_faults)" \
		"$pred" "$peak" "$final" "$calls"
}

# print_label ROW: the allocator's own name and version, as ./frames
# finds it (env.h's env_allocator), its setting and its preload.
print_label() {
	local row=$1 e=() nv
	mapfile -t e < <(env_of "$row")
	nv=$(env "${e[@]}" ./frames --env | sed -n 's/^# malloc: \([^,]*\),.*/\1/p')
	[ -n "$nv" ] || nv=$(./frames --env | sed -n 's/^# glibc \([^ ]*\) .*/glibc \1/p')
	if [ "${row#*/}" = knob ]; then
		echo "$nv, set:"
		echo "  $(alloc_field "${row%/*}" 4)"
	else
		echo "$nv, defaults"
	fi
	[ "${row%/*}" = glibc ] || echo "  ${e[0]}"
}

# csv: every round's frames rows, one header, an allocator column (the
# label make plots colours by).
if [ "$MODE" = csv ]; then
	for row in "${ROWS[@]}"; do
		label=$(print_label "$row" | head -n 1)
		label=${label%, defaults}
		[ "${row#*/}" = knob ] && label="${label%, set:} tuned"
		for p in $KINDS; do
			for r in $(seq 1 "$REPEATS"); do
				f=$(file_of "$row" "$p" "$r")
				check_owner "$row" "$f"
				[ -n "${csv_head:-}" ] || { csv_head=1; echo "$(grep -v '^#' "$f" | head -n 1),allocator"; }
				grep -v '^#' "$f" | sed -n "2,\$ s/\$/,$label/p"
			done
		done
	done
	exit 0
fi

echo
printf '  %-7s %6s %8s %-15s %13s   %s\n' "" "time" "minor" "predicted" \
	"RSS MiB" "calls (strace -c)"
printf '  %-7s %6s %8s %-15s %6s %6s %5s %5s %5s %5s\n' "" "s" "faults" "faults" \
	"peak" "final" brk mmap munmap madv
for row in "${ROWS[@]}"; do
	echo
	print_label "$row"
	for p in $KINDS threads; do print_row "$row" "$p"; done
	why_lines "${row%/*}" "${row#*/}" | sed 's/^/  why: /; 2,$s/^  why: /       /'
done
if [ "$MODE" = tunables ]; then echo "brk mmap munmap madv: make lab7-strace counts them for these rows."
elif [ "$STRACE" = 0 ]; then echo "brk mmap munmap madv: - ($prog: $STRACE_WHY)"; fi

echo
echo "Read it: predicted is the allocator's policy, read in its source, applied to"
echo "$FRAMES frames of $PAGES pages ($RF fault a page read first, 1 a page written first):"
echo "a kept frame faults once, in the first frame; a returned one in every frame."
echo "glibc's rows are ./frames' own model (±$FAULT_TOL); another allocator's ±1% (its"
echo "bookkeeping; tcmalloc's 2 MiB more: where its heap lands); a..b is a bound;"
echo "'measured only' where the policy gives no count"
echo "(mimalloc zeroes and maps past the size asked; threads: Lab 6's bursts)."
echo "final RSS: after the last frame was freed (frames --trim's 'before trim')."
if [ "$MODE" = strace ]; then
	echo "Every run is under strace -f -c, loader included; its times are not shown."
elif [ "$STRACE" = 1 ]; then
	echo "brk..madv: one more run of each under strace -f -c, loader included."
fi
