#!/usr/bin/env bash
# tests/lab1.sh - frames: fault counts from first principles, corrupt
# pixels, system calls, compilers, and the command line.
#
# Two checks a run.  First, the count measured against the program's own
# prediction, which replays every page the loop touches from the heap it
# measured before the loop: within fault_tolerance() (tools/grading/steps.awk, the
# grader's tolerance too).  Second, that prediction against this file's own
# arithmetic, from first principles: a frame is 66,355,200 bytes; an
# mmapped chunk puts a 16-byte header before it, so the block touches
# P = ceil((66,355,200 + 16) / PAGE) pages (16,201 with 4 KiB pages).
# malloc writes the header (1 fault on the first page); the renderer reads
# each other page before writing it: RF faults each, 2 where the read maps
# the kernel's zero page and the write then copies it, 1 where the kernel
# allocates on the read (the environment check measures which and prints
# it).  A memset or perturb fill writes first (1 a page).  Frames on the
# heap start on a page already mapped and end near the next chunk's header
# (written first), so the arithmetic holds there to 2 x RF pages, and
# calloc writes the old top's pages (up to 33) first: (RF - 1) x 34 more.
# THP would change all of this, so with THP "always" every run gets --no-thp.
. "$(dirname "$0")/lib.sh" || exit 1

L1N=5                                   # frames per run: small and quick
[ "$TEST_TIER" = quick ] && L1N=2       # the least that shows a dirty frame
PAGE=$(getconf PAGESIZE)
L1B=$(frame_bytes)                      # tools/lib/lib.sh: ./frames' --size default
[ -n "$L1B" ] || { fail "lab1 ./frames --help gives the frame's bytes" "no --size default"; exit 0; }
L1P=$(( (L1B + 16 + PAGE - 1) / PAGE ))
RF=$(read_faults_per_page)                # tools/lib/lib.sh
[ -n "$RF" ] || { RF=2; fail "lab1 the environment check reports read faults per page" "no 'read fault:' line"; }
echo "note: a page read, then written, faults $RF time(s) on this kernel"
L1S=1036800                             # sampled pixels per frame
L1X=$THP_ARG                            # tests/lib.sh
[ -z "$L1X" ] || echo "note: THP is 'always' here; frames runs with --no-thp"

# frames_run NAME [VAR=value...] -- ARGS...: run ./frames into $TMP/NAME.
frames_run() {
	local name=$1 envs=()
	shift
	while [ "$1" != -- ]; do envs+=("$1"); shift; done
	shift
	env "${envs[@]}" ./frames $L1X --frames $L1N "$@" >"$TMP/$name" 2>&1
}

TOL=$FAULT_TOL                          # tests/lib.sh: the grader's tolerance
# expect NAME FAULTS SLACK CORRUPT: measured within TOL of the program's
# prediction, the prediction within SLACK of FAULTS (this file's arithmetic),
# and exactly CORRUPT bad pixels.
expect() {
	local f=$TMP/$1 got pred
	got=$(field "$f" "minor faults"); pred=$(field "$f" predicted)
	if [[ $got =~ ^[0-9]+$ && $pred =~ ^[0-9]+$ ]] && [ $((got > pred ? got - pred : pred - got)) -le "$TOL" ]; then
		pass "lab1 $1: $got faults, the program predicted $pred (within $TOL)"
	else
		fail "lab1 $1: measured vs predicted" "measured '$got', predicted '$pred', tolerance $TOL"
	fi
	if [[ $pred =~ ^[0-9]+$ ]] && [ $((pred > $2 ? pred - $2 : $2 - pred)) -le "$3" ]; then
		pass "lab1 $1: the prediction $pred is the arithmetic's $2 (within $3)"
	else
		fail "lab1 $1: prediction vs arithmetic" "predicted '$pred', this file's arithmetic $2 +- $3"
	fi
	cmp_num "lab1 $1: corrupt pixels" "$(field "$f" "corrupt pixels")" -eq "$4"
}
HEAP=$(( 2 * RF ))                        # slack for heap frames (see the top)
CALLOC=$(( HEAP + (RF - 1) * 34 ))        # and for calloc's clear of the old top

read_first=$(( L1N * (1 + RF * (L1P - 1)) ))   # fresh mmap per frame, read before write
write_first=$(( L1N * L1P ))                  # fresh mmap per frame, written first
all=$(( L1N * L1S ))

frames_run default_malloc -- --alloc malloc
expect default_malloc $read_first $TOL 0
frames_run default_calloc --
expect default_calloc $read_first $TOL 0           # calloc skips clearing fresh mmap memory
frames_run default_memset -- --alloc memset
expect default_memset $write_first $TOL 0

# Tuned: the heap grows once, so one frame's pages fault, once.
if needs_solution lab1.tune_allocator "lab1 --tune: the tuned runs' faults and pixels"; then
	frames_run tuned_malloc -- --tune --alloc malloc
	expect tuned_malloc $(( RF * L1P )) $HEAP $(( (L1N - 1) * L1S ))   # every frame after the first is dirty
	frames_run tuned_calloc -- --tune
	expect tuned_calloc $(( RF * L1P )) $CALLOC 0
	frames_run tuned_memset -- --tune --alloc memset
	expect tuned_memset $L1P 2 0
fi
frames_run once -- --alloc once
expect once $L1P $TOL 0

# The same from outside, through the tunables.
frames_run env_no_trim GLIBC_TUNABLES=glibc.malloc.mmap_max=0:glibc.malloc.trim_threshold=4294967295 -- --alloc malloc
expect env_no_trim $(( RF * L1P )) $HEAP $(( (L1N - 1) * L1S ))
# perturb=170 fills each frame (a fresh mapping) with 0x55 on malloc: all
# sampled pixels are wrong, and the fill's write is the first touch (half
# the faults).
frames_run perturb GLIBC_TUNABLES=glibc.malloc.perturb=170 -- --alloc malloc
expect perturb $write_first $TOL $all
# What perturb cannot see (tests/perturb.c says why, from malloc.c): a
# 32-byte block that went through the tcache comes back with the program's
# own bytes, unfilled; with the tcache off the same block is filled, and a
# 2000-byte block (past the tcache) is filled either way.  Counts of bytes
# past the first two words (a free list's links, which vary run to run).
pt() { # NAME TUNABLES: a row "size same counted left mfill ffill other" a size
	GLIBC_TUNABLES=$2 tests/bin/perturb >"$TMP/pt_$1" 2>&1 ||
		fail "lab1 tests/bin/perturb ($2) runs" "$(head -c 300 "$TMP/pt_$1")"
}
ptrow() { awk -v s="$2" '$1 == s { $1 = ""; print substr($0, 2) }' "$TMP/pt_$1"; }
if grep -q '^# set: glibc.malloc.perturb=170: .*never tcache blocks' "$TMP/perturb"; then
	pass "lab1 perturb's '# set:' line says the tcache's blocks are not filled"
else
	fail "lab1 perturb's '# set:' line says the tcache's blocks are not filled" \
		"$(grep '^# set:' "$TMP/perturb")"
fi
pt on glibc.malloc.perturb=170
ptv=$(awk 'NR == 1 { sub(/:$/, "", $2); print $2 }' "$TMP/pt_on")   # the glibc it ran
ptm=${ptv#2.}; ptm=${ptm%%[!0-9]*}
if [ "${ptv%%.*}" = 2 ] && [ "${ptm:-0}" -lt 26 ]; then
	skip "lab1 perturb and the tcache" "glibc $ptv has no tcache (2.26+)"
else
	pt off glibc.malloc.perturb=170:glibc.malloc.tcache_count=0
	read -r same n left mfill _ <<<"$(ptrow on 32)"
	if [ "$same" = yes ] && [ -n "$n" ] && [ "$left" = "$n" ] && [ "$mfill" = 0 ]; then
		pass "lab1 perturb=170, tcache on: malloc(32) again is the same block, unfilled"
	else
		fail "lab1 perturb=170, tcache on: malloc(32) again is the same block, unfilled" \
			"$(cat "$TMP/pt_on")"
	fi
	read -r same n left mfill _ <<<"$(ptrow off 32)"
	if [ "$same" = yes ] && [ -n "$n" ] && [ "$left" = 0 ] && [ "$mfill" = "$n" ]; then
		pass "lab1 perturb=170, tcache_count=0: malloc(32) again is the same block, filled"
	else
		fail "lab1 perturb=170, tcache_count=0: malloc(32) again is the same block, filled" \
			"$(cat "$TMP/pt_off")"
	fi
	read -r same n left mfill _ <<<"$(ptrow on 2000)"
	if [ "$same" = yes ] && [ -n "$n" ] && [ "$mfill" = "$n" ]; then
		pass "lab1 perturb=170, tcache on: a 2000-byte block (past the tcache) is filled"
	else
		fail "lab1 perturb=170, tcache on: a 2000-byte block (past the tcache) is filled" \
			"$(cat "$TMP/pt_on")"
	fi
fi
# mmap_max=0 alone: the heap is trimmed after each frame back to top_pad
# + MINSIZE + 1 bytes (128 KiB + 33) from the top chunk's start o, up to
# the page's end: those pages (33 with 4 KiB pages) stay mapped for the next
# frame, RF x 33 fewer faults a frame, and the samples on them (one pixel
# every 64 bytes from the frame's start at o + 16) still hold the last
# frame.  o is what frames measured (--csv: heap_top_offset).
frames_run mmap_max GLIBC_TUNABLES=glibc.malloc.mmap_max=0 -- --alloc malloc
GLIBC_TUNABLES=glibc.malloc.mmap_max=0 ./frames $L1X --frames $L1N --alloc malloc --csv >"$TMP/mmap_max.csv" 2>&1
o=$(tools/lib/csvget heap_top_offset "$TMP/mmap_max.csv")
kept=$(( (131072 + 33 + PAGE - 1) / PAGE ))
kept_end=$(( ((${o:-0} + 131105 + PAGE - 1) / PAGE) * PAGE ))
expect mmap_max $(( L1N * RF * L1P - (L1N - 1) * RF * kept )) $(( L1N * HEAP )) \
	$(( (L1N - 1) * ((kept_end - ${o:-0} - 16 + 63) / 64) ))
cmp_num "lab1 mmap_max --csv: the same corrupt pixels as the report" \
	"$(tools/lib/csvget corrupt_pixels "$TMP/mmap_max.csv")" -eq "$(field "$TMP/mmap_max" "corrupt pixels")"
cmp_num "lab1 mmap_max: from mmap" "$(field "$TMP/mmap_max" "from mmap")" -eq 0
cmp_num "lab1 default: from mmap" "$(field "$TMP/default_malloc" "from mmap")" -eq $L1N

# mallopt accepted, and said so.
if [ "$HANDOUT" = 1 ]; then :     # said above: the tuned runs were not made
elif [ "$(grep -c '^tune: mallopt(.*) = 1' "$TMP/tuned_malloc")" -eq 2 ]; then
	pass "lab1 --tune: both mallopt() calls returned 1 and were reported"
else
	fail "lab1 --tune: mallopt report" "$(grep tune: "$TMP/tuned_malloc")"
fi
grep -q '^# glibc .* | page ' "$TMP/default_malloc" && grep -q '^# THP enabled=' "$TMP/default_malloc" &&
	pass "lab1 header names glibc, kernel and THP" ||
	fail "lab1 header" "$(head -n 1 "$TMP/default_malloc")"

# --csv: one header, one row, as many fields in each (quotes counted as
# RFC 4180 says), and the environment columns filled in.
./frames $L1X --frames 1 --csv >"$TMP/csv" 2>&1
if [ "$(wc -l <"$TMP/csv")" -eq 2 ] &&
   [ "$(awk "$(cat tools/lib/csv.awk)"'{ print csv_split($0, f) }' "$TMP/csv" | uniq | wc -l)" -eq 1 ] &&
   head -n 1 "$TMP/csv" | grep -q '^alloc,tuned,frames,' &&
   [ "$(tools/lib/csvget glibc "$TMP/csv")" = "$(getconf GNU_LIBC_VERSION | awk '{ print $2 }')" ] &&
   [ "$(tools/lib/csvget read_faults_per_page "$TMP/csv")" = "$RF" ]; then
	pass "lab1 --csv: a header and one row"
else
	fail "lab1 --csv" "$(head -c 300 "$TMP/csv")"
fi

# --size and --vary: parsed as binary units; varying sizes are repeatable.
./frames $L1X --frames 2 --size 30M >"$TMP/s30" 2>&1
grep -q '^2 frames of 30 MiB$' "$TMP/s30" && pass "lab1 --size 30M is 30 MiB" ||
	fail "lab1 --size 30M" "$(grep frames "$TMP/s30")"
./frames $L1X --frames 4 --size 8M --vary 1536K >"$TMP/v1" 2>&1
./frames $L1X --frames 4 --size 8M --vary 1536K >"$TMP/v2" 2>&1
s1=$(field "$TMP/v1" "sampled pixels"); s2=$(field "$TMP/v2" "sampled pixels")
if [ -n "$s1" ] && [ "$s1" = "$s2" ] && [ "$s1" -ne $(( 4 * 8 * 1024 * 1024 / 64 )) ]; then
	pass "lab1 --vary: sizes vary, the same way every run ($s1 sampled)"
else
	fail "lab1 --vary" "sampled '$s1' then '$s2'"
fi

# The command line: help, and every kind of bad input exits 2 with usage.
check_exit "lab1 --help exits 0" 0 ./frames --help
grep -q '^usage: ' "$TMP/out" && pass "lab1 --help prints the usage on stdout" ||
	fail "lab1 --help" "no usage line on stdout"
check_usage_error "lab1 rejects --frames 0" ./frames --frames 0
check_usage_error "lab1 rejects --frames abc" ./frames --frames abc
check_usage_error "lab1 rejects --frames -3" ./frames --frames -3
check_usage_error "lab1 rejects --alloc mallok" ./frames --alloc mallok
check_usage_error "lab1 rejects --size 12Q" ./frames --size 12Q
check_usage_error "lab1 rejects --size 99999999999G" ./frames --size 99999999999G
check_usage_error "lab1 rejects --vary larger than --size" ./frames --size 1M --vary 2M
check_usage_error "lab1 rejects an unknown option" ./frames --turbo
check_usage_error "lab1 rejects a missing value" ./frames --frames
check_usage_error "lab1 rejects a stray argument" ./frames 100
# An allocation that fails says so and exits non-zero (not a crash).
(ulimit -v 40000; ./frames --frames 1 >"$TMP/out" 2>"$TMP/err"); rc=$?
if [ $rc -eq 1 ] && grep -q 'cannot allocate' "$TMP/err"; then
	pass "lab1 a failed allocation is reported, exit 1"
else
	fail "lab1 failed allocation" "exit $rc: $(head -c 200 "$TMP/err")"
fi

full_only "lab1 system calls per frame, four compilers, step 8's noise flags"

# System calls per frame: the difference between a 2-frame and a 6-frame
# run is 4 frames' worth, whatever start-up costs.
if strace_ok; then
	l1_calls() { # NAME FRAMES ARGS...: brk mmap munmap counts
		local name=$1 n=$2
		shift 2
		strace -f -c -e trace=brk,mmap,munmap -o "$TMP/$name.st" ./frames $L1X --frames "$n" "$@" >/dev/null 2>&1
		echo "$(syscall_count "$TMP/$name.st" brk) $(syscall_count "$TMP/$name.st" mmap) $(syscall_count "$TMP/$name.st" munmap)"
	}
	read -r b2 m2 u2 <<<"$(l1_calls d2 2 --alloc malloc)"
	read -r b6 m6 u6 <<<"$(l1_calls d6 6 --alloc malloc)"
	cmp_num "lab1 strace default: mmap per extra frame x4" $((m6 - m2)) -eq 4
	cmp_num "lab1 strace default: munmap per extra frame x4" $((u6 - u2)) -eq 4
	cmp_num "lab1 strace default: no brk per frame" $((b6 - b2)) -eq 0
	if needs_solution lab1.tune_allocator "lab1 strace tuned: no brk/mmap/munmap per frame"; then
		read -r b2 m2 u2 <<<"$(l1_calls t2 2 --tune --alloc malloc)"
		read -r b6 m6 u6 <<<"$(l1_calls t6 6 --tune --alloc malloc)"
		cmp_num "lab1 strace tuned: no brk/mmap/munmap per frame" $(( (b6 - b2) + (m6 - m2) + (u6 - u2) )) -eq 0
	fi
	read -r b2 m2 u2 <<<"$(GLIBC_TUNABLES=glibc.malloc.mmap_max=0 l1_calls m2 2 --alloc malloc)"
	read -r b6 m6 u6 <<<"$(GLIBC_TUNABLES=glibc.malloc.mmap_max=0 l1_calls m6 6 --alloc malloc)"
	cmp_num "lab1 strace mmap_max=0: 2 brk per extra frame (grow, trim) x4" $((b6 - b2)) -eq 8
else
	skip "lab1 strace system-call counts" "$STRACE_WHY"
fi

# The counts must not depend on the compiler or the optimisation level
# (GCC -O2 would otherwise turn malloc + read into calloc, hiding the bug):
# the lab at CC OPT, linked with make's kit library, as by hand.
l1_build_and_compare() { # CC OPT
	local bin=$TMP/frames-$1$2
	if ! command -v "$1" >/dev/null 2>&1; then
		skip "lab1 $1 $2 agrees" "$1 is not installed"
		return
	fi
	# shellcheck disable=SC2046  # the words kit_links prints
	if ! "$1" -std=gnu11 -Wall -Wextra -Werror "$2" -o "$bin" frames.c $(kit_links frames) -pthread -ldl 2>"$TMP/cc.err"; then
		fail "lab1 $1 $2 builds warning-free" "$(head -c 300 "$TMP/cc.err")"
		return
	fi
	local args ok=1 why= f c f0 c0
	for args in "--alloc malloc" "--tune --alloc malloc" "--tune"; do
		# shellcheck disable=SC2086
		$bin $L1X --frames 3 $args >"$TMP/cmp" 2>&1
		# shellcheck disable=SC2086
		./frames $L1X --frames 3 $args >"$TMP/ref" 2>&1
		f=$(field "$TMP/cmp" "minor faults"); c=$(field "$TMP/cmp" "corrupt pixels")
		f0=$(field "$TMP/ref" "minor faults"); c0=$(field "$TMP/ref" "corrupt pixels")
		if ! awk -v a="$f" -v b="$f0" -v t="$TOL" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(a != "" && d <= t) }' ||
		   [ "$c" != "$c0" ]; then
			ok=0 why="$why [$args: faults $f vs $f0, corrupt $c vs $c0]"
		fi
	done
	# The "# built:" line is the program's own fact, not the kit library's
	# (built by make at -O2): this compiler, this -O.
	local opt="optimised (-O1+)"
	[ "$2" = -O0 ] && opt="unoptimised (-O0)"
	grep -q "^# built: $1 [^,]*, $opt | kit unknown\$" "$TMP/cmp" ||
		ok=0 why="$why [built line: $(grep '^# built:' "$TMP/cmp"), not $1 $opt]"
	[ $ok = 1 ] && pass "lab1 $1 $2: same faults (within $TOL) and corrupt pixels as the default build, its own built line" ||
		fail "lab1 $1 $2 agrees" "$why"
}
l1_build_and_compare gcc -O0
l1_build_and_compare gcc -O2
l1_build_and_compare clang -O0
l1_build_and_compare clang -O2

# Step 8 flags a variant whose rounds spread over a tenth of its median,
# and asks for a re-run; times are whatever they are, so the check is that
# the flags agree with the medians and ranges the step printed.
FRAMES=1 RUN_DIR=$TMP/step8 tools/labs/lab1.sh 8 >"$TMP/step8.out" 2>/dev/null
if awk '
	/^  (default calloc|tuned calloc \(--tune\)|floor \(--alloc once\)):/ {
		name = $1 == "floor" ? "floor" : $1 == "default" ? "default" : "tuned"
		for (i = 1; i <= NF; i++) if ($i ~ /^\([0-9.]+-[0-9.]+\)$/) { r = $i; m = $(i - 2) }
		gsub(/[()]/, "", r); split(r, R, "-"); seen++
		want[name] = R[2] - R[1] > 0.1 * m
	}
	/^  noisy: / { got[$2] = 1 }
	/^  Re-run make step8 / { rerun = 1 }
	END {
		for (n in want) { if (want[n] != (n in got)) exit 1; any += want[n] }
		exit !(seen == 3 && rerun == (any > 0))
	}' "$TMP/step8.out"; then
	pass "lab1 step 8: 'noisy' exactly where a range is over 10% of its median, then 're-run'"
else
	fail "lab1 step 8: noise flags agree with the ranges" "$(sed -n '/median of/,$p' "$TMP/step8.out")"
fi

# make run, set-up's first command, as typed (with FRAMES given: 1): every
# step, the summary at those frames, step 8 at 3 rounds where step 8 alone
# (as make lab1 runs it) took 5 above.
make --no-print-directory -s run FRAMES=1 RUN_DIR="$TMP/setup" >"$TMP/setup.out" 2>/dev/null
rc=$?
if [ "$rc" -eq 0 ] && grep -q '^  median of 3, range in ( )$' "$TMP/setup.out" &&
   grep -q '^  median of 5, range in ( )$' "$TMP/step8.out" &&
   [ "$(grep -c '^=== Step [1-9]:' "$TMP/setup.out")" -eq 9 ] &&
   grep -q '^=== Summary (measured on .*, 1 frames)$' "$TMP/setup.out"; then
	pass "make run FRAMES=1: nine steps, step 8 at 3 rounds, the summary at 1 frame"
else
	fail "make run FRAMES=1: nine steps, 3 rounds, the summary" \
		"exit $rc; $(grep -E '^(=== |  median)' "$TMP/setup.out" | tr '\n' ';')"
fi
