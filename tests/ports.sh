#!/usr/bin/env bash
# tests/ports.sh - the kit beyond x86-64 and glibc's own malloc: the
# 32-bit build (make build32), the arm64 build under qemu-user (make
# build-arm64), valgrind's memcheck on Lab 1, and one sanitizer run.  Each
# part runs when its build and tools exist and skips with the reason
# otherwise; `.ci/run` installs them.
. "$(dirname "$0")/lib.sh" || exit 1
full_only "the 32-bit and arm64 builds"

# ------------------------------------------------------------ runners
# How to start a binary of another architecture: directly when the kernel
# runs it (a 64-bit kernel with IA32 emulation runs i386), else qemu-user.
# Sets RUN (an array) or WHY.
port_runner() {
	local bin=$1 qemu=$2
	RUN=() WHY=
	if [ ! -x "$bin" ]; then
		WHY="$bin is not built (make $3)"; return 1
	fi
	if "$bin" --help >/dev/null 2>&1; then
		RUN=(); return 0
	fi
	for q in "$qemu" "$qemu-static"; do
		if command -v "$q" >/dev/null 2>&1 && "$q" $QEMU_LIB "$bin" --help >/dev/null 2>&1; then
			RUN=("$q" $QEMU_LIB); return 0
		fi
	done
	WHY="this kernel cannot run $bin and $qemu (qemu-user) is missing"
	return 1
}

# ------------------------------------------------------------ 32-bit x86
M32=build/m32
QEMU_LIB=
if ! port_runner $M32/frames qemu-i386 build32; then
	skip "32-bit: argument checks and a short run" "$WHY"
else
	r32=("${RUN[@]}")
	[ ${#r32[@]} -gt 0 ] && echo "(32-bit binaries run under ${r32[0]}: this kernel has no IA32 emulation)"
	# Sizes a 32-bit size_t cannot hold: refused before any allocation.
	check_usage_error "32-bit frames: --size 4G is more than size_t holds" "${r32[@]}" $M32/frames --size 4G
	check_usage_error "32-bit frames: --size 3G --vary 2G overflows" "${r32[@]}" $M32/frames --size 3G --vary 2G --alloc once
	check_usage_error "32-bit frames: --size 5G --alloc once" "${r32[@]}" $M32/frames --size 5G --alloc once
	"${r32[@]}" $M32/frames --size 4G 2>&1 >/dev/null | head -n 1 >"$TMP/p32"
	if grep -q '32-bit build' "$TMP/p32"; then pass "32-bit frames: the reason names the 32-bit build"
	else fail "32-bit frames: the reason names the 32-bit build" "$(cat "$TMP/p32")"; fi
	check_usage_error "32-bit yes: --bytes above 1T" "${r32[@]}" $M32/yes --bytes 2T
	check_usage_error "32-bit yes: --size above 64M" "${r32[@]}" $M32/yes --size 4G
	check_usage_error "32-bit malloc_variance: --iters x --threads above the cap" \
		"${r32[@]}" $M32/malloc_variance --iters 50000000 --threads 2
	check_usage_error "32-bit threads: SIZE 4G" "${r32[@]}" $M32/threads 4G 1 1
	# A short run: the same seeded sizes, so the same pixels, as this build.
	"${r32[@]}" $M32/frames --size 1M --vary 256K --frames 5 >"$TMP/f32" 2>"$TMP/err"
	./frames --size 1M --vary 256K --frames 5 >"$TMP/f64" 2>/dev/null
	cmp_num "32-bit frames: sampled pixels of a seeded --vary run = the 64-bit build's" \
		"$(field "$TMP/f32" 'sampled pixels')" -eq "$(field "$TMP/f64" 'sampled pixels')"
	"${r32[@]}" $M32/yes --size 4K --align page+16 --reps 1 --bytes 64K >"$TMP/y32" 2>"$TMP/err"
	cmp_num "32-bit yes: 64 KiB in 4 KiB writes take 16 write() calls" "$(field "$TMP/y32" writes)" -eq 16
	cmp_num "32-bit yes: page+16 starts 16 bytes into a page" "$(field "$TMP/y32" 'address % page')" -eq 16
	check_exit "32-bit malloc_variance: a short row runs" 0 "${r32[@]}" $M32/malloc_variance small --iters 1000
	check_exit "32-bit threads: a short run" 0 "${r32[@]}" $M32/threads --mode default 200000 100 2
fi

# ------------------------------------------------------------ arm64
A64=build/arm64
QEMU_LIB="-L ${QEMU_LD_PREFIX:-/usr/aarch64-linux-gnu}"
if ! port_runner $A64/frames qemu-aarch64 build-arm64; then
	skip "arm64: parsing, timer, seeded sizes, alignments, faults" "$WHY"
else
	ra=("${RUN[@]}")
	check_usage_error "arm64 frames: --size junk" "${ra[@]}" $A64/frames --size 1x
	check_usage_error "arm64 frames: --frames 0" "${ra[@]}" $A64/frames --frames 0
	check_usage_error "arm64 frames: -zt" "${ra[@]}" $A64/frames -zt
	check_usage_error "arm64 malloc_variance: --iters 0" "${ra[@]}" $A64/malloc_variance --iters 0
	check_usage_error "arm64 threads: COUNT 0" "${ra[@]}" $A64/threads 1000 0 1
	check_usage_error "arm64 yes: --align page+4" "${ra[@]}" $A64/yes --align page+4
	# No TSC: the clock must say it fell back, and still give a timer floor.
	"${ra[@]}" $A64/malloc_variance small --iters 2000 >"$TMP/mva" 2>"$TMP/err"
	if [ $? -eq 0 ] && grep -q 'CLOCK_MONOTONIC_RAW' "$TMP/mva"; then
		pass "arm64 malloc_variance: without a TSC it says it times with CLOCK_MONOTONIC_RAW"
	else
		fail "arm64 malloc_variance: without a TSC it says it times with CLOCK_MONOTONIC_RAW" \
			"$(grep -i clock "$TMP/mva") $(head -c 200 "$TMP/err")"
	fi
	# Seeded sizes: the same --vary sequence on both architectures.
	"${ra[@]}" $A64/frames --size 1M --vary 256K --frames 5 >"$TMP/fa" 2>"$TMP/err"
	./frames --size 1M --vary 256K --frames 5 >"$TMP/f64" 2>/dev/null
	cmp_num "arm64 frames: sampled pixels of a seeded --vary run = x86-64's" \
		"$(field "$TMP/fa" 'sampled pixels')" -eq "$(field "$TMP/f64" 'sampled pixels')"
	# Lab 5's alignments: each row starts where it claims (mod the page).
	"${ra[@]}" $A64/yes --csv --size 4K --reps 1 --bytes 64K >"$TMP/ya" 2>"$TMP/err"
	bad=$(awk -F, 'NR > 1 {
		want = $2 == "page" ? 0 : $2 == "page+1" ? 1 : $2 == "page+8" ? 8 : $2 == "page+16" ? 16 : -1
		if ((want >= 0 && $3 != want) || (want < 0 && $3 % 16 != 0) || $5 != 65536 || $6 != 65536)
			print $2 ": " $3 " " $5 " " $6 }' "$TMP/ya")
	# (as many rows as the x86-64 build prints: a header, a row an alignment)
	if [ "$(wc -l <"$TMP/ya")" -eq "$(./yes --csv --size 4K --reps 1 --bytes 64K 2>/dev/null | wc -l)" ] && [ -z "$bad" ]; then
		pass "arm64 yes: every alignment as claimed, every byte read"
	else
		fail "arm64 yes: every alignment as claimed, every byte read" "$bad $(head -c 200 "$TMP/err")"
	fi
	# Untuned frames each get a fresh mmap: the prediction holds, plus
	# qemu's own faults (its code cache, its page tables): allow 5%.
	"${ra[@]}" $A64/frames --frames 3 >"$TMP/fa3" 2>"$TMP/err"
	near "arm64 frames: untuned faults near the prediction (qemu adds its own)" \
		"$(field "$TMP/fa3" 'minor faults')" "$(field "$TMP/fa3" predicted)" 5
	skip "arm64 frames --tune: heap reuse" \
		"emulation: qemu's brk cannot grow by 63 MiB, so glibc falls back to mmap"
	skip "arm64 exact fault counts" "emulation: qemu's own faults land in the same counter"
	skip "arm64 allocation failure under ulimit -v" \
		"emulation: qemu reserves its JIT buffer in the same address space"
fi

# ------------------------------------------------------------ valgrind
# Lab 1's bug is a read of memory nobody wrote: memcheck must find it in
# the malloc build and nothing in the calloc one.  One small frame pair.
if ! command -v valgrind >/dev/null 2>&1; then
	skip "valgrind memcheck finds Lab 1's bug" "valgrind is not installed"
else
	valgrind -q --error-exitcode=99 ./frames --alloc malloc --size 1M --frames 2 \
		>/dev/null 2>"$TMP/vg"
	st=$?
	if [ $st -eq 99 ] && grep -qE 'uninitialised value|depends on uninitialised' "$TMP/vg"; then
		pass "valgrind: memcheck finds the uninitialised frame of --alloc malloc"
	else
		fail "valgrind: memcheck finds the uninitialised frame of --alloc malloc" \
			"exit $st: $(head -c 300 "$TMP/vg")"
	fi
	check_exit "valgrind: --alloc calloc is clean" 0 \
		valgrind -q --error-exitcode=99 ./frames --alloc calloc --size 1M --frames 2
fi

# ------------------------------------------------------------ sanitizers
# One quick run; `make sanitize` runs every mode.
if [ ! -x build/asan-gcc/frames ]; then
	skip "ASan+UBSan smoke run" "build/asan-gcc/frames is not built (make sanitize)"
else
	ASAN_OPTIONS=exitcode=86 UBSAN_OPTIONS=halt_on_error=1:exitcode=86 \
		build/asan-gcc/frames --size 1M --frames 2 --vary 256K >"$TMP/out" 2>"$TMP/err"
	st=$?
	if [ $st -eq 0 ] && grep -q "^# warning: malloc() comes from .*asan" "$TMP/out"; then
		pass "ASan+UBSan: frames runs clean, and its header names ASan's malloc"
	else
		fail "ASan+UBSan: frames runs clean, and its header names ASan's malloc" \
			"exit $st: $(head -c 300 "$TMP/err")"
	fi
fi
