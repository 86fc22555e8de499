#!/usr/bin/env bash
# tools/walkthrough.sh STEP|all - Lab 1's walkthrough, as `make run` and
# `make stepN` run it.  Every command is printed before it runs, exactly as
# a student would type it; outputs are kept in .run/ for the summary table.
# FRAMES=N shortens every run (default 100).
set -u
cd "$(dirname "$0")/.." || exit 1
FRAMES=${FRAMES:-100}
OUT=.run
mkdir -p "$OUT"
[ -x ./frames ] || { echo "walkthrough: ./frames is not built; run make" >&2; exit 1; }
[ "$FRAMES" = 100 ] && N= || N=" --frames $FRAMES"
TUNED="GLIBC_TUNABLES=glibc.malloc.mmap_max=0:glibc.malloc.trim_threshold=4294967295"
STRACE="strace -f -c -e trace=brk,mmap,munmap"

heading() { printf '\n=== Step %s: %s\n' "$1" "$2"; }
note() { printf '%s\n' "$@" | sed 's/^/  > /'; }

# run NAME WORDS...: echo the command, run it (leading VAR=value words
# become its environment), keep its output as .run/NAME.txt.
run() {
	local name=$1
	shift
	printf '$ %s\n' "$*"
	env "$@" | tee "$OUT/$name.txt"
}

strace_works() {
	if ! command -v strace >/dev/null 2>&1; then
		WHY="strace is not installed (apt-get install strace)"
	elif ! strace -o /dev/null true >/dev/null 2>&1; then
		WHY="strace cannot trace here: ptrace is not permitted"
	else
		return 0
	fi
	return 1
}

# count NAME WORDS...: the brk/mmap/munmap counts of a command, quietly,
# into .run/NAME.strace.
count() {
	local name=$1
	shift
	local envs=()
	while [ $# -gt 0 ] && [[ $1 == *=* ]]; do envs+=("$1"); shift; done
	env "${envs[@]}" $STRACE -o "$OUT/$name.strace" "$@" >/dev/null
}

step1() {
	heading 1 "the skeleton as shipped: malloc() a frame, render, check, free()"
	run default ./frames --alloc malloc$N
	note "Every frame is a fresh block: faults/frame is about 2 x 16,200 pages." \
	     "The renderer reads each page before it writes it: the read maps the shared" \
	     "zero page, the write then faults again for a private zeroed page."
}

step2() {
	heading 2 "where the blocks come from: strace counts brk, mmap and munmap"
	if ! strace_works; then echo "  skipped: $WHY"; return 0; fi
	printf '$ %s\n' "$STRACE ./frames --alloc malloc$N"
	$STRACE -o "$OUT/default.strace" ./frames --alloc malloc$N >/dev/null
	cat "$OUT/default.strace"
	note "About one mmap and one munmap per frame: 63 MiB is far above the mmap" \
	     "threshold (128 KiB, rising to at most 32 MiB), so malloc() maps it and" \
	     "free() unmaps it, and the next frame starts from untouched pages."
}

step3() {
	heading 3 "no mmap: GLIBC_TUNABLES=glibc.malloc.mmap_max=0"
	run mmap_max GLIBC_TUNABLES=glibc.malloc.mmap_max=0 ./frames --alloc malloc$N
	note "No gain: the block now comes from the brk heap, but free() trims the top" \
	     "of the heap back to the kernel (63 MiB > trim_threshold, 128 KiB), so every" \
	     "frame still starts on fresh pages.  The few corrupt pixels are the 128 KiB" \
	     "(top_pad) that the trim keeps: a first glimpse of the bug."
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
	note "perturb fills every malloc()'d block with 170^0xff = 0x55 bytes: every" \
	     "sampled pixel is corrupt, so the skeleton was always relying on luck." \
	     "Faults halve: the fill writes each page first, one fault instead of two."
}

step7() {
	heading 7 "the fixes: clear the frame (malloc + memset, or calloc)"
	run fix_memset ./frames --tune --alloc memset$N
	run fix_calloc ./frames --tune$N
	note "Both are correct.  memset writes first (1 fault a page, once);" \
	     "calloc() clears only when it must: it skips fresh memory the kernel" \
	     "zeroed (so the first frame still reads first: 2 a page) and clears a" \
	     "reused block in full.  Untuned, calloc() costs nothing extra."
}

# min of the time: lines in the given .run files
best_time() {
	local f t best=
	for f in "$@"; do
		t=$(tools/csvget time_s "$f")
		best=$(awk -v a="$best" -v b="$t" 'BEGIN { print (a == "" || b < a) ? b : a }')
	done
	echo "$best"
}

step8() {
	heading 8 "the benchmark: default vs tuned calloc vs the allocate-once floor"
	echo "  Three rounds, interleaved so that noise hits every variant alike; the"
	echo "  best time of each is kept (the least disturbed run)."
	local r v args
	for r in 1 2 3; do
		for v in "default|" "tuned|--tune" "once|--alloc once"; do
			args=${v#*|}
			printf '$ ./frames %s--csv%s' "${args:+$args }" "$N"
			# shellcheck disable=SC2086
			./frames $args --csv$N >"$OUT/bench_${v%%|*}_$r.txt"
			printf '    -> %s s\n' "$(tools/csvget time_s "$OUT/bench_${v%%|*}_$r.txt")"
		done
	done
	local d t o
	d=$(best_time "$OUT"/bench_default_?.txt)
	t=$(best_time "$OUT"/bench_tuned_?.txt)
	o=$(best_time "$OUT"/bench_once_?.txt)
	awk -v d="$d" -v t="$t" -v o="$o" 'BEGIN {
		printf "\n  default calloc:             %.3f s\n", d
		printf "  tuned calloc (--tune):      %.3f s\n", t
		printf "  floor (--alloc once):       %.3f s\n", o
		printf "  speed-up, tuned vs default: %.2fx  (goal: at least 4x)\n", d / t
		printf "  tuned vs floor:             %+.1f%%  (goal: within 5%%)\n", (t / o - 1) * 100
	}'
}

# One table of everything the walkthrough measured.
summary() {
	local have_strace=0 row name label
	strace_works && have_strace=1
	printf '\n=== Summary (measured on %s, %s frames)\n' "$(uname -n)" "$FRAMES"
	head -n 1 "$OUT/default.txt"
	if [ $have_strace = 1 ]; then
		echo "  (counting brk/mmap/munmap: each row runs once more under $STRACE)"
	else
		echo "  (no system-call counts: $WHY)"
	fi
	printf '%-40s %8s %10s %9s %11s %6s %6s %6s\n' run time faults faults/fr corrupt brk mmap munmap
	for row in "default|default, malloc (the skeleton)||./frames --alloc malloc" \
		   "mmap_max|mmap_max=0|GLIBC_TUNABLES=glibc.malloc.mmap_max=0|./frames --alloc malloc" \
		   "no_trim|mmap_max=0 + trim_threshold|$TUNED|./frames --alloc malloc" \
		   "tuned|--tune, malloc||./frames --tune --alloc malloc" \
		   "perturb|perturb=170, untuned malloc|GLIBC_TUNABLES=glibc.malloc.perturb=170|./frames --alloc malloc" \
		   "fix_memset|--tune, malloc + memset||./frames --tune --alloc memset" \
		   "fix_calloc|--tune, calloc (the completed program)||./frames --tune"; do
		IFS='|' read -r name label envs cmd <<<"$row"
		[ -f "$OUT/$name.txt" ] || continue
		local b=- m=- u=-
		if [ $have_strace = 1 ]; then
			[ -f "$OUT/$name.strace" ] || count "$name" $envs $cmd$N
			b=$(awk '$NF == "brk" { print $4 }' "$OUT/$name.strace")
			m=$(awk '$NF == "mmap" { print $4 }' "$OUT/$name.strace")
			u=$(awk '$NF == "munmap" { print $4 }' "$OUT/$name.strace")
		fi
		awk -v label="$label" -v b="${b:-0}" -v m="${m:-0}" -v u="${u:-0}" '
			{ l = $0; sub(/^ +/, "", l) }
			l ~ /^time:/ { t = $2 } l ~ /^minor faults:/ { f = $3 }
			l ~ /^faults\/frame:/ { ff = $2 } l ~ /^corrupt pixels:/ { c = $3 }
			END { printf "%-40s %7.3fs %10d %9.1f %11d %6s %6s %6s\n", label, t, f, ff, c, b, m, u }' \
			"$OUT/$name.txt"
	done
}

case "${1:-all}" in
[1-8])
	rm -f "$OUT/"*.strace                  # the summary must not reuse these
	"step$1" ;;
all)
	rm -f "$OUT"/*.txt "$OUT"/*.strace    # no stale counts from an earlier run
	for s in 1 2 3 4 5 6 7 8; do "step$s"; done
	summary
	;;
*) echo "usage: $0 1..8|all" >&2; exit 2 ;;
esac
