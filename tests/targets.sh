#!/usr/bin/env bash
# tests/targets.sh - the make targets themselves: every lab three ways
# (labN, labN-tunables, labN-strace) at short knobs, knobs refused before
# anything runs, a failed run never ending in exit 0, widths, progress only
# on a terminal, no verdicts.  Counts and exit
# codes only, never times.
. "$(dirname "$0")/lib.sh" || exit 1
full_only "every lab three ways through make"

T6() { make --no-print-directory -s "$@"; }
W6=$TMP/l6

# widest NAME FILE MAX: every line of FILE fits MAX columns.  The shared
# environment header ("# " lines from tools/include/env.h) is checked once, below,
# so a wide header is named as such and not blamed on every target.
widest() {
	local name=$1 f=$2 max=$3 w
	w=$(awk '!/^# / { if (length > m) m = length } END { print m + 0 }' "$f")
	cmp_num "$name: output fits $max columns (header aside)" "$w" -le "$max"
}
# The header with a setting from the environment, as lab4-tunables shows it.
MALLOC_MMAP_THRESHOLD_=268435456 GLIBC_TUNABLES=glibc.malloc.trim_threshold=536870912 \
	./frames --env >"$TMP/l6_env"
w=$(awk '{ if (length > m) { m = length; l = $0 } } END { print m + 0 }' "$TMP/l6_env")
cmp_num "the environment header (tools/include/env.h) fits 100 columns" "$w" -le 100

# ------------------------------------------- knobs checked before any run
# knob_refused NAME CMD...: exit non-zero, one line on stderr naming the
# problem, nothing on stdout (nothing ran).
knob_refused() {
	local name=$1 rc lines
	shift
	"$@" >"$W6.out" 2>"$W6.err"
	rc=$?
	lines=$(wc -l <"$W6.err")
	if [ "$rc" -eq 0 ]; then fail "$name" "exit 0"
	elif [ "$lines" -ne 1 ]; then fail "$name" "$lines lines on stderr: $(head -c 300 "$W6.err")"
	elif [ -s "$W6.out" ]; then fail "$name" "something ran: $(head -c 200 "$W6.out")"
	else pass "$name (exit $rc: $(sed 's/.*\*\*\* //' "$W6.err" | cut -c1-32))"; fi
}
knob_refused "make run FRAMES=0: refused before running" T6 run FRAMES=0
knob_refused "make step3 FRAMES=abc: refused" T6 step3 FRAMES=abc
knob_refused "make sizes SCALE=0: refused before running" T6 sizes SCALE=0
knob_refused "make lab4-strace SCALE=-1: refused" T6 lab4-strace SCALE=-1
knob_refused "make yes-table BYTES=1m: refused before running" T6 yes-table BYTES=1m
knob_refused "make lab5-tunables BYTES=12Q: refused" T6 lab5-tunables BYTES=12Q
knob_refused "make variance VARIANCE_ITERS=0: refused" T6 variance VARIANCE_ITERS=0
knob_refused "make variance-mlock VARIANCE_ITERS=1e5: refused" T6 variance-mlock VARIANCE_ITERS=1e5
knob_refused "make demo-strace DEMO_FRAMES=0: refused" T6 demo-strace DEMO_FRAMES=0
# The scripts check the same knobs when run by hand (exit 2, one line).
for c in "FRAMES=0 tools/labs/lab1.sh 1" "SCALE=0 tools/labs/lab4.sh" "BYTES=1m tools/labs/lab5.sh" \
	 "VARIANCE_ITERS=x tools/labs/lab2-tunables.sh" "FRAMES=-3 tools/labs/demo-strace.sh" \
	 "BYTES=17G tools/labs/lab5.sh" "FRAMES=1 tools/labs/lab1.sh 10"; do
	check_refused "$c"
done

# ------------------------------------------------ a failure is a failure
# The walkthrough keeps its outputs in RUN_DIR: one it cannot write is an
# error before any run, not an empty summary.
FRAMES=1 RUN_DIR=/dev/null/run tools/labs/lab1.sh 1 >"$W6.out" 2>"$W6.err"
rc=$?
if [ "$rc" -ne 0 ] && grep -q "cannot write" "$W6.err" && ! grep -q '^\$ ' "$W6.out"; then
	pass "lab1.sh: an unwritable RUN_DIR is an error before any run (exit $rc)"
else
	fail "lab1.sh: an unwritable RUN_DIR is an error before any run" "exit $rc: $(head -c 200 "$W6.err")"
fi
# A frame that cannot be allocated (32 or 64 MiB of address space: Lab 1's
# 63 MiB frame, Lab 4's 48 MiB row) fails the run;
# the walkthrough and the Lab 4 table must stop there, non-zero.
(ulimit -v 32768; FRAMES=1 RUN_DIR=$TMP/l6run tools/labs/lab1.sh 1 3) >"$W6.out" 2>"$W6.err"
rc=$?
if [ "$rc" -ne 0 ] && grep -q "the run failed" "$W6.err" && ! grep -q "Step 3" "$W6.out"; then
	pass "lab1.sh: stops at the first failed run, exit $rc"
else
	fail "lab1.sh: stops at the first failed run" "exit $rc: $(tail -c 300 "$W6.err")"
fi
(ulimit -v 32768; SCALE=300 tools/labs/lab4.sh) >"$W6.out" 2>"$W6.err"
rc=$?
if [ "$rc" -ne 0 ] && grep -q "the run failed" "$W6.err" && ! grep -q "^Read it" "$W6.out"; then
	pass "lab4.sh: stops at the first failed run, exit $rc"
else
	fail "lab4.sh: stops at the first failed run" "exit $rc: $(tail -c 300 "$W6.err")"
fi

# ------------------------------------------------- make help names them all
T6 help >"$W6.help"
missing=
for t in lab1 lab1-tunables lab1-strace lab2 lab2-tunables lab2-strace lab3 lab3-tunables \
	 lab3-strace lab4 lab4-tunables lab4-strace lab5 lab5-tunables lab5-strace lab7 lab8 CMD \
	 lab7-tunables lab7-strace demo-strace \
	 run variance sizes gotcha yes-table bug1541 step9 FRAMES VARIANCE_ITERS COUNT_LARGE LIVE \
	 REPEATS SCALE BYTES DEMO_FRAMES RUN_DIR CC OPT; do
	grep -qw -- "$t" "$W6.help" || missing="$missing $t"
done
if [ -z "$missing" ]; then pass "make help names every target and knob"
else fail "make help names every target and knob" "missing:$missing"; fi
widest "make help" "$W6.help" 80
# A port whose cross toolchain is missing stops make -n with one line
# naming the packages to install (Makefile: libc_check): a skip, not a fault.
for t in $(sed -n 's/^  make \([a-z0-9.-]*\).*/\1/p' "$W6.help"); do
	if ! make -n "$t" >/dev/null 2>"$W6.err"; then
		case $t in
		lab3*) skip "make help's $t is a target" "Lab 3's targets come with the lab3 branch" ;;
		build32 | build-arm64)
			pk=$(sed -n "s/.*cannot build a program for glibc.*: \(apt-get install [^.]*\)\..*/\1/p" "$W6.err")
			if [ -n "$pk" ]; then skip "make help's $t is a target" "no toolchain for it: $pk"
			else fail "make help's $t is a target" "make -n $t fails: $(cat "$W6.err")"; fi ;;
		*) fail "make help's $t is a target" "make -n $t fails" ;;
		esac
	fi
done

# ---------------------------------------------------- Lab 1 three ways
T6 lab1-tunables FRAMES=1 >"$W6.l1t" 2>"$W6.err"
rc=$?
cmp_num "make lab1-tunables FRAMES=1 exits 0" "$rc" -eq 0
n=$(grep -c '^=== Step' "$W6.l1t")
cmp_num "lab1-tunables: steps 3, 4, 6 and 9" "$n" -eq 4
# A long command is shown over several lines (backslash-newline, even
# inside a word): join them as the shell would before looking.
sed -e ':a' -e '/\\$/N; s/\\\n//; ta' "$W6.l1t" >"$W6.l1t.joined"
for t in mmap_max=0 trim_threshold=4294967295 perturb=170; do
	if grep -q "^\$ GLIBC_TUNABLES=[^ ]*$t" "$W6.l1t.joined" && grep -q "^# set: .*$t" "$W6.l1t"; then
		pass "lab1-tunables: shows GLIBC_TUNABLES ...$t and its '# set:' line"
	else
		fail "lab1-tunables: shows GLIBC_TUNABLES ...$t and its '# set:' line" "not found"
	fi
done
n=$(grep -c '^# glibc ' "$W6.l1t")
cmp_num "lab1-tunables: the environment header once, not per run" "$n" -eq 1
widest "lab1-tunables" "$W6.l1t" 80

T6 lab1-strace FRAMES=2 >"$W6.l1s" 2>"$W6.err"
rc=$?
cmp_num "make lab1-strace FRAMES=2 exits 0" "$rc" -eq 0
if strace_ok; then
	n=$(strace_calls "$W6.l1s" munmap)
	cmp_num "lab1-strace: at least one munmap per frame (2)" "$n" -ge 2
else
	if grep -q "skipped: " "$W6.l1s"; then pass "lab1-strace: says why it skipped"
	else fail "lab1-strace: says why it skipped" "no 'skipped:'"; fi
fi

T6 lab1 FRAMES=1 >"$W6.l1" 2>"$W6.err"
rc=$?
cmp_num "make lab1 FRAMES=1 exits 0" "$rc" -eq 0
n=$(grep -c '^=== Step' "$W6.l1")
cmp_num "lab1: nine steps" "$n" -eq 9
n=$(awk '/^=== Summary/ { s = 1; next } s && /s +[0-9]+ +[0-9.]+ +[0-9]+/' "$W6.l1" | wc -l)
cmp_num "lab1: a summary row per measured run (9)" "$n" -eq 9
n=$(grep -c '^# glibc ' "$W6.l1")
cmp_num "lab1: the environment header once" "$n" -eq 1
widest "lab1" "$W6.l1" 80
# Step 9's untuned frames are mapped: frames predicts them exactly, also
# where huge pages back them (tests/thp.sh holds the count to it).
if grep -q 'hugetlb=1' "$W6.l1" &&
   awk '/^=== Step 9/ { s = 1 } /^=== Summary/ { s = 0 } s && /predicted: .*\(exact within/ { f = 1 }
	END { exit !f }' "$W6.l1"; then
	pass "lab1 step 9: hugetlb=1 runs, and frames predicts its mapped frames exactly"
elif grep -q 'skipped: glibc .* has no glibc.malloc.hugetlb' "$W6.l1"; then
	pass "lab1 step 9: says this glibc has no hugetlb tunable"
else
	fail "lab1 step 9: hugetlb=1 or a reason" "neither in the output"
fi
RF6=$(read_faults_per_page)
if [ "$RF6" = 1 ]; then
	grep -q "maps no zero" "$W6.l1" && pass "lab1 step 1: explains one fault a page here" ||
		fail "lab1 step 1: explains one fault a page here" "no 'maps no zero' note"
else
	grep -q "maps the shared" "$W6.l1" && pass "lab1 step 1: explains two faults a page here" ||
		fail "lab1 step 1: explains two faults a page here" "no zero-page note"
fi

T6 demo-strace DEMO_FRAMES=2 >"$W6.demo" 2>"$W6.err"
rc=$?
cmp_num "make demo-strace DEMO_FRAMES=2 exits 0" "$rc" -eq 0
widest "demo-strace" "$W6.demo" 80
if strace_ok; then
	d=$(awk '/^munmap calls/ { print $3 - $4 }' "$W6.demo")
	needs_solution lab1.tune_allocator "demo-strace: default makes one munmap a frame more than tuned" &&
	cmp_num "demo-strace: default makes one munmap a frame more than tuned (2)" "$d" -eq 2
fi

# ---------------------------------------------------- Lab 2 three ways
T6 lab2 VARIANCE_ITERS=2000 >"$W6.l2" 2>"$W6.err"
rc=$?
cmp_num "make lab2 VARIANCE_ITERS=2000 exits 0" "$rc" -eq 0
widest "lab2" "$W6.l2" 80

T6 lab2-tunables VARIANCE_ITERS=20000 RUN_DIR="$TMP/l6l2t" >"$W6.l2t" 2>"$W6.err"
rc=$?
cmp_num "make lab2-tunables VARIANCE_ITERS=20000 exits 0" "$rc" -eq 0
widest "lab2-tunables" "$W6.l2t" 80
n=$(wc -l <"$W6.l2t")
cmp_num "lab2-tunables: one screen, table included (lines)" "$n" -le 40
n=$(grep -c '^\$ GLIBC_TUNABLES=glibc.malloc.tcache_count=0' "$W6.l2t")
cmp_num "lab2-tunables: four runs show their GLIBC_TUNABLES" "$n" -eq 4
n=$(awk '/^[^ ]/ { row = /^malloc 32 B/ } row && /^  thread [01]/' "$TMP/l6l2t/lab2-tunables.txt" | wc -l)
cmp_num "lab2-tunables detail file: the 32 B row's thread rows (6, in both tables)" "$n" -eq 12
n=$(grep -c '^# set: glibc.malloc.tcache_count=0' "$TMP/l6l2t/lab2-tunables.txt")
cmp_num "lab2-tunables detail file: each tuned run's '# set:' line (4)" "$n" -eq 4
# The p50 columns are times: shown, never compared here (a shared machine,
# a timer step of ~10 ns).  Only that both runs printed one.
p_def=$(awk '$1 == "default" && $2 == 2 { print $3 }' "$W6.l2t")
p_one=$(awk '$1 == "tcache_count=0:arena_max=1" && $2 == 2 { print $3 }' "$W6.l2t")
if [[ $p_def =~ ^[0-9.]+$ && $p_one =~ ^[0-9.]+$ ]]; then
	pass "lab2-tunables: 2-thread p50 printed for default ($p_def ns) and arena_max=1 ($p_one ns)"
else
	fail "lab2-tunables: 2-thread p50 rows" "default '$p_def', arena_max=1 '$p_one'"
fi

T6 lab2-strace VARIANCE_ITERS=200 >"$W6.l2s" 2>"$W6.err"
rc=$?
cmp_num "make lab2-strace VARIANCE_ITERS=200 exits 0" "$rc" -eq 0
if grep -q "times under strace are strace's" "$W6.l2s" || grep -q "skipped: " "$W6.l2s"; then
	pass "lab2-strace: says its times are strace's (or why it skipped)"
else
	fail "lab2-strace: says its times are strace's" "no caveat"
fi

# ---------------------------------------------------- Lab 4 three ways
T6 lab4 SCALE=300 >"$W6.l4" 2>"$W6.err"
rc=$?
cmp_num "make lab4 SCALE=300 exits 0" "$rc" -eq 0
widest "lab4" "$W6.l4" 80
[ -s "$W6.err" ] && fail "lab4: no progress on stderr when it is not a terminal" "$(head -c 200 "$W6.err")" ||
	pass "lab4: no progress on stderr when it is not a terminal"
if pty_ok; then
	script -qec "make --no-print-directory -s lab4 SCALE=300 >/dev/null" /dev/null >"$W6.tty" 2>&1
	# lab4.sh's own lines up to its last row (however many rows the table
	# has: the edge's two joined them), and ./frames' progress under them.
	if grep -q 'lab4: row 1 of [0-9]' "$W6.tty" && grep -q 'lab4: row \([0-9]*\) of \1:' "$W6.tty" &&
	   grep -q '\./frames: frame 1/' "$W6.tty"; then
		pass "lab4: progress on a terminal (script)"
	else fail "lab4: progress on a terminal (script)" "$(head -c 200 "$W6.tty")"; fi
else
	skip "lab4: progress on a terminal" "$PTY_WHY"
fi

T6 lab4-tunables SCALE=50 >"$W6.l4t" 2>"$W6.err"
rc=$?
cmp_num "make lab4-tunables SCALE=50 exits 0" "$rc" -eq 0
widest "lab4-tunables" "$W6.l4t" 80
if grep -q '^# set: MALLOC_MMAP_THRESHOLD_' "$W6.l4t" && grep -q '^# set: glibc.malloc.mmap_threshold' "$W6.l4t"; then
	pass "lab4-tunables: both spellings' '# set:' lines shown"
else
	fail "lab4-tunables: both spellings' '# set:' lines shown" "missing"
fi
n=$(awk '{ l = $0; sub(/^ +/, "", l) } l ~ /^from mmap:/ { printf "%s ", $3 }' "$W6.l4t")
if [ "$n" = "2 0 0 " ]; then pass "lab4-tunables: from mmap 2, then 0 and 0"
else fail "lab4-tunables: from mmap 2, then 0 and 0" "got '$n'"; fi

T6 lab4-strace SCALE=20 >"$W6.l4s" 2>"$W6.err"
rc=$?
cmp_num "make lab4-strace SCALE=20 exits 0" "$rc" -eq 0
widest "lab4-strace" "$W6.l4s" 80
if strace_ok; then
	# 5 frames: 34 MiB maps and unmaps each one, 30 MiB only the first.
	d=$(awk '$1 == "30M" { m = $3; u = $4 } $1 == "34M" { printf "%d %d", $3 - m, $4 - u }' "$W6.l4s")
	if [ "$d" = "4 4" ]; then pass "lab4-strace: 34 MiB makes 4 more mmaps and munmaps than 30 MiB in 5 frames"
	else fail "lab4-strace: 34 MiB makes 4 more mmaps and munmaps than 30 MiB in 5 frames" "got '$d'"; fi
fi

# ---------------------------------------------------- Lab 5 three ways
T6 lab5 BYTES=64K >"$W6.l5" 2>"$W6.err"
rc=$?
cmp_num "make lab5 BYTES=64K exits 0" "$rc" -eq 0
widest "lab5" "$W6.l5" 80

T6 lab5-tunables BYTES=64K >"$W6.l5t" 2>"$W6.err"
rc=$?
cmp_num "make lab5-tunables BYTES=64K exits 0" "$rc" -eq 0
widest "lab5-tunables" "$W6.l5t" 80
n=$(grep -c '^# set: glibc.malloc.mmap_threshold=4096' "$W6.l5t")
cmp_num "lab5-tunables: both tuned runs name mmap_threshold=4096" "$n" -eq 2
# With top_pad=0 the heap top is never big enough: every buffer of 4 KiB
# or more (at or above the threshold) is its own mapping, page + 16.
bad=$(awk -F'|' 'NF == 4 && $1 + 0 >= 4096 { split($4, c, " "); if (c[1] != 16) print $1 }' "$W6.l5t")
n=$(awk -F'|' 'NF == 4 && $1 + 0 >= 4096' "$W6.l5t" | wc -l)
if ! needs_solution lab5.page_buffer "lab5-tunables: + top_pad=0, every buffer >= 4 KiB at page + 16"; then :
elif [ "$n" -ge 8 ] && [ -z "$bad" ]; then pass "lab5-tunables: + top_pad=0, every buffer >= 4 KiB at page + 16 ($n sizes)"
else fail "lab5-tunables: + top_pad=0, every buffer >= 4 KiB at page + 16" "$n sizes; not at 16:$bad"; fi

T6 lab5-strace BYTES=64K >"$W6.l5s" 2>"$W6.err"
rc=$?
cmp_num "make lab5-strace BYTES=64K exits 0" "$rc" -eq 0
widest "lab5-strace" "$W6.l5s" 80
if strace_ok; then
	# 64 KiB in 4 KiB writes is 16 calls, in 16 KiB writes 4: the rest
	# (the report, the reader's tally) is the same in both runs.
	d=$(awk '$1 == "4K" { w = $2 } $1 == "16K" { print w - $2 }' "$W6.l5s")
	cmp_num "lab5-strace: 4 KiB buffers make 12 more write() calls than 16 KiB" "$d" -eq 12
fi

# ------------------------------------------- no strace: skipped, not failed
# A strace that cannot trace (as where ptrace is denied): every -strace
# target says why it skipped and exits 0; nothing else was wrong.
mkdir -p "$TMP/l6bin"
printf '#!/bin/sh\necho "strace: ptrace(PTRACE_TRACEME, ...): Operation not permitted" >&2\nexit 1\n' \
	>"$TMP/l6bin/strace"
chmod +x "$TMP/l6bin/strace"
for t in "lab1-strace FRAMES=1" "lab2-strace VARIANCE_ITERS=100" "lab4-strace SCALE=100" \
	 "lab5-strace BYTES=64K"; do
	# shellcheck disable=SC2086
	PATH=$TMP/l6bin:$PATH T6 $t >"$W6.out" 2>"$W6.err"
	rc=$?
	if [ "$rc" -eq 0 ] && grep -q "skipped: strace cannot trace here" "$W6.out"; then
		pass "make $t without a working strace: says skipped, exit 0"
	else
		fail "make $t without a working strace: says skipped, exit 0" \
			"exit $rc: $(tail -c 200 "$W6.out") $(head -c 200 "$W6.err")"
	fi
done

# ---------------------------------------------------- no verdicts anywhere
if cat "$W6".l* "$W6.demo" | grep -qi 'goal'; then
	fail "no target prints a 'goal'" "$(cat "$W6".l* "$W6.demo" | grep -i goal | head -n 2)"
else
	pass "no target prints a 'goal'"
fi

# make reference is all-or-nothing: a recording that fails (here Lab 4's
# knob, refused before anything runs) leaves no file and no .part behind,
# earlier recordings of the same call included, and exits 1.
mkdir -p "$TMP/rec"
RESULTS_DIR=$TMP/rec VARIANCE_ITERS=2000 SCALE=0 tools/maint/record.sh lab2 lab4 >"$TMP/rec.out" 2>&1 </dev/null
rc=$?
if [ $rc -eq 1 ] && [ -z "$(ls -A "$TMP/rec")" ] && grep -q "left as it was" "$TMP/rec.out"; then
	pass "record.sh: a failed recording leaves nothing behind and exits 1"
else
	fail "record.sh: a failed recording" "exit $rc, left: $(ls -A "$TMP/rec" | tr '\n' ' ') $(tail -n 2 "$TMP/rec.out")"
fi
check_exit "record.sh: an unknown item is a usage error" 2 tools/maint/record.sh nosuch

# results/ itself is written only by a clean revision: a clone with an
# edited program is refused before anything runs, results/ untouched.
if command -v git >/dev/null 2>&1 && [ -d .git ]; then
	git clone -q . "$TMP/dirty" && printf '/* edited */\n' >>"$TMP/dirty/frames.c"
	(cd "$TMP/dirty" && tools/maint/record.sh lab2) >"$TMP/dirty.out" 2>&1 </dev/null
	rc=$?
	if [ $rc -eq 2 ] && grep -q "not a clean revision" "$TMP/dirty.out" &&
		[ "$(git -C "$TMP/dirty" status --porcelain)" = " M frames.c" ]; then
		pass "record.sh: a dirty kit does not rewrite results/ (exit 2)"
	else
		fail "record.sh: a dirty kit" "exit $rc: $(head -n 2 "$TMP/dirty.out")"
	fi
else
	skip "record.sh: a dirty kit" "needs git and a git checkout"
fi
