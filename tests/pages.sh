#!/usr/bin/env bash
# tests/pages.sh - the page size is a parameter, not 4096: the arm64 build
# (make build-arm64) under qemu-aarch64 with -p 16384 and -p 65536, where
# glibc and the programs see that page size (AT_PAGESZ) on this machine.
# qemu-user's faults are this machine's, and its brk cannot grow (malloc
# falls back to mmap for the heap), so only what follows from the page size
# alone is checked here: the header, Lab 4's edge (the mapping calls qemu
# traces), and Lab 5's address mod the page.  Fault counts at each page
# size: make kernels (tools/platforms/kernels.sh), in real arm64 kernels.
. "$(dirname "$0")/lib.sh" || exit 1

A64=build/arm64
QEMU_A64=$(command -v qemu-aarch64 || command -v qemu-aarch64-static)
SYSROOT=${QEMU_LD_PREFIX:-/usr/aarch64-linux-gnu}
if [ ! -x $A64/frames ] || [ ! -x $A64/yes ]; then
	skip "pages: 16 and 64 KiB pages under qemu-aarch64 -p" "$A64 is not built (make build-arm64)"
	exit 0
elif [ -z "$QEMU_A64" ]; then
	skip "pages: 16 and 64 KiB pages under qemu-aarch64 -p" "qemu-aarch64 is not installed (apt-get install qemu-user)"
	exit 0
elif [ "$("$QEMU_A64" -L "$SYSROOT" -p 65536 $A64/frames --csv --frames 1 --size 1M 2>/dev/null |
	tools/lib/csvget page_bytes)" != 65536 ]; then
	skip "pages: 16 and 64 KiB pages under qemu-aarch64 -p" "this qemu-aarch64 does not honour -p 65536"
	exit 0
fi

for P in 16384 65536; do
	q=("$QEMU_A64" -L "$SYSROOT" -p "$P")
	k=$((P / 1024))K
	"${q[@]}" $A64/frames --env >"$TMP/env$P" 2>&1
	if grep -q "^# glibc .* | page $P B |" "$TMP/env$P"; then pass "pages $k: the header names the page size"
	else fail "pages $k: the header names the page size" "$(head -n 1 "$TMP/env$P")"; fi

	# Lab 4's edge: 32 MiB - page - 24 on glibc 2.35-2.42 (tests/lab4.sh
	# derives it).  At the edge the first frame's free raises the threshold:
	# one frame-sized munmap in three frames; 8 bytes past it, every frame.
	edge=$("${q[@]}" $A64/frames --edge)
	if [ "$("${q[@]}" $A64/frames --frames 1 --size 1M --csv | tools/lib/csvget glibc)" = 2.36 ]; then
		cmp_num "pages $k: frames --edge is 32 MiB - page - 24" "$edge" -eq $(( (32 << 20) - P - 24 ))
	else
		skip "pages $k: frames --edge from first principles" "derived for glibc 2.35-2.42's chunk layout"
	fi
	for s in "$edge 1" "$((edge + 8)) 3"; do
		set -- $s
		"${q[@]}" -strace $A64/frames --alloc memset --frames 3 --size "$1" --csv \
			>"$TMP/edge$P-$1.csv" 2>"$TMP/edge$P-$1.strace"
		# munmap(ADDRESS,LENGTH): the frames' mappings are the only ones over 16 MiB.
		n=$(awk -F'[(,)]' '/ munmap\(/ && $3 + 0 > 16777216 { n++ } END { print n + 0 }' "$TMP/edge$P-$1.strace")
		cmp_num "pages $k: --size $1 unmaps $2 frame(s) of 3" "$n" -eq "$2"
	done

	# Lab 5: a buffer at a page boundary + 16 starts 16 bytes into its page.
	"${q[@]}" $A64/yes --size 4K --align page+16 --reps 1 --bytes 64K >"$TMP/yes$P" 2>&1
	cmp_num "pages $k: yes --align page+16: address % page is 16" "$(field "$TMP/yes$P" 'address % page')" -eq 16
	"${q[@]}" $A64/yes --size 4K --align page --reps 1 --bytes 64K >"$TMP/yesp$P" 2>&1
	cmp_num "pages $k: yes --align page: address % page is 0" "$(field "$TMP/yesp$P" 'address % page')" -eq 0
done
