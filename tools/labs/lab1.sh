#!/usr/bin/env bash
# tools/labs/lab1.sh table|short|tunables|strace|all|STEP... - Lab 1's
# walkthrough, as `make lab1` (table: all nine steps and the summary),
# `make run` (short: the same at 20 frames, step 8 at 3 rounds, for set-up),
# `make lab1-tunables` (steps 3, 4, 6 and 9: the policy from outside),
# `make lab1-strace` (step 2) and `make stepN` run it.  Every command is printed
# before it runs, exactly as a student would type it; outputs are kept in
# RUN_DIR (default .run/) for the summary table.  The environment check is
# printed once, at the top; each run then shows only its own "# set:" and
# "# warning:" lines (the settings the step makes, and anything that
# changes the lesson).
# FRAMES=N shortens every run (its default, lab1's or lab1-short's, and
# its range: tools/labs/knobs).  The first failed run stops the walkthrough
# with its reason and a non-zero exit.
set -u -o pipefail
cd "$(dirname "$0")/../.." || exit 1
. tools/lib/lib.sh
prog=lab1
# Step 8's rounds: a median of 3 outlasts one noisy round, of 5 two.
ROUNDS=5
[ "${1:-}" = short ] && ROUNDS=3
lab_knobs lab1 "$([ "${1:-}" = short ] && echo short)"   # tools/labs/knobs: or exit 2
OUT=$RUN_DIR

usage() { echo "usage: tools/labs/lab1.sh table|short|tunables|strace|all|STEP... (STEP: 1 to 9)"; }

# Every argument is checked before anything runs, as the knobs were.
[ $# -gt 0 ] || set -- all
case $* in
table | short) set -- all ;;
tunables) set -- 3 4 6 9 ;;
strace) set -- 2 ;;
esac
for a in "$@"; do
	[[ $a =~ ^([1-9]|all)$ ]] || bad_usage "no step '$a'"
done
[ -x ./frames ] || die "./frames is not built; run make"
leftover_settings "the untuned runs"    # tools/lib/lib.sh
mkdir -p "$OUT" 2>/dev/null && [ -d "$OUT" ] && : 2>/dev/null >"$OUT/.writable" ||
	die "cannot write the run outputs into '$OUT/' (read-only directory? set RUN_DIR)"
rm -f "$OUT/.writable"

# ./frames' own frame count is lab1's FRAMES default: a run at it omits
# --frames, as a student types it.
[ "$FRAMES" = "$(lab_default lab1 FRAMES)" ] && N= || N=" --frames $FRAMES"
TUNED="GLIBC_TUNABLES=glibc.malloc.mmap_max=0:glibc.malloc.trim_threshold=4294967295"
STRACE="strace -f -c -e trace=brk,mmap,munmap"
PAGE=$(getconf PAGESIZE)
FRAME_BYTES=$(frame_bytes)      # tools/lib/lib.sh: ./frames --help
[ -n "$FRAME_BYTES" ] || die "./frames --help gives no --size default (a frame's bytes)"
PAGES=$(( (FRAME_BYTES + PAGE - 1) / PAGE ))

heading() { progress; printf '\n=== Step %s: %s\n' "$1" "$2"; }   # progress: tools/lib/lib.sh
note() { printf '%s\n' "$@" | sed 's/^/  > /'; }
num() { printf "%'d" "$1" 2>/dev/null || printf '%d' "$1"; }

# The environment every run shares is shown once; what a run adds is its
# own (drop_env_header, tools/lib/lib.sh).

# show WORDS...: the command as a student would type it; a long one is
# broken after its VAR=value words with a backslash, still valid shell.
show() { show_cmd "$@"; }      # tools/lib/lib.sh

# run NAME WORDS...: echo the command, run it (leading VAR=value words
# become its environment), keep its output as RUN_DIR/NAME.txt.  A failed
# run ends the walkthrough.
run() {
	local name=$1 rc
	shift
	show "$@"
	printf '%s\n' "$@" >"$OUT/$name.cmd"       # the summary runs it again under strace
	env "$@" | tee "$OUT/$name.txt" | drop_env_header
	rc=$?
	[ "$rc" -eq 0 ] || die "the run failed (exit $rc): $*"
}

# count NAME WORDS...: the brk/mmap/munmap counts of a command, quietly,
# into RUN_DIR/NAME.strace.
count() {
	local name=$1
	shift
	local envs=()
	while [ $# -gt 0 ] && [[ $1 == *=* ]]; do envs+=("$1"); shift; done
	env "${envs[@]}" $STRACE -o "$OUT/$name.strace" "$@" >/dev/null ||
		die "the run failed under strace: ${envs[*]} $*"
}

# Read faults per page on this kernel: 2 where a read maps the shared zero
# page and the write faults again, 1 where the read allocates at once.
RF=$(./frames --env | sed -n 's/.*read fault:.*(\([12]\) a page).*/\1/p')
[ -n "$RF" ] || die "./frames --env printed no 'read fault:' line"

step1() {
	heading 1 "the skeleton as shipped: malloc() a frame, render, check, free()"
	run default ./frames --alloc malloc$N
	if [ "$RF" = 2 ]; then
		note "Every frame is a fresh block: faults/frame is about 2 x $(num $PAGES) pages." \
		     "The renderer reads each page before it writes it: the read maps the shared" \
		     "zero page, the write then faults again for a private zeroed page."
	else
		note "Every frame is a fresh block: faults/frame is about $(num $PAGES), one a page." \
		     "The renderer reads each page before it writes it.  This kernel maps no zero" \
		     "page on a read (the header's 'read fault:' line): the read allocates the" \
		     "private page at once.  Where a read maps the zero page, the write faults" \
		     "again and a frame costs 2 x $(num $PAGES)."
	fi
}

# Step 2's note: a freed mmapped chunk raises the threshold only when its
# mapping is strictly below DEFAULT_MMAP_THRESHOLD_MAX, 32 MiB on 64-bit
# (glibc-2.36 malloc/malloc.c:972, 3366-3368): a 63 MiB frame never does.
step2() {
	heading 2 "where the blocks come from: strace counts brk, mmap and munmap"
	if ! strace_works; then echo "  skipped: $STRACE_WHY"; return 0; fi
	printf '$ %s\n' "$STRACE ./frames --alloc malloc$N"
	$STRACE -o "$OUT/default.strace" ./frames --alloc malloc$N >/dev/null ||
		die "the run failed under strace: ./frames --alloc malloc$N"
	cat "$OUT/default.strace"
	note "About one mmap and one munmap per frame: 63 MiB is far above the mmap" \
	     "threshold (128 KiB, rising to at most 32 MiB), so malloc() maps it and" \
	     "free() unmaps it, and the next frame starts from untouched pages."
}

# Step 3's note: _int_free trims the main heap when its top reaches
# trim_threshold; systrim keeps top_pad (128 KiB: DEFAULT_TOP_PAD, glibc-2.36
# sysdeps/generic/malloc-machine.h:37-38) plus MINSIZE, rounded up to a page
# (glibc-2.36 malloc/malloc.c:4668-4677, 2981-2991).
step3() {
	heading 3 "no mmap: GLIBC_TUNABLES=glibc.malloc.mmap_max=0"
	run mmap_max GLIBC_TUNABLES=glibc.malloc.mmap_max=0 ./frames --alloc malloc$N
	note "No gain: the block now comes from the brk heap, but free() trims the top" \
	     "of the heap back to the kernel (63 MiB > trim_threshold, 128 KiB), so every" \
	     "frame still starts on fresh pages.  The few corrupt pixels lie in what the" \
	     "trim keeps, top_pad (128 KiB) and up to a page more: a first glimpse of" \
	     "the bug."
}

step4() {
	heading 4 "no mmap, no trim: + glibc.malloc.trim_threshold=4294967295"
	run no_trim "$TUNED" ./frames --alloc malloc$N
	note "The heap grows once and the same 63 MiB serves every frame: faults fall to" \
	     "one frame's worth for the whole run.  And the frames are wrong: malloc()" \
	     "hands back the previous frame, and the renderer composites onto it."
}

step5() {
	heading 5 "the same from inside: --tune calls mallopt()"
	run tuned ./frames --tune --alloc malloc$N
	note "mallopt(M_MMAP_MAX, 0) and mallopt(M_TRIM_THRESHOLD, -1) do what the" \
	     "tunables did, with no environment to forget.  Same faults, same corruption."
}

step6() {
	heading 6 "prove the bug on the untuned skeleton: glibc.malloc.perturb=170"
	run perturb GLIBC_TUNABLES=glibc.malloc.perturb=170 ./frames --alloc malloc$N
	note "perturb fills each block malloc() maps or carves with 170^0xff = 0x55" \
	     "bytes, so every 63 MiB frame: every sampled pixel is corrupt, and the" \
	     "skeleton was always relying on luck.  (Not a block the tcache serves, up" \
	     "to 1,032 bytes: docs/labs.md, step 6, What perturb cannot see.)"
	if [ "$RF" = 2 ]; then
		note "Faults halve: the fill writes each page first, one fault instead of two."
	else
		note "Faults stay at one a page here: the fill writes each page first, which" \
		     "costs what the renderer's read did.  (Where a read maps the zero page," \
		     "step 1 pays two a page and perturb halves it.)"
	fi
}

# Step 7's note: __libc_calloc returns an mmapped chunk uncleared and clears
# only the old-top part of a chunk carved from freshly grown top
# (MORECORE_CLEARS); any other chunk is cleared whole (glibc-2.36
# malloc/malloc.c:3707-3720).
step7() {
	heading 7 "the fixes: clear the frame (malloc + memset, or calloc)"
	run fix_memset ./frames --tune --alloc memset$N
	run fix_calloc ./frames --tune$N
	note "Both are correct.  memset writes first (1 fault a page, once);" \
	     "calloc() clears only when it must: it skips fresh memory the kernel" \
	     "zeroed (so the first frame still reads first: $RF a page) and clears a" \
	     "reused block in full.  Untuned, calloc() costs nothing extra."
}

step8() {
	heading 8 "the benchmark: default vs tuned calloc vs the allocate-once floor"
	echo "  $ROUNDS rounds, interleaved so that noise hits every variant alike; each"
	echo "  variant's median is kept, with the range of its rounds beside it."
	echo "  default: \$ ./frames --csv$N"
	echo "  tuned:   \$ ./frames --tune --csv$N"
	echo "  floor:   \$ ./frames --alloc once --csv$N"
	printf '  %5s %9s %9s %9s   (seconds)\n' round default tuned floor
	local r v args row
	for r in $(seq 1 "$ROUNDS"); do
		row=
		for v in "default|" "tuned|--tune" "once|--alloc once"; do
			args=${v#*|}
			# On a terminal: which run, overwritten in place (frames then
			# shows its frames); cleared before the round's row.
			[ -t 2 ] && printf '\r\033[K%.79s' \
				"$prog: step 8, round $r of $ROUNDS: ./frames ${args:+$args }--csv$N" >&2
			# shellcheck disable=SC2086
			./frames $args --csv$N >"$OUT/bench_${v%%|*}_$r.txt" ||
				die "the run failed: ./frames $args --csv$N"
			row="$row $(tools/lib/csvget time_s "$OUT/bench_${v%%|*}_$r.txt")"
		done
		[ -t 2 ] && printf '\r\033[K' >&2
		# shellcheck disable=SC2086
		printf '  %5d %9.3f %9.3f %9.3f\n' "$r" $row
	done
	local d t o fd ft
	d=$(median_range "$OUT"/bench_default_[0-9]*.txt) || exit 1
	t=$(median_range "$OUT"/bench_tuned_[0-9]*.txt) || exit 1
	o=$(median_range "$OUT"/bench_once_[0-9]*.txt) || exit 1
	fd=$(tools/lib/csvget minor_faults "$OUT/bench_default_1.txt")
	ft=$(tools/lib/csvget minor_faults "$OUT/bench_tuned_1.txt")
	awk -v d="$d" -v t="$t" -v o="$o" -v fd="$fd" -v ft="$ft" 'BEGIN {
		split(d, D, " "); split(t, T, " "); split(o, O, " ")
		printf "\n  median of %d, range in ( )\n", '"$ROUNDS"'
		printf "  default calloc:        %7.3f s (%.3f-%.3f)  %9d faults\n", D[1], D[2], D[3], fd
		printf "  tuned calloc (--tune): %7.3f s (%.3f-%.3f)  %9d faults\n", T[1], T[2], T[3], ft
		printf "  floor (--alloc once):  %7.3f s (%.3f-%.3f)\n", O[1], O[2], O[3]
		printf "  speed-up, tuned vs default: %.2fx (medians)\n", (T[1] > 0 ? D[1] / T[1] : 0)
		printf "  tuned vs floor:             %+.1f%% (medians)\n", (O[1] > 0 ? (T[1] / O[1] - 1) * 100 : 0)
		if (fd > ft && D[1] > T[1])
			printf "  time per extra fault:       %.2f us ((default - tuned) / (faults" \
			       " saved))\n", (D[1] - T[1]) / (fd - ft) * 1e6
		# A range wider than a tenth of its median: the rounds disagree,
		# so the ratios above are mostly noise.
		noisy("default", D); noisy("tuned", T); noisy("floor", O)
		if (flagged)
			printf "  Re-run make step8 when the machine is quieter (other programs closed;\n" \
			       "  tools/labs/pin.sh lists what adds noise) before you trust a ratio.\n"
	}
	function noisy(name, V) {
		if (V[1] > 0 && V[3] - V[2] > 0.1 * V[1]) {
			printf "  noisy: %s spread %.3f-%.3f s, %.0f%% of its median (over 10%%)\n",
			       name, V[2], V[3], (V[3] - V[2]) / V[1] * 100
			flagged = 1
		}
	}'
	note "What sets the ratios: the default pays a fault for every page of every" \
	     "frame (and the kernel zeroes each page); tuned pays them once and then a" \
	     "memset a frame, as the floor does.  So the speed-up is (work + faults) /" \
	     "work: larger where faults are dear (a VM, a loaded host), smaller at -O0" \
	     "or with few frames (the first frame's faults weigh more).  Tuned vs floor" \
	     "is calloc's first frame plus noise.  These are measurements, not grades."
}

step9() {
	heading 9 "huge pages from malloc: GLIBC_TUNABLES=glibc.malloc.hugetlb=1"
	local v
	v=$(./frames --env | sed -n 's/^# glibc \([0-9.]*\) .*/\1/p')
	case $v in
	2.[0-9]|2.[0-2][0-9]|2.3[0-4])
		echo "  skipped: glibc $v has no glibc.malloc.hugetlb tunable (it came in 2.35);"
		echo "  this glibc would ignore it without a word."
		return 0 ;;
	esac
	run hugetlb GLIBC_TUNABLES=glibc.malloc.hugetlb=1 ./frames$N
	run hugetlb_tuned GLIBC_TUNABLES=glibc.malloc.hugetlb=1 ./frames --tune$N
	note "hugetlb=1 makes malloc madvise(MADV_HUGEPAGE) its mmaps and heap growth:" \
	     "with THP 'madvise' (the header's THP line) a huge page backs each huge-page-" \
	     "aligned run of a mapping; its unaligned head and tail keep 4 KiB pages." \
	     "Where ASLR puts the 63 MiB mapping decides how many fit (30 or 31 of 2 MiB)," \
	     "so runs differ.  Read first, a huge page costs what the header's THP" \
	     "read+write line says: 1+1 faults where the write allocates it (Linux" \
	     "6.13+, commit 1ced09e0331f), 1 + 1 a page where it splits the huge zero" \
	     "page (older kernels).  frames predicts each mapped frame from its address" \
	     "(exact); heap frames (--tune) stay an upper bound.  'thp fallbacks' counts" \
	     "huge pages the kernel could not find (fragmentation, other work).  With" \
	     "THP 'never' it changes nothing; with 'always' it is already on." \
	     "hugetlb=2 is different: malloc maps from the reserved hugetlbfs pool" \
	     "(/proc/sys/vm/nr_hugepages, 0 unless an admin set it), and falls back to" \
	     "ordinary pages when the pool is empty."
}

# The summary's rows: NAME|LABEL, NAME a run a step made (its command kept
# in RUN_DIR/NAME.cmd).
ROWS=("default|malloc (the skeleton)" "mmap_max|mmap_max=0"
      "no_trim|mmap_max=0, no trim" "tuned|--tune, malloc"
      "perturb|perturb=170, malloc" "fix_memset|--tune, malloc + memset"
      "fix_calloc|--tune, calloc (the fix)" "hugetlb|hugetlb=1, calloc"
      "hugetlb_tuned|hugetlb=1, --tune, calloc")

# count_rows: each row's run once more under strace (where no step kept its
# counts), as many at a time as there are CPUs: only calls are counted,
# never a time, so the runs may share the machine.
count_rows() {
	local row name cmd max running=0 n=0
	max=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)
	for row in "${ROWS[@]}"; do
		name=${row%%|*}
		[ -f "$OUT/$name.txt" ] && [ -f "$OUT/$name.cmd" ] && [ ! -f "$OUT/$name.strace" ] || continue
		if [ "$running" -ge "$max" ]; then
			wait -n || exit 1          # count said why
			running=$((running - 1))
		fi
		n=$((n + 1))
		progress "the summary: run $n once more under strace ($max at a time)"
		mapfile -t cmd <"$OUT/$name.cmd"
		count "$name" "${cmd[@]}" &
		running=$((running + 1))
	done
	for ((; running > 0; running--)); do wait -n || exit 1; done
	progress
}

# One table of everything the walkthrough measured, in 80 columns.
summary() {
	local have_strace=0 row name label
	strace_works && have_strace=1
	[ $have_strace = 0 ] || count_rows
	printf '\n=== Summary (measured on %s, %s frames)\n' "$(uname -n)" "$FRAMES"
	if [ $have_strace = 1 ]; then
		echo "  (brk, mmap, munmap: each row once more, under strace -c)"
	else
		echo "  (no system-call counts: $STRACE_WHY)"
	fi
	printf '%-26s %8s %10s %10s %5s %5s %6s\n' run time faults corrupt brk mmap munmap
	for row in "${ROWS[@]}"; do
		IFS='|' read -r name label <<<"$row"
		[ -f "$OUT/$name.txt" ] && [ -f "$OUT/$name.cmd" ] || continue
		local b=- m=- u=-
		if [ $have_strace = 1 ]; then
			b=$(strace_calls "$OUT/$name.strace" brk)
			m=$(strace_calls "$OUT/$name.strace" mmap)
			u=$(strace_calls "$OUT/$name.strace" munmap)
		fi
		awk -v label="$label" -v b="${b:-0}" -v m="${m:-0}" -v u="${u:-0}" '
			{ l = $0; sub(/^ +/, "", l) }
			l ~ /^time:/ { t = $2 } l ~ /^minor faults:/ { f = $3 }
			l ~ /^corrupt pixels:/ { c = $3 }
			END { printf "%-26s %7.3fs %10d %10d %5s %5s %6s\n", label, t, f, c, b, m, u }' \
			"$OUT/$name.txt" || die "cannot read $OUT/$name.txt"
	done
}


./frames --env || die "./frames --env failed"
case $1 in
all)
	rm -f "$OUT"/*.txt "$OUT"/*.cmd "$OUT"/*.strace    # no stale counts from an earlier run
	for s in 1 2 3 4 5 6 7 8 9; do progress "step $s of 9"; "step$s"; done
	progress "the summary (each row once more under strace)"
	summary
	;;
*)
	rm -f "$OUT/"*.strace                  # the summary must not reuse these
	i=0
	for s in "$@"; do
		i=$((i + 1))
		[ $# -gt 1 ] && progress "step $s ($i of $#)"
		"step$s"
	done
	;;
esac
