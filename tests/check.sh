#!/usr/bin/env bash
# tests/check.sh - the exercises and make check.  The regions are where
# tools/lib/exercise.awk finds them, each has its stub, a misplaced marker
# stops the tool; make check, as typed, gives the kit's own solutions full
# marks and the skeleton as shipped (every region replaced by its stub)
# under half, one exercise solved at a time scores that exercise alone,
# code that crashes or hangs scores nothing for what it printed, natural C
# (perror, exit, sysconf, getpagesize) scores full marks in make check and
# the course's re-run alike, and a region that does not compile is graded
# as its stub while the others score.
. "$(dirname "$0")/lib.sh" || exit 1

EX=tools/lib/exercise.awk
KNOBS=(FRAMES=2 SCALE=100 VARIANCE_ITERS=2000 COUNT_LARGE=200 BYTES=1M)
progs=$(lab_programs | sed 's/$/.c/' | tr '\n' ' ')

# ------------------------------------------------------------ the regions
# shellcheck disable=SC2086
kit_regions >"$TMP/regions" 2>"$TMP/err"; rc=$?
n=$(wc -l <"$TMP/regions")
if [ $rc = 0 ] && [ "$n" -ge 6 ]; then pass "exercise regions: $n in the lab programs, each named once"
else fail "exercise regions listed" "exit $rc, $n regions: $(cat "$TMP/err")"; fi
missing=$(awk '{ print $1 }' "$TMP/regions" | while read -r r; do [ -s "tools/exercises/$r.c" ] || echo "$r"; done)
orphans=$(for f in tools/exercises/*.c; do r=${f##*/}; r=${r%.c}; grep -q "^$r " "$TMP/regions" || echo "$r"; done)
if [ -z "$missing$orphans" ]; then pass "every region has its stub in tools/exercises/, every stub its region"
else fail "regions and stubs" "no stub: $missing; no region: $orphans"; fi
# every step that grades an exercise names a region that exists, and every
# region is graded by at least one step
graded=$(awk -F'|' '!/^[ \t]*(#|$)/ { e = $7; gsub(/[ \t]/, "", e); if (e != "-") print e }' tools/grading/steps | sort -u)
regions=$(awk '{ print $1 }' "$TMP/regions" | sort -u)
if [ "$graded" = "$regions" ]; then pass "tools/grading/steps grades exactly the regions there are"
else fail "steps' exercise column against the regions" "graded: $(echo $graded); regions: $(echo $regions)"; fi

# A marker out of place stops the tool: exit 2, one line naming the line.
marker_refused() { # NAME TEXT
	printf '%b' "$2" >"$TMP/m.c"
	awk -v DO=list -f $EX "$TMP/m.c" >"$TMP/out" 2>"$TMP/err"; local rc=$?
	if [ $rc = 2 ] && [ "$(wc -l <"$TMP/err")" = 1 ] && grep -q "m.c:[0-9]" "$TMP/err" && [ ! -s "$TMP/out" ]; then
		pass "exercise.awk refuses $1 (exit 2, the line named)"
	else fail "exercise.awk refuses $1" "exit $rc: $(cat "$TMP/err" "$TMP/out")"; fi
}
B='/* BEGIN EXERCISE lab9.x */\n' E='/* END EXERCISE lab9.x */\n'
marker_refused "an END without its BEGIN" "int a;\n$E"
marker_refused "a BEGIN inside a region" "$B/* BEGIN EXERCISE lab9.y */\n$E"
marker_refused "a region never closed" "$B int a;\n"
marker_refused "a region twice" "$B$E$B$E"
marker_refused "a misspelt marker" "/* BEGIN EXERCISE lab9.x*/\n$E"
printf 'a\n/* BEGIN EXERCISE lab9.x */\nkit\n/* END EXERCISE lab9.x */\nb\n' >"$TMP/k.c"
printf '/* BEGIN EXERCISE lab9.x */\nmine\n/* END EXERCISE lab9.x */\nignored\n' >"$TMP/s.c"
got=$(awk -v DO=splice -v FROM="$TMP/s.c" -f $EX "$TMP/k.c" | tr '\n' '|')
if [ "$got" = "a|/* BEGIN EXERCISE lab9.x */|mine|/* END EXERCISE lab9.x */|b|" ]; then
	pass "exercise.awk splice: the region from the student's file, the rest the kit's"
else fail "exercise.awk splice" "$got"; fi

# The step table: a check-only row must grade an exercise.
sed 's/^\(lab1\.fix-frame .*| \)lab1\.new_frame \(| .*\)$/\1- \2/' tools/grading/steps >"$TMP/steps"
awk -v KIND=exercise -f tools/grading/steps.awk "$TMP/steps" >/dev/null 2>"$TMP/err"; rc=$?
if [ $rc = 2 ] && grep -q 'lab1.fix-frame' "$TMP/err"; then pass "steps: a check row that grades no exercise stops the reader"
else fail "steps: a check row without an exercise" "exit $rc: $(cat "$TMP/err")"; fi

# ------------------------------------------------------- make check, kit
# (In a handout the regions hold their stubs: under half, every exercise
# FAIL, as the skeleton's checks below want of a kit's own handout.)
# stubs_scored NAME OUT RC: make check's output OUT scored the stubs.
stubs_scored() {
	local ss short
	ss=$(sed -n 's/^Score: //p' "$2")
	if [ "$3" != 0 ] && [ -n "$ss" ] && [ $((2 * ${ss%/*})) -lt "${ss#*/}" ]; then
		pass "make check on $1: $ss (under half), make exits $3"
	else fail "make check on $1" "exit $3, score '$ss'"; fi
	short=$(awk '$3 == "OK" && /^lab[0-9]+\./ { print $1 }' "$2")
	if [ -z "$short" ] && [ "$(grep -c '^lab[0-9]*\.[a-z0-9_]* .* FAIL ' "$2")" = "$(wc -l <"$TMP/regions")" ]; then
		pass "make check on $1: every exercise FAIL"
	else fail "every exercise of $1 fails" "full marks for: $short"; fi
}
make -s check "${KNOBS[@]}" >"$TMP/kit.out" 2>"$TMP/kit.err"; rc=$?
score=$(sed -n 's/^Score: //p' "$TMP/kit.out")
if [ "$HANDOUT" = 1 ]; then
	stubs_scored "this handout's stubs" "$TMP/kit.out" $rc
elif [ $rc = 0 ] && [ -n "$score" ] && [ "${score%/*}" = "${score#*/}" ] && ! grep -q '^  FAIL' "$TMP/kit.out"; then
	pass "make check in the kit: the solutions score $score, exit 0"
else fail "make check in the kit" "exit $rc, score '$score': $(grep -m 3 FAIL "$TMP/kit.out") $(head -c 300 "$TMP/kit.err")"; fi
c_max=$(awk -v KIND=maximum -f tools/grading/steps.awk tools/grading/steps | sed -n 's/^check //p')
if [ -n "$c_max" ] && [ "${score#*/}" = "$c_max" ]; then
	pass "make check is out of the exercise rows' points in tools/grading/steps ($c_max)"
else fail "make check's maximum" "make check: '$score'; the table: '$c_max'"; fi
if ! grep -q 'syntax error\|^/bin/bash' "$TMP/kit.err"; then pass "make check without a knob: no shell error on stderr"
else fail "make check without a knob" "$(head -n 2 "$TMP/kit.err")"; fi
w=$(expand "$TMP/kit.out" | awk '{ if (length($0) > m) m = length($0) } END { print m + 0 }')
cmp_num "make check's lines fit 80 columns" "$w" -le 80
n=$(grep -c '^  OK ' "$TMP/kit.out")
cmp_num "make check: a line a check ($n)" "$n" -ge 20

# Where strace cannot trace (ptrace denied, as in some containers), its
# checks are SKIP and keep their points: the kit still scores full.
mkdir -p "$TMP/nostrace" && printf '#!/bin/sh\nexit 1\n' >"$TMP/nostrace/strace" && chmod +x "$TMP/nostrace/strace"
PATH=$TMP/nostrace:$PATH make -s check "${KNOBS[@]}" >"$TMP/ns.out" 2>&1; rc=$?
ns=$(sed -n 's/^Score: //p' "$TMP/ns.out")
# (the stubs: what failed with strace fails without it, bar its checks)
if { [ "$HANDOUT" = 0 ] && [ $rc = 0 ] && [ "$ns" = "$score" ] ||
     [ "$HANDOUT" = 1 ] && [ -n "$ns" ] && [ "${ns%/*}" -ge "${score%/*}" ] && [ "${ns#*/}" = "${score#*/}" ]; } && grep -q '^  SKIP  lab1.tune-malloc  brk/2frames' "$TMP/ns.out" &&
   grep -q '^  SKIP  lab5.4K.page  *strace_writes' "$TMP/ns.out"; then
	pass "make check where strace cannot trace: its checks SKIP, keeping their points ($ns)"
else fail "make check without strace" "exit $rc, score '$ns' (with strace '$score'): $(grep -m 3 'FAIL\|brk/2' "$TMP/ns.out")"; fi

# The records make check writes are not a submission: the grader says so.
env "${KNOBS[@]}" MALLOC_LABS_STEPS=exercise STUDENT=t OUT="$TMP/check.txt" tools/submit.sh >/dev/null 2>&1
check_exit "tools/grade.sh refuses make check's records as a submission (exit 2)" 2 tools/grade.sh "$TMP/check.txt"
if grep -q 'a make check record' "$TMP/err"; then pass "... and says what the file is"
else fail "grade.sh names make check's record" "$(cat "$TMP/err")"; fi
check_refused "MALLOC_LABS_STEPS=all tools/submit.sh"

# ------------------------------------------- counts seen from outside (wait4)
# tools/grading/wait4run: the command's status passed on, its faults as
# wait4() gave them, written to the report only.
W=tools/grading/wait4run
make -s $W >/dev/null 2>&1 || fail "tools/grading/wait4run builds" "make failed"
check_usage_error "wait4run: no --report" $W true
check_usage_error "wait4run: no COMMAND" $W --report "$TMP/w4"
check_exit "wait4run: the command's exit status is its own (3)" 3 $W --report "$TMP/w4" sh -c 'exit 3'
if grep -qx 'wait4: minflt=[0-9]* majflt=[0-9]* exit=3' "$TMP/w4"; then pass "wait4run: the report says exit=3"
else fail "wait4run's report of an exit" "$(cat "$TMP/w4")"; fi
check_exit "wait4run: a command killed by SIGSEGV: 139, as a shell says" 139 $W --report "$TMP/w4" sh -c 'kill -SEGV $$'
if grep -qx 'wait4: minflt=[0-9]* majflt=[0-9]* signal=11' "$TMP/w4"; then pass "wait4run: the report says signal=11"
else fail "wait4run's report of a signal" "$(cat "$TMP/w4")"; fi
check_exit "wait4run: a command that is not there: 127" 127 $W --report "$TMP/w4" "$TMP/none"
# One frame of 64 MiB written: the program's own count of its loop is at
# most the kernel's count of its whole process, and the rest (start-up,
# set-up, exit) within the grader's allowance.
gap=$(sed -n 's/^function wait4_gap() { return \([0-9]*\) }$/\1/p' tools/grading/grade.awk)
$W --report "$TMP/w4" ./frames --csv --no-thp --frames 1 --size 64M --alloc memset >"$TMP/w4.csv" 2>"$TMP/err"
self=$(tools/lib/csvget minor_faults "$TMP/w4.csv") kern=$(sed -n 's/^wait4: minflt=\([0-9]*\) .*/\1/p' "$TMP/w4")
if [ -n "$self" ] && [ -n "$kern" ] && [ -n "$gap" ] && [ "$self" -ge $((64 * 1048576 / $(getconf PAGESIZE))) ] &&
   [ "$self" -le "$kern" ] && [ $((kern - self)) -le "$gap" ]; then
	pass "wait4run: frames counts $self faults in its loop, wait4 $kern in all (start-up and exit $((kern - self)), allowed $gap)"
else fail "wait4run's count against the program's" "self '$self', wait4 '$kern', allowance '$gap': $(cat "$TMP/err")"; fi

# The grader holds each run's printed faults to wait4's: make check's own
# record ($TMP/check.txt above) graded as written, then doctored three ways.
# doctor NAME AWK: the record with AWK applied to lab1.tune-malloc's
# record, graded; its output in $TMP/NAME.out.
doctor() {
	awk -v prog="$2" 'BEGIN { split(prog, p, "=") }
		/^@run / { id = $2 } id == "lab1.tune-malloc" && /^wait4: / { if (p[1] == "drop") next; $0 = "wait4: minflt=" p[2] " majflt=0 exit=0" } 1' \
		"$TMP/check.txt" >"$TMP/$1.txt"
	tools/grading/check.sh --grade "$TMP/$1.txt" >"$TMP/$1.out" 2>&1
}
check_usage_error "check.sh --grade: no FILE" tools/grading/check.sh --grade
awk '/^@run / { id = $2 } id == "lab1.tune-malloc" && /^csv: / { print substr($0, 6) }' "$TMP/check.txt" >"$TMP/tm.csv"
self=$(tools/lib/csvget minor_faults "$TMP/tm.csv" 2>/dev/null)
kern=$(awk '/^@run / { id = $2 } id == "lab1.tune-malloc" && /^wait4: / { sub(/.*minflt=/, ""); print $1 }' "$TMP/check.txt")
tools/grading/check.sh --grade "$TMP/check.txt" >"$TMP/asis.out" 2>&1
if [ -n "$self" ] && [ -n "$kern" ] && ! grep -q 'wait4' "$TMP/asis.out" && grep -q '^Score: ' "$TMP/asis.out"; then
	pass "make check's record: every run's own counts agree with wait4's (tune-malloc: $self of $kern)"
else fail "make check's record against wait4" "self '$self', wait4 '$kern': $(grep -m 3 wait4 "$TMP/asis.out")"; fi
# flagged NAME WHY: lab1.tune-malloc's run counts nothing, with WHY.
flagged() {
	if grep -q '^  FAIL  lab1.tune-malloc  minor_faults  *missing ' "$TMP/$1.out" &&
	   grep -q "($2" "$TMP/$1.out" && grep -q '^lab1.tune-malloc: 0/' "$TMP/$1.out"; then
		pass "check: $1: lab1.tune-malloc counts nothing ($2)"
	else fail "check: $1" "$(grep -m 4 -A1 'tune-malloc  minor\|^Score' "$TMP/$1.out")"; fi
}
doctor hidden-faults "set=$((self * 10))"
flagged hidden-faults "counts disagree with the kernel's (wait4)"
doctor over-gap "set=$((self + gap + 1))"
flagged over-gap "counts disagree with the kernel's (wait4)"
doctor at-gap "set=$((self + gap))"
if ! grep -q 'wait4' "$TMP/at-gap.out" && [ "$(sed -n 's/^Score: //p' "$TMP/at-gap.out")" = "$(sed -n 's/^Score: //p' "$TMP/asis.out")" ]; then
	pass "check: a gap of exactly the allowance ($gap) is accepted"
else fail "check: the allowance's edge" "$(grep -m 2 wait4 "$TMP/at-gap.out")"; fi
doctor more-than-kernel "set=$((self - 1))"
flagged more-than-kernel "counts disagree with the kernel's (wait4)"
doctor no-wait4 "drop"
flagged no-wait4 "no count from outside (wait4)"

# ------------------------------------------------- the skeleton as shipped
# The handout (make handout, as an instructor types it: every region its
# stub) builds warning-free and make check scores it under half, every
# exercise short; then each solution of the kit spliced into it alone.
# In a handout there is no solution to splice: the checks above were its.
needs_solution "every exercise" "make check on a handout, each solution alone, a crashing and a hanging region" ||
	exit 0
S=$TMP/stub
if make -s handout OUT="$S" >"$TMP/b.out" 2>&1 &&
   (cd "$S" && make -s CFLAGS="-std=gnu11 -Wall -Wextra -Werror -O2 -g") >>"$TMP/b.out" 2>&1; then
	pass "the handout's stubs build warning-free (-Wall -Wextra -Werror)"
else fail "the handout's stubs build" "$(head -c 400 "$TMP/b.out")"; fi
(cd "$S" && make -s check "${KNOBS[@]}") >"$TMP/stub.out" 2>"$TMP/stub.err"; rc=$?
stubs_scored "the handout's stubs" "$TMP/stub.out" $rc
if [ "$(sed -n 's/^Score: [0-9]*\///p' "$TMP/stub.out")" = "${score#*/}" ]; then
	pass "the stubs and the solutions are scored out of the same maximum"
else fail "one maximum" "$ss against $score"; fi

full_only "make check on each solution alone, a crashing and a hanging region"

# One solution spliced into the skeleton: that exercise full, no other.
while read -r r f _; do
	cp "$S/$f" "$TMP/one.c"
	awk -v DO=splice -v FROM="$f" -v ONLY="$r" -f $EX "$TMP/one.c" >"$S/$f"
	(cd "$S" && make -s >/dev/null 2>&1 && make -s check "${KNOBS[@]}") >"$TMP/one.out" 2>/dev/null
	cp "$TMP/one.c" "$S/$f"
	ok=$(awk '/^lab[0-9]+\./ && $3 == "OK" { print $1 }' "$TMP/one.out" | tr '\n' ' ')
	if [ "$ok" = "$r " ]; then pass "the stubs with $r solved: $r alone scores ($(awk -v r="$r" '$1 == r && $3 == "OK" { print $4 }' "$TMP/one.out"))"
	else fail "the stubs with $r solved" "full marks for: '$ok'"; fi
done <"$TMP/regions"

# A region that crashes: the run is recorded as it ended, nothing it
# printed counts, and the other exercises are graded as before.
awk '/^\/\* BEGIN EXERCISE lab1\.tune_allocator \*\/$/ { print; print "static void tune_allocator(int verbose) { (void)verbose; abort(); }"; skip = 1; next }
     /^\/\* END EXERCISE/ { skip = 0 } !skip' frames.c >"$S/frames.c"
(cd "$S" && make -s >/dev/null 2>&1 && make -s check "${KNOBS[@]}") >"$TMP/crash.out" 2>/dev/null; rc=$?
if [ $rc != 0 ] && grep -q 'lab1.tune-malloc  *brk/2frames  *missing' "$TMP/crash.out" &&
   grep -q '(the run exited 134' "$TMP/crash.out" && grep -q '^lab1.tune_allocator .* FAIL  *0/' "$TMP/crash.out" &&
   grep -q '^lab1.new_frame .* OK ' "$TMP/crash.out"; then
	pass "a tune_allocator() that aborts: no count of its runs is read, and new_frame() is graded as before"
else fail "a crashing region" "exit $rc: $(grep -m 4 'tune-malloc\|exited' "$TMP/crash.out")"; fi
# A region that never returns: stopped at CHECK_TIMEOUT seconds of CPU
# (ulimit -t: SIGXCPU, 152), or on a machine too busy to give it that CPU,
# at five times that of wall time (124); said so either way.
awk '/^\/\* BEGIN EXERCISE lab6\.give_memory_back \*\/$/ { print; print "static int give_memory_back(void) { volatile int spin = 1; while (spin) continue; return 0; }"; skip = 1; next }
     /^\/\* END EXERCISE/ { skip = 0 } !skip' arenas.c >"$S/arenas.c"
(cd "$S" && make -s >/dev/null 2>&1 && CHECK_TIMEOUT=3 make -s check "${KNOBS[@]}") >"$TMP/hang.out" 2>/dev/null
if grep -Eq 'exited (152|137) \(stopped: over CHECK_TIMEOUT=3 s of CPU|exited 124 \(over 15 s of wall time' "$TMP/hang.out" &&
   grep -q '^Score: ' "$TMP/hang.out"; then
	pass "a give_memory_back() that never returns: stopped at CHECK_TIMEOUT, scored, and make check ends"
else fail "a hanging region" "$(grep -m 3 'exited\|Score' "$TMP/hang.out")"; fi
# A count the program misprints: its harness patched to print the faults
# of one frame in every N, which is what a region scribbling over the
# harness's counters would aim for (the untuned stub then prints the
# tuned count).  wait4 saw every frame's faults: the run counts nothing.
awk -v DO=stub -v STUBS=tools/exercises -f $EX arenas.c >"$S/arenas.c"
awk -v DO=stub -v STUBS=tools/exercises -f $EX frames.c |
	sed 's/^\tr\.use = bench_usage_delta(u0, bench_usage_now());$/&\n\tr.use.minflt \/= o->frames;/' >"$S/frames.c"
(cd "$S" && make -s >/dev/null 2>&1 && CHECK_TIMEOUT=60 make -s check "${KNOBS[@]}") >"$TMP/misprint.out" 2>/dev/null
if grep -q 'r.use.minflt /= o->frames;' "$S/frames.c" &&
   grep -q '^  FAIL  lab1.tune-malloc  minor_faults  *missing ' "$TMP/misprint.out" &&
   grep -q "(counts disagree with the kernel's (wait4): " "$TMP/misprint.out"; then
	pass "a harness that prints 1/N of its faults (the tuned count, untuned): the kernel's count (wait4) refuses the run"
else fail "a misprinted count against wait4" "$(grep -m 4 -A1 'tune-malloc  minor' "$TMP/misprint.out")"; fi

# Natural C for the task, in both doors: make check in a handout holding
# the regions, and the course's re-run of them (tools/grading/recheck.sh)
# as an upload.  libc's declarations and macros are every region's
# (tools/exercises/libc.uses): perror() then exit() when mallopt()
# refuses, sysconf(_SC_PAGESIZE), getpagesize() all score full marks, the
# same in each.  Then a region that does not compile: graded as its stub,
# the reason shown, every other exercise scored, a Score line.
# natural DIR REGION TEXT...: DIR holds the kit's programs, each REGION's
# body replaced by its TEXT (printf's %b).
natural() {
	local d=$1 r t f
	shift
	mkdir -p "$d" && cp $progs "$d/"
	while [ $# -ge 2 ]; do
		r=$1 t=$2 f=$(awk -v r="$1" '$1 == r { print $2 }' "$TMP/regions")
		shift 2
		awk -v r="$r" -v t="$(printf '%b' "$t")" '
			$0 == "/* BEGIN EXERCISE " r " */" { print; print t; skip = 1; next }
			/^\/\* END EXERCISE/ { skip = 0 } !skip' "$d/$f" >"$d/$f.new" && mv "$d/$f.new" "$d/$f"
	done
}
# in_handout DIR: the handout S with DIR's regions spliced in, built by
# make check itself; its output in $TMP/ho.out.
in_handout() {
	for f in $progs; do
		awk -v DO=splice -v FROM="$1/$f" -f $EX "$S/$f.stub" >"$S/$f" || return 1
	done
	(cd "$S" && make -s check "${KNOBS[@]}") >"$TMP/ho.out" 2>"$TMP/ho.err"
}
for f in $progs; do awk -v DO=stub -v STUBS=tools/exercises -f $EX "$f" >"$S/$f.stub"; done
natural "$TMP/nat-a" lab1.tune_allocator \
	'static void tune_allocator(int verbose)\n{\n\tif (mallopt(M_MMAP_MAX, 0) == 0 || mallopt(M_TRIM_THRESHOLD, -1) == 0) {\n\t\tperror("mallopt");\n\t\texit(1);\n\t}\n\tif (verbose)\n\t\tputs("tuned");\n}' \
	lab5.page_buffer \
	'static char *page_buffer(uint64_t size, uintptr_t page)\n{\n\tvoid *p;\n\n\t(void)page;\n\tif (posix_memalign(&p, (size_t)sysconf(_SC_PAGESIZE), size) != 0)\n\t\treturn NULL;\n\treturn p;\n}'
natural "$TMP/nat-b" lab5.page_buffer \
	'static char *page_buffer(uint64_t size, uintptr_t page)\n{\n\tsize_t pg = (size_t)getpagesize();\n\n\tif (page != pg) {\n\t\tfprintf(stderr, "page %zu, not %zu", (size_t)page, pg);\n\t\tabort();\n\t}\n\treturn aligned_alloc(pg, (size + pg - 1) / pg * pg);\n}' \
	lab6.give_memory_back \
	'static int give_memory_back(void)\n{\n\tint r = malloc_trim(0);\n\n\tif (r < 0) {\n\t\tfprintf(stderr, "malloc_trim: %s", strerror(errno));\n\t\texit(EXIT_FAILURE);\n\t}\n\treturn r;\n}'
for style in nat-a nat-b; do
	in_handout "$TMP/$style"; rc=$?
	tools/grading/recheck.sh "$TMP/$style" >"$TMP/$style.re" 2>&1
	h=$(sed -n 's/^Score: //p' "$TMP/ho.out") g=$(sed -n 's/^Score: //p' "$TMP/$style.re")
	if [ $rc = 0 ] && [ -n "$h" ] && [ "$h" = "$g" ] && [ "${h%/*}" = "${h#*/}" ] && ! grep -q REFUSED "$TMP/ho.out" "$TMP/$style.re"; then
		pass "natural C ($style): make check in a handout $h, the course's re-run $g"
	else fail "natural C ($style) in both doors" "make check exit $rc '$h', recheck '$g': $(grep -h -m 3 -A2 'REFUSED\|FAIL' "$TMP/ho.out" "$TMP/$style.re")"; fi
done
natural "$TMP/syntax" lab6.give_memory_back 'static int give_memory_back(void)\n{\n\treturn malloc_trim(0)\n}'
in_handout "$TMP/syntax"; rc=$?
# graded NAME OUT: NAME's N/M in the grade make check printed in OUT.
graded() { awk -v e="$1" '/^The grade/ { g = 1 } g && $1 == e { print $NF; exit }' "$2"; }
sx=$(sed -n 's/^Score: //p' "$TMP/ho.out") l6=$(graded lab6.give_memory_back "$TMP/ho.out")
s6=$(graded lab6.give_memory_back "$TMP/stub.out")
if [ $rc != 0 ] && [ -n "$sx" ] && [ -n "$l6" ] && [ "$l6" = "$s6" ] &&
   [ "${sx%/*}" = $((${sx#*/} - ${l6#*/} + ${l6%/*})) ] &&
   grep -A2 '^  lab6.give_memory_back .*REFUSED' "$TMP/ho.out" | grep -q "does not compile alone: expected ';'"; then
	pass "make check with a region that does not compile: graded as its stub ($l6) with the reason, the others full ($sx)"
else fail "make check with a syntax error in a region" "exit $rc, '$sx', lab6 '$l6': $(grep -m 3 -A2 'REFUSED' "$TMP/ho.out") $(head -c 300 "$TMP/ho.err")"; fi
for f in $progs; do mv "$S/$f.stub" "$S/$f"; done
