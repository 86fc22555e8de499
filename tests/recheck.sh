#!/usr/bin/env bash
# tests/recheck.sh - the grade of a student's code (tools/grading/recheck.sh,
# Gradescope's and the Classroom regrade's): every way a course's staff
# found to make a region do more than its exercise is a row below, with
# the reason the grader must give; then whole re-runs: the kit's own
# solutions score full, the handout's stubs under half, tuning added
# outside the regions (a constructor calling mallopt) exactly what the
# stubs score, and a refused region 0 for its exercise alone.
. "$(dirname "$0")/lib.sh" || exit 1

KNOBS=(FRAMES=2 SCALE=100 VARIANCE_ITERS=2000 COUNT_LARGE=200 BYTES=1M)
R=tools/grading/recheck.sh
make -s tools/grading/regioncheck >/dev/null 2>&1 || fail "tools/grading/regioncheck builds" "make failed"

check_usage_error "recheck: no DIR" $R
check_usage_error "recheck: an unknown option" $R --fast "$TMP"
check_usage_error "recheck: a DIR that is not one" $R "$TMP/none"

# upload DIR FILE REGION TEXT: DIR holds the kit's FILE with REGION's body
# replaced by TEXT (printf's %b: \n is a new line).
upload() {
	mkdir -p "$1" && awk -v r="$3" -v t="$(printf '%b' "$4")" '
		$0 == "/* BEGIN EXERCISE " r " */" { print; print t; skip = 1; next }
		/^\/\* END EXERCISE/ { skip = 0 } !skip' "$2" >"$1/$2"
}
# The rows: NAME | FILE | REGION | TEXT | what the grader must say.  Each
# text would, spliced into the kit's program, change what is measured or
# reach past its exercise; each is refused, its exercise alone scoring 0.
ROWS="define|arenas.c|lab6.give_memory_back|#define malloc_trim(x) 1\nstatic int give_memory_back(void) { return malloc_trim(0); }|line 1: a preprocessor line
digraph|arenas.c|lab6.give_memory_back|%:define X 1\nstatic int give_memory_back(void) { return 1; }|line 1: a preprocessor line
continued|arenas.c|lab6.give_memory_back|static int give_memory_back(void) { return 1; } \\\\|a line that continues
close-early|frames.c|lab1.tune_allocator|static void tune_allocator(int verbose) { (void)verbose; }\n} static int x(void) {\n return 0;|line 2: a closing bracket with nothing open
constructor|frames.c|lab1.tune_allocator|__attribute__((constructor)) static void c(void) { mallopt(M_MMAP_MAX, 0); }\nstatic void tune_allocator(int verbose) { (void)verbose; }|a name no region may use: __attribute__
asm|arenas.c|lab6.give_memory_back|static int give_memory_back(void) { __asm__ volatile(\"\"); return 1; }|a name no region may use: __asm__
builtin|yes.c|lab5.page_buffer|static char *page_buffer(uint64_t size, uintptr_t page) { (void)page; return __builtin_frame_address(0) ? malloc(size) : 0; }|a name no region may use: __builtin_frame_address
getrusage|arenas.c|lab6.give_memory_back|int getrusage(int, void *);\nstatic int give_memory_back(void) { getrusage(0, 0); return malloc_trim(0); }|it uses getrusage, which lab6.give_memory_back may not
harness-static|yes.c|lab5.page_buffer|static char *page_buffer(uint64_t size, uintptr_t page) { page_bytes = 1; return malloc(size + page); }|it does not compile alone: 'page_bytes' undeclared
extern-static|yes.c|lab5.page_buffer|static char *page_buffer(uint64_t size, uintptr_t page) { extern uintptr_t page_bytes; page_bytes = 1; return malloc(size + page); }|it uses page_bytes, which lab5.page_buffer may not
interposer|arenas.c|lab6.give_memory_back|void *malloc(unsigned long n) { (void)n; return 0; }\nstatic int give_memory_back(void) { return 1; }|it defines malloc for the whole program
file-variable|arenas.c|lab6.give_memory_back|static int calls;\nstatic int give_memory_back(void) { return ++calls; }|it defines calls outside its functions
kit-macro|frames.c|lab1.tune_allocator|static void tune_allocator(int verbose) { int MAX_FRAMES = verbose; (void)MAX_FRAMES; }|it names MAX_FRAMES, a macro of the kit's program
open-comment|arenas.c|lab6.give_memory_back|static int give_memory_back(void) { return malloc_trim(0); } /*|line 1: a comment never closed
open-string|arenas.c|lab6.give_memory_back|static int give_memory_back(void) { return \"x; }|line 1: a string never closed
dollar|arenas.c|lab6.give_memory_back|static int give_memory_back(void) { int a\$b = 0; return a\$b; }|a character C does not use outside strings
kit-clash|arenas.c|lab6.give_memory_back|static int give_memory_back(void) { return malloc_trim(0); }\nstatic void usage(void) { }|the kit's program does not compile with it
no-region|arenas.c|lab6.none|static int give_memory_back(void) { return 1; }|has no region lab6.give_memory_back"
# The quick tier: one row for each region, in one upload per file; make
# test-all: every row, each its own upload.
quick_rows="define close-early interposer"
n=0
while IFS='|' read -r name file region text want; do
	[ "$TEST_TIER" != quick ] || [[ " $quick_rows " == *" $name "* ]] || continue
	n=$((n + 1))
	d=$TMP/up-$name
	if [ "$region" = lab6.none ]; then
		mkdir -p "$d" && grep -v 'EXERCISE lab6\.give_memory_back' arenas.c >"$d/arenas.c"
	else
		upload "$d" "$file" "$region" "$text"
	fi
	$R --verdicts "$d" >"$TMP/$name.out" 2>&1; rc=$?
	got=$(awk -v r="${region/none/give_memory_back}" '$1 == r { getline w; sub(/^ +/, "", w); print $3 "|" w; exit }' "$TMP/$name.out")
	if [ $rc = 1 ] && [[ ${got%%|*} == REFUSED ]] && [[ $(tr -s ' \n' '  ' <"$TMP/$name.out") == *"$want"* ]]; then
		pass "recheck refuses $name: ${got#*|}"
	else fail "recheck refuses $name" "exit $rc, want '$want': $(grep -A2 "${region/none/give}" "$TMP/$name.out" | head -n 3)"; fi
done <<<"$ROWS"
cmp_num "recheck: attack rows checked" "$n" -ge "$([ "$TEST_TIER" = quick ] && echo 3 || echo 18)"

# An honest helper of its own and a function-local static are taken.
upload "$TMP/up-helper" arenas.c lab6.give_memory_back \
	'static int counted(void) { static int n; return ++n; }\nstatic int give_memory_back(void) { (void)counted(); return malloc_trim(0); }'
if $R --verdicts "$TMP/up-helper" >"$TMP/helper.out" 2>&1 || grep -q '^  lab6.give_memory_back .* taken$' "$TMP/helper.out"; then
	pass "recheck takes a region with a static helper and a function-local static"
else fail "recheck takes an honest helper" "$(grep -A1 lab6 "$TMP/helper.out")"; fi

# ------------------------------------------------------------ whole runs
full_only "recheck: whole runs (the kit's solutions, the stubs, tuning outside the regions)"
needs_solution "every exercise" "recheck: whole runs against the kit's own solutions" || exit 0
# score_of OUT: the Score line's N/M.
score_of() { sed -n 's/^Score: //p' "$1"; }
mkdir -p "$TMP/kit" && cp $(lab_programs | sed 's/$/.c/') "$TMP/kit/"
env "${KNOBS[@]}" $R --json "$TMP/kit.json" "$TMP/kit" >"$TMP/kit.out" 2>&1; rc=$?
full=$(score_of "$TMP/kit.out")
if [ $rc = 0 ] && [ -n "$full" ] && [ "${full%/*}" = "${full#*/}" ]; then
	pass "recheck of the kit's own programs: every region taken, full marks ($full)"
else fail "recheck of the kit's own programs" "exit $rc, score '$full': $(grep -m 3 'REFUSED\|FAIL' "$TMP/kit.out")"; fi
if [ -x tests/bin/jsoncheck ] && tests/bin/jsoncheck "$TMP/kit.json" >"$TMP/kit.shape" 2>&1 &&
   [ "$(grep -c '^    {"name": "lab[0-9]*\.[a-z0-9_]* (' "$TMP/kit.json")" = "$(awk -v DO=list -f tools/lib/exercise.awk $(lab_programs | sed 's/$/.c/') | wc -l)" ]; then
	pass "recheck --json: valid JSON, a test an exercise"
else fail "recheck --json" "$(head -c 300 "$TMP/kit.shape" "$TMP/kit.json" 2>&1)"; fi
w=$(awk '{ if (length($0) > m) m = length($0) } END { print m + 0 }' "$TMP/kit.out")
cmp_num "recheck's lines fit 80 columns" "$w" -le 80

# The handout's programs (every region its stub) score under half; the
# same with a constructor outside the regions that tunes malloc exactly
# the same: what is outside the regions is never taken.
make -s handout OUT="$TMP/ho" >/dev/null 2>&1 || fail "make handout" "failed"
mkdir -p "$TMP/stub" && for f in $(lab_programs | sed 's/$/.c/'); do cp "$TMP/ho/$f" "$TMP/stub/"; done
env "${KNOBS[@]}" $R "$TMP/stub" >"$TMP/stub.out" 2>&1; rc=$?
ss=$(score_of "$TMP/stub.out")
if [ $rc = 1 ] && [ -n "$ss" ] && [ $((2 * ${ss%/*})) -lt "${ss#*/}" ]; then pass "recheck of the handout's stubs: $ss (under half)"
else fail "recheck of the stubs" "exit $rc, score '$ss'"; fi
cp -r "$TMP/stub" "$TMP/ctor"
printf '%s\n' '__attribute__((constructor)) static void cheat(void) { mallopt(M_MMAP_MAX, 0); mallopt(M_TRIM_THRESHOLD, -1); }' \
	>>"$TMP/ctor/frames.c"
env "${KNOBS[@]}" $R "$TMP/ctor" >"$TMP/ctor.out" 2>&1
cs=$(score_of "$TMP/ctor.out")
[ -n "$cs" ] && [ "$cs" = "$ss" ] && pass "recheck: a constructor tuning malloc outside the regions scores what the stubs score ($cs)" ||
	fail "recheck: tuning outside the regions" "$cs against the stubs' $ss"
# One region refused: its exercise 0, every other as the kit's.
cp -r "$TMP/kit" "$TMP/one"
upload "$TMP/one" arenas.c lab6.give_memory_back '#define X 1\nstatic int give_memory_back(void) { return malloc_trim(0); }'
env "${KNOBS[@]}" $R "$TMP/one" >"$TMP/one.out" 2>&1; rc=$?
os=$(score_of "$TMP/one.out")
lab6=$(awk '/^The grade/ { g = 1 } g && $1 == "lab6.give_memory_back" { print $NF }' "$TMP/one.out")
if [ $rc = 1 ] && [ "$lab6" = 0/2 ] && [ "${os%/*}" = $((${full%/*} - 2)) ]; then
	pass "recheck: one region refused scores 0 for its exercise alone ($os)"
else fail "recheck: one refused region" "exit $rc, $os, lab6 $lab6"; fi
# A region that prints: tune_allocator() writes a perfect header and row,
# copied from an honest run, before the kit's own.  A run whose output
# holds a second row counts for nothing.
cp -r "$TMP/kit" "$TMP/forge"
./frames --csv --no-thp --frames 2 --tune --alloc malloc | head -n 2 | awk '
	BEGIN { print "/* BEGIN EXERCISE lab1.tune_allocator */"
		printf "static void tune_allocator(int verbose) { (void)verbose; printf(\"" }
	{ gsub(/"/, "\\\""); printf "%s\\n", $0 }
	END { print "\"); }"; print "/* END EXERCISE lab1.tune_allocator */" }' >"$TMP/forged.c"
awk -v DO=splice -v FROM="$TMP/forged.c" -v ONLY=lab1.tune_allocator -f tools/lib/exercise.awk frames.c >"$TMP/forge/frames.c"
env "${KNOBS[@]}" $R "$TMP/forge" >"$TMP/forge.out" 2>&1
t=$(awk '/^The grade/ { g = 1 } g && $1 == "lab1.tune_allocator" { print $NF }' "$TMP/forge.out")
if [ "$t" = 0/24 ] && grep -q 'printed a second CSV row' "$TMP/forge.out"; then
	pass "recheck: a region that prints a forged row before the kit's scores 0 ($t): no count of its runs is read"
else fail "recheck: a forged row printed by the region" "tune_allocator $t: $(grep -m 3 'tune-malloc' "$TMP/forge.out")"; fi
