#!/usr/bin/env bash
# tests/badinput.sh - the bad-input table: what a careless student or a
# hostile environment does to the programs, and the exit status and message
# each case must give.  No case may end in exit 0 after a failure.  Every
# command is bounded by `timeout` so a program that
# fails to stop fails its row instead of hanging the suite.
. "$(dirname "$0")/lib.sh" || exit 1

# row NAME WANT PATTERN 'COMMAND': COMMAND (run by bash, so it may redirect
# and pipe; pipefail is on) exits WANT ("!0" = any failure but a timeout)
# and its stderr matches the extended regex PATTERN.
row() {
	local name=$1 want=$2 pat=$3 got ok=1
	timeout 120 bash -o pipefail -c "$4" >"$TMP/bo" 2>"$TMP/be"
	got=$?
	if [ "$got" -eq 124 ]; then ok=0
	elif [ "$want" = '!0' ]; then [ "$got" -ne 0 ] || ok=0
	else [ "$got" -eq "$want" ] || ok=0; fi
	if [ $ok -eq 1 ] && grep -qE -- "$pat" "$TMP/be"; then
		pass "bad input: $name (exit $got)"
	else
		fail "bad input: $name" "exit $got, want $want and stderr matching /$pat/: $(head -c 300 "$TMP/be")"
	fi
}

WE='write error: '
FULL='write error: No space left on device'

# ------------------------------------------- stdout closed or on a full disk
for p in ./frames ./malloc_variance ./threads ./yes ./arenas; do
	row "$p --help, stdout closed" 1 "$WE" "$p --help >&-"
	row "$p --help >/dev/full" 1 "$FULL" "$p --help >/dev/full"
done
row "frames: a run >/dev/full" 1 "$FULL" "./frames --size 1M --frames 1 >/dev/full"
row "frames: a run, stdout closed" 1 "$WE" "./frames --size 1M --frames 1 >&-"
row "frames --csv >/dev/full" 1 "$FULL" "./frames --size 1M --frames 1 --csv >/dev/full"
row "frames --env >/dev/full" 1 "$FULL" "./frames --env >/dev/full"
row "malloc_variance: a row >/dev/full" 1 "$FULL" "./malloc_variance small --iters 1000 >/dev/full"
row "malloc_variance --csv >/dev/full" 1 "$FULL" "./malloc_variance small --csv --iters 1000 >/dev/full"
# The rows run in children: exactly one "write error", from the parent.
row "malloc_variance all (forked rows) >/dev/full" 1 "$FULL" \
	"./malloc_variance all --iters 300 >/dev/full"
cmp_num "bad input: ... and only the parent reports it" "$(grep -c "$WE" "$TMP/be")" -eq 1
row "threads: a run >/dev/full" 1 "$FULL" "./threads --live 10M --mode default 100000 20 1 >/dev/full"
row "threads --csv >/dev/full" 1 "$FULL" "./threads --live 10M --csv --mode default 100000 20 1 >/dev/full"
row "arenas: a run >/dev/full" 1 "$FULL" "./arenas --threads 2 --rounds 4 >/dev/full"
row "arenas --csv --trim >/dev/full" 1 "$FULL" "./arenas --csv --trim --threads 2 --rounds 4 >/dev/full"
row "yes: one row >/dev/full" 1 "$FULL" "./yes --size 4K --reps 1 --bytes 64K >/dev/full"
row "yes --csv >/dev/full" 1 "$FULL" "./yes --csv --size 4K --reps 1 --bytes 64K >/dev/full"
row "yes --read >/dev/full" 1 "$FULL" "head -c 1000 /dev/zero | ./yes --read 1000 >/dev/full"
row "gotcha >/dev/full" 1 "$FULL" "tests/bin/gotcha >/dev/full"
row "test_bench >/dev/full" 1 "$FULL" "tests/bin/test_bench >/dev/full"

# ------------------------------------------- a reader that goes away
# GNU yes stops at once when its reader has gone; so must ./yes, with the
# sweep's 256 MiB runs (timeout bounds a run that would not stop).
row "yes | head -1: stops with a write error" 1 'write error: Broken pipe' \
	"./yes --bytes 16M | head -n 1 >/dev/null"
row "yes (256 MiB runs) | head -c 10: stops early" 1 'write error: Broken pipe' \
	"./yes | head -c 10 >/dev/null"

# ------------------------------------------- numbers
row "frames --frames with a leading tab" 2 "--frames wants" "./frames --frames '	5'"
row "frames --frames with a leading space" 2 "--frames wants" "./frames --frames ' 5'"
row "frames --frames +5" 2 "--frames wants" "./frames --frames +5"
row "frames --frames -5" 2 "--frames wants" "./frames --frames -5"
row "frames --frames 5x" 2 "--frames wants" "./frames --frames 5x"
row "frames --size overflowing uint64" 2 "--size wants" "./frames --size 99999999999999999999"
row "frames --size overflowing the G shift" 2 "--size wants" "./frames --size 17179869184G"
row "frames --size 1.5M" 2 "--size wants" "./frames --size 1.5M"
row "frames --size 1MB2" 2 "--size wants" "./frames --size 1MB2"
row "malloc_variance --iters 0x10" 2 "--iters wants" "./malloc_variance --iters 0x10"
row "malloc_variance --threads 65" 2 "--threads wants" "./malloc_variance --threads 65"
row "threads SIZE with a leading tab" 2 "SIZE" "./threads '	10' 1 1"
row "threads -1 10 1: negative, not an option" 2 "'-1' is negative" "./threads -1 10 1"
row "yes --reps 1e3" 2 "--reps wants" "./yes --reps 1e3"
row "arenas --threads with a leading tab" 2 "--threads wants" "./arenas --threads '	4'"
row "arenas --threads -2" 2 "--threads wants" "./arenas --threads -2"
row "arenas --rounds 1e3" 2 "--rounds wants" "./arenas --rounds 1e3"
row "arenas --live overflowing uint64" 2 "--live wants" "./arenas --live 99999999999999999999"
row "yes --bytes -1" 2 "--bytes wants" "./yes --bytes -1"

# ------------------------------------------- options
row "frames -zt names -z" 2 "unknown option '-z'" "./frames -zt"
row "malloc_variance -zt names -z" 2 "unknown option '-z'" "./malloc_variance -zt"
row "yes -zt names -z" 2 "unknown option '-z'" "./yes -zt"
row "threads -zt names -z" 2 "unknown option '-z'" "./threads -zt"
row "arenas -zt names -z" 2 "unknown option '-z'" "./arenas -zt"
row "arenas --trim=1 names --trim" 2 "--trim" "./arenas --trim=1"
row "threads 1 1 1: a live set of 490 M blocks is refused" 2 "the limit is" "./threads 1 1 1"
row "frames --bogus=1 names --bogus" 2 "unknown option '--bogus'" "./frames --bogus=1"
row "yes --size without a value" 2 "--size needs a value" "./yes --size"

# ------------------------------------------- 32-bit oversize
if [ -x build/m32/frames ] && { build/m32/frames --help >/dev/null 2>&1 ||
	qemu-i386 build/m32/frames --help >/dev/null 2>&1; }; then
	m32=build/m32/frames
	build/m32/frames --help >/dev/null 2>&1 || m32="qemu-i386 build/m32/frames"
	row "32-bit frames --size 4G" 2 "32-bit build" "$m32 --size 4G"
	row "32-bit frames --size 3G --vary 2G" 2 "32-bit build" "$m32 --size 3G --vary 2G --alloc once"
else
	skip "bad input: 32-bit oversize" "no runnable build/m32/frames (make build32; qemu-user)"
fi

# ------------------------------------------- failed allocations
row "frames: a frame beyond ulimit -v" 1 "frames.*(alloc|Cannot allocate)" \
	"ulimit -v 60000; ./frames --frames 1 >/dev/null"
row "yes: buffers beyond ulimit -v" 1 "malloc.*failed" \
	"ulimit -v 60000; ./yes --size 64M --reps 1 --bytes 64M >/dev/null"
row "arenas: thread heaps beyond ulimit -v" 1 "arenas: " \
	"ulimit -v 100000; ./arenas --threads 8 >/dev/null"
row "malloc_variance: samples beyond ulimit -v" 1 "mmap for .* samples" \
	"ulimit -v 100000; ./malloc_variance small --iters 50000000 >/dev/null"

# ------------------------------------------- another malloc
dbg=$(ls /lib/*-linux-gnu/libc_malloc_debug.so.0 /usr/lib/*-linux-gnu/libc_malloc_debug.so.0 2>/dev/null | head -n 1)
if [ -n "$dbg" ]; then
	LD_PRELOAD=$dbg ./frames --env >"$TMP/pre" 2>/dev/null
	if grep -Eq "^# warning: (LD_PRELOAD: )?malloc\(\) comes from .*libc_malloc_debug" "$TMP/pre"; then
		pass "bad input: a preloaded malloc is named by the header's warning"
	else
		fail "bad input: a preloaded malloc is named by the header's warning" "$(grep warning "$TMP/pre")"
	fi
else
	skip "bad input: a preloaded malloc" "libc_malloc_debug.so.0 not found (glibc < 2.34?)"
fi
if [ -x build/asan-gcc/frames ]; then
	build/asan-gcc/frames --env >"$TMP/pre" 2>/dev/null
	if grep -q "^# warning: malloc() comes from .*libasan" "$TMP/pre"; then
		pass "bad input: ASan's malloc is named by the header's warning"
	else
		fail "bad input: ASan's malloc is named by the header's warning" "$(grep warning "$TMP/pre")"
	fi
else
	skip "bad input: ASan's malloc" "build/asan-gcc/frames is not built (make sanitize)"
fi

# ------------------------------------------- the environment
# A compiler for another C library: one line from make, nothing built.
if command -v musl-gcc >/dev/null 2>&1; then
	row "make CC=musl-gcc: one line naming the compiler" 2 "'musl-gcc' cannot build a program for glibc" \
		"make -n -B CC=musl-gcc frames"
	cmp_num "bad input: ... and that is the only line" "$(wc -l <"$TMP/be")" -eq 1
else
	skip "bad input: make CC=musl-gcc" "musl-gcc is not installed (apt-get install musl-tools)"
fi
row "make CC=no-such-cc: one line naming the compiler" 2 "'no-such-cc' cannot build" \
	"make -n -B CC=no-such-cc frames"
row "tests/run.sh with an unusable TMPDIR" 1 "mktemp -d failed" \
	"TMPDIR=/nonexistent/malloc-labs tests/run.sh"

# Killing only malloc_variance's parent must take the row's child with it.
./malloc_variance all --iters 5000000 >/dev/null 2>&1 &
mv_parent=$!
mv_child=
for _ in $(seq 100); do
	mv_child=$(pgrep -P "$mv_parent" 2>/dev/null | head -n 1)
	[ -n "$mv_child" ] && break
	sleep 0.1
done
if [ -z "$mv_child" ]; then
	kill "$mv_parent" 2>/dev/null; wait "$mv_parent" 2>/dev/null
	skip "bad input: killing malloc_variance's parent" "no row child seen (pgrep missing?)"
else
	kill "$mv_parent"; wait "$mv_parent" 2>/dev/null
	for _ in $(seq 50); do
		st=$(ps -o stat= -p "$mv_child" 2>/dev/null)
		case $st in ''|Z*) break ;; esac
		sleep 0.1
	done
	case $st in
	''|Z*) pass "bad input: killing malloc_variance's parent ends the row's child" ;;
	*) fail "bad input: killing malloc_variance's parent ends the row's child" "child $mv_child still '$st'"
	   kill "$mv_child" 2>/dev/null ;;
	esac
fi
