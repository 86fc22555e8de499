#!/usr/bin/env bash
# tests/recheck.sh - the grade of a student's code (tools/grading/recheck.sh,
# Gradescope's and the Classroom regrade's): every way a course's staff
# found to make a region do more than its exercise is a row below, with
# the reason the grader must give, and natural C it must take; then whole
# re-runs: the kit's own solutions score full, the handout's stubs under
# half, tuning added
# outside the regions (a constructor calling mallopt) exactly what the
# stubs score, a refused region (every way of refusing one) exactly what
# its stub scores, and a region that scribbles memory or prints a forged
# row never more than its stub.
. "$(dirname "$0")/lib.sh" || exit 1

KNOBS=(FRAMES=2 SCALE=100 VARIANCE_ITERS=2000 COUNT_LARGE=200 BYTES=1M)
R=tools/grading/recheck.sh
make -s tools/grading/regioncheck >/dev/null 2>&1 || fail "tools/grading/regioncheck builds" "make failed"

check_usage_error "recheck: no DIR" $R
check_usage_error "recheck: an unknown option" $R --fast "$TMP"
check_usage_error "recheck: a DIR that is not one" $R "$TMP/none"

# upload DIR FILE REGION TEXT: DIR holds the kit's FILE with REGION's body
# replaced by TEXT (printf's %b: \n is a new line).
# (the text through the environment: awk -v reads escapes, and gawk drops
# the row "continued"'s last backslash)
upload() {
	mkdir -p "$1" && T=$(printf '%b' "$4") awk -v r="$3" '
		$0 == "/* BEGIN EXERCISE " r " */" { print; print ENVIRON["T"]; skip = 1; next }
		/^\/\* END EXERCISE/ { skip = 0 } !skip' "$2" >"$1/$2"
}
# The rows: NAME | FILE | REGION | TEXT | what the grader must say.  Each
# text would, spliced into the kit's program, change what is measured or
# reach past its exercise; each is refused, and its exercise is graded as
# its stub (the whole runs below: every way of refusing, the stub's score).
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
kit-clash|arenas.c|lab6.give_memory_back|static int give_memory_back(void) { return malloc_trim(0); }\nstatic void read_status(void) { }|it defines read_status, a name the kit's program uses: name yours otherwise
kit-name|arenas.c|lab6.give_memory_back|static long env_vmstat(const char *s) { return s != 0; }\nstatic int give_memory_back(void) { return malloc_trim(0) + (int)env_vmstat(0); }|it defines env_vmstat, a name the kit's program uses: name yours otherwise
kit-type|arenas.c|lab6.give_memory_back|struct options { int mine; };\nstatic int give_memory_back(void) { return malloc_trim(0); }|the kit's program does not compile with it
system|arenas.c|lab6.give_memory_back|static int give_memory_back(void) { return system(\"true\") + malloc_trim(0); }|it uses system, which lab6.give_memory_back may not
fork|arenas.c|lab6.give_memory_back|static int give_memory_back(void) { return fork() + malloc_trim(0); }|it uses fork, which lab6.give_memory_back may not
mprotect|malloc_variance.c|lab2.pool|static int pool_init(struct pool *pl, size_t block, size_t count) { (void)pl; return mprotect(0, block * count, PROT_READ); }|it uses mprotect, which lab2.pool may not
syscall|yes.c|lab5.page_buffer|static char *page_buffer(uint64_t size, uintptr_t page) { (void)page; return (char *)syscall(9, 0, size, 3, 34, -1, 0); }|it uses syscall, which lab5.page_buffer may not
no-region|arenas.c|lab6.none|static int give_memory_back(void) { return 1; }|has no region lab6.give_memory_back"
# The quick tier: one row for each region, in one upload per file; make
# test-all: every row, each its own upload.
quick_rows="define close-early interposer kit-name"
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
cmp_num "recheck: attack rows checked" "$n" -ge "$([ "$TEST_TIER" = quick ] && echo 4 || echo 24)"

# An honest helper of its own and a function-local static are taken, and
# so is a helper named like a static of the kit's unit (kib, in
# tools/kit/arenas.c): another file's, never met by the region.
upload "$TMP/up-helper" arenas.c lab6.give_memory_back \
	'static int counted(void) { static int n; return ++n; }\nstatic double kib(unsigned long b) { return b / 1024.0; }\nstatic int give_memory_back(void) { (void)counted(); return malloc_trim(0) + (kib(0) > 0); }'
$R --verdicts "$TMP/up-helper" >"$TMP/helper.out" 2>&1
if grep -q '^  lab6.give_memory_back .* taken$' "$TMP/helper.out"; then
	pass "recheck takes a region with a static helper, a function-local static and a unit's static's name"
else fail "recheck takes an honest helper" "$(grep -A1 lab6 "$TMP/helper.out")"; fi

# Natural C for the task: perror() then exit() when mallopt() refuses,
# sysconf(_SC_PAGESIZE), getpagesize().  libc's names and macros are every
# region's (tools/exercises/libc.uses): taken (the rows above: what could
# reach past a region, system() or fork() say, stays refused).
upload "$TMP/up-natural" frames.c lab1.tune_allocator \
	'static void tune_allocator(int verbose)\n{\n\tif (mallopt(M_MMAP_MAX, 0) == 0 || mallopt(M_TRIM_THRESHOLD, -1) == 0) {\n\t\tperror("mallopt");\n\t\texit(1);\n\t}\n\tif (verbose)\n\t\tputs("tune: big blocks from the heap, the heap never trimmed");\n}'
upload "$TMP/up-natural" yes.c lab5.page_buffer \
	'static char *page_buffer(uint64_t size, uintptr_t page)\n{\n\tvoid *p;\n\n\tif (page != (uintptr_t)getpagesize())\n\t\tabort();\n\treturn posix_memalign(&p, (size_t)sysconf(_SC_PAGESIZE), size) ? NULL : p;\n}'
$R --verdicts "$TMP/up-natural" >"$TMP/natural.out" 2>&1; rc=$?
if [ $rc = 1 ] && grep -q '^  lab1.tune_allocator .* taken$' "$TMP/natural.out" && grep -q '^  lab5.page_buffer .* taken$' "$TMP/natural.out"; then
	pass "recheck takes natural C: perror() then exit(), sysconf(_SC_PAGESIZE), getpagesize()"
else fail "recheck takes natural C" "exit $rc: $(grep -A2 'tune_allocator\|page_buffer' "$TMP/natural.out")"; fi

# An upload made to trip a grader (hostile_upload, tests/lib.sh), each
# region refused where the upload holds it: the kit's own copy, taken
# instead, would show as "taken".
mkdir -p "$TMP/bad"
upload "$TMP/bad" frames.c lab1.tune_allocator '#define X 1\nstatic void tune_allocator(int verbose) { (void)verbose; }'
upload "$TMP/bad" malloc_variance.c lab2.pool '#define X 1'
hostile_upload "$TMP/hostile" "$TMP/bad" || fail "a hostile upload" "could not be made"
$R --verdicts "$TMP/hostile" >"$TMP/hostile.out" 2>&1; rc=$?
v=$(awk '/^  lab/ { printf "%s%s %s", (n++ ? ", " : ""), $1, $3 }' "$TMP/hostile.out")
# Every region refused, but those of frames.c the upload left as the kit's.
want=$(kit_regions | awk '{ printf "%s%s %s", (NR > 1 ? ", " : ""), $1,
	($2 == "frames.c" && $1 != "lab1.tune_allocator" ? "taken" : "REFUSED") }')
if [ $rc = 1 ] && [ "$v" = "$want" ] && [ "$(grep -c 'a preprocessor line' "$TMP/hostile.out")" = 2 ] &&
   [ "$(grep -c 'no [a-z_]*\.c in the upload' "$TMP/hostile.out")" = 3 ]; then
	pass "recheck reads the upload's own files only: newline, dash and quotes in names; links, device, FIFO, too deep, hidden"
else fail "recheck on a hostile upload" "exit $rc: $v"; fi

# make check keeps the verdicts (build/verdicts/): a region edited after
# a check is checked again, refused, then taken once it is mended; the
# other regions' verdicts are the kept ones.  The stubs' kit: a handout
# made here, or, in a handout (which makes none), a copy of it.
stubs_kit() {
	if [ "$HANDOUT" = 0 ]; then make -s handout OUT="$TMP/cache"; return; fi
	mkdir -p "$TMP/cache" && tar -cf - --exclude=./build --exclude=./.run . | tar -C "$TMP/cache" -xf -
}
if stubs_kit >"$TMP/cache.out" 2>&1; then
	verdicts() { (cd "$TMP/cache" && tools/grading/recheck.sh --verdicts . >"$TMP/cache.out" 2>&1); echo "$?$(grep -c REFUSED "$TMP/cache.out")"; }
	first=$(verdicts)
	cp "$TMP/cache/arenas.c" "$TMP/arenas.stub.c"
	(cd "$TMP/cache" && set_region arenas.c lab6.give_memory_back '#define X 1')
	edited=$(verdicts) why=$(grep -A1 '^  lab6.give_memory_back' "$TMP/cache.out" | tail -n 1)
	cp "$TMP/arenas.stub.c" "$TMP/cache/arenas.c"
	mended=$(verdicts)
	if [ "$first $edited $mended" = "00 11 00" ] && [[ $why == *"a preprocessor line"* ]] && [ -s "$TMP/cache/build/verdicts/all" ]; then
		pass "make check's kept verdicts: a region edited is checked again (refused, then taken mended)"
	else fail "make check's kept verdicts" "exit and REFUSED count: $first, $edited, $mended (want 00 11 00): $why"; fi
else fail "the stubs' kit for the verdicts' cache" "$(tail -n 2 "$TMP/cache.out")"; fi

# ------------------------------------------------------------ whole runs
full_only "recheck: whole runs (the kit's solutions, the stubs, tuning outside the regions)"
needs_solution "every exercise" "recheck: whole runs against the kit's own solutions" || exit 0
# score_line OUT: the Score line's N/M (lib.sh's score_of reads a results.json).
score_line() { sed -n 's/^Score: //p' "$1"; }
mkdir -p "$TMP/kit" && cp $(lab_programs | sed 's/$/.c/') "$TMP/kit/"
env "${KNOBS[@]}" $R --json "$TMP/kit.json" "$TMP/kit" >"$TMP/kit.out" 2>&1; rc=$?
full=$(score_line "$TMP/kit.out")
if [ $rc = 0 ] && [ -n "$full" ] && [ "${full%/*}" = "${full#*/}" ]; then
	pass "recheck of the kit's own programs: every region taken, full marks ($full)"
else fail "recheck of the kit's own programs" "exit $rc, score '$full': $(grep -m 3 'REFUSED\|FAIL' "$TMP/kit.out")"; fi
if [ -x tests/bin/jsoncheck ] && tests/bin/jsoncheck "$TMP/kit.json" >"$TMP/kit.shape" 2>&1 &&
   [ "$(grep -c '^    {"name": "lab[0-9]*\.[a-z0-9_]* (' "$TMP/kit.json")" = "$(kit_regions | wc -l)" ]; then
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
ss=$(score_line "$TMP/stub.out")
if [ $rc = 1 ] && [ -n "$ss" ] && [ $((2 * ${ss%/*})) -lt "${ss#*/}" ]; then pass "recheck of the handout's stubs: $ss (under half)"
else fail "recheck of the stubs" "exit $rc, score '$ss'"; fi
# The stubs in a hostile upload (hostile_upload): the stubs' score; when
# the names were read as lines, the kit's own frames.c scored full.
hostile_upload "$TMP/hostile-stub" "$TMP/stub" || fail "a hostile upload of the stubs" "could not be made"
env "${KNOBS[@]}" $R "$TMP/hostile-stub" >"$TMP/hostile-stub.out" 2>&1
hs=$(score_line "$TMP/hostile-stub.out")
[ -n "$hs" ] && [ "$hs" = "$ss" ] && pass "recheck: the stubs in a hostile upload score the stubs' $hs" ||
	fail "recheck: the stubs in a hostile upload" "$hs against the stubs' $ss"
cp -r "$TMP/stub" "$TMP/ctor"
printf '%s\n' '__attribute__((constructor)) static void cheat(void) { mallopt(M_MMAP_MAX, 0); mallopt(M_TRIM_THRESHOLD, -1); }' \
	>>"$TMP/ctor/frames.c"
env "${KNOBS[@]}" $R "$TMP/ctor" >"$TMP/ctor.out" 2>&1
cs=$(score_line "$TMP/ctor.out")
[ -n "$cs" ] && [ "$cs" = "$ss" ] && pass "recheck: a constructor tuning malloc outside the regions scores what the stubs score ($cs)" ||
	fail "recheck: tuning outside the regions" "$cs against the stubs' $ss"
# ex_score OUT NAME: NAME's N/M in the grade recheck printed in OUT.
ex_score() { awk -v e="$2" '/^The grade/ { g = 1 } g && $1 == e { print $NF; exit }' "$1"; }
# spoil DIR FILE REGION LINE: DIR holds the kit's FILE, its REGION the
# kit's own solution with LINE (printf's %b) put first.
spoil() {
	mkdir -p "$1" && awk -v r="$3" -v t="$(printf '%b' "$4")" '
		{ print } $0 == "/* BEGIN EXERCISE " r " */" { print t }' "$2" >"$1/$2"
}
# Every region refused at once, each its own way, each around the kit's
# own solution: every exercise scores exactly what its stub scored above,
# and its grade line says why.  (The ways: the reader, a macro of the
# kit's, a symbol for the whole program, not compiling alone, the kit's
# program not compiling with it.)
A=$TMP/refused
spoil "$A" frames.c lab1.tune_allocator '} static int x(void) { return 0; }'
awk -v r=lab1.new_frame '{ print } $0 == "/* BEGIN EXERCISE " r " */" { print "static int scaled(void) { return MAX_FRAMES; }" }' \
	"$A/frames.c" >"$A/frames.c.2" && mv "$A/frames.c.2" "$A/frames.c"
spoil "$A" malloc_variance.c lab2.pool 'int pool_calls;'
spoil "$A" threads.c lab3.thread_policy 'static int uses_harness(void) { return (int)page_bytes; }'
spoil "$A" yes.c lab5.page_buffer 'static void kits_own(void) { extern uintptr_t page_bytes; page_bytes = 1; }'
spoil "$A" arenas.c lab6.give_memory_back 'struct options { int mine; };'
env "${KNOBS[@]}" $R "$A" >"$TMP/refused.out" 2>&1; rc=$?
same=0 all=0 bad=
while read -r r _; do
	all=$((all + 1))
	a=$(ex_score "$TMP/refused.out" "$r") b=$(ex_score "$TMP/stub.out" "$r")
	if [ -n "$a" ] && [ "$a" = "$b" ] && grep -A1 "^  $r " "$TMP/refused.out" | grep -q 'refused, its stub graded: '; then
		same=$((same + 1))
	else bad="$bad $r=$a(stub $b)"; fi
done < <(kit_regions)
if [ $rc = 1 ] && [ "$same" = "$all" ] && [ "$(grep -c ' REFUSED$' "$TMP/refused.out")" = "$all" ] &&
   [ "$(score_line "$TMP/refused.out")" = "$ss" ]; then
	pass "recheck: every region refused, each its own way: each exercise scores its stub's ($ss in all)"
else fail "recheck: refused regions score their stubs" "exit $rc, $(score_line "$TMP/refused.out") against $ss:$bad"; fi
# A file left out: its region keeps its stub; every other the kit's.
mkdir -p "$TMP/one" && cp "$TMP/kit/"*.c "$TMP/one/" && rm "$TMP/one/arenas.c"
env "${KNOBS[@]}" $R "$TMP/one" >"$TMP/one.out" 2>&1; rc=$?
os=$(score_line "$TMP/one.out")
lab6=$(ex_score "$TMP/one.out" lab6.give_memory_back) s6=$(ex_score "$TMP/stub.out" lab6.give_memory_back)
if [ $rc = 1 ] && [ -n "$lab6" ] && [ "$lab6" = "$s6" ] && grep -q 'no arenas.c in the upload' "$TMP/one.out" &&
   [ "${os%/*}" = $((${full%/*} - ${lab6#*/} + ${lab6%/*})) ]; then
	pass "recheck: arenas.c left out: lab6 scores its stub's $lab6, every other exercise full ($os)"
else fail "recheck: a file left out" "exit $rc, $os, lab6 $lab6 (stub $s6)"; fi
# Regions that scribble memory: new_frame() as the stub (malloc, no fix)
# but zeroing past its block (over the heap's next chunk) or up its stack
# (through a pointer the compiler cannot see through, over the harness's
# locals: the corrupt-pixel count and the fault counter's start among
# them).  Taken, they run; what they break never scores above the stub.
for how in heap stack; do
	if [ $how = heap ]; then body='uint64_t *f = malloc(bytes);\n\tif (f)\n\t\tmemset((char *)f + bytes, 0, 64);\n\treturn f;'
	else body='volatile uint64_t here = 0;\n\tuint64_t *volatile up = (uint64_t *)&here;\n\tfor (int i = 1; i < 64; i++)\n\t\tup[i] = 0;\n\treturn malloc(bytes);'; fi
	mkdir -p "$TMP/scribble-$how" && cp "$TMP/kit/"*.c "$TMP/scribble-$how/"
	upload "$TMP/scribble-$how" frames.c lab1.new_frame "static uint64_t *new_frame(size_t bytes)\n{\n\t$body\n}"
	env "${KNOBS[@]}" $R "$TMP/scribble-$how" >"$TMP/scribble-$how.out" 2>&1
	a=$(ex_score "$TMP/scribble-$how.out" lab1.new_frame) b=$(ex_score "$TMP/stub.out" lab1.new_frame)
	if grep -q '^  lab1.new_frame .* taken$' "$TMP/scribble-$how.out" && [ -n "$a" ] && [ -n "$b" ] && [ "${a%/*}" -le "${b%/*}" ]; then
		pass "recheck: a new_frame() that scribbles past its $how block scores $a, the stub $b"
	else fail "recheck: a scribbling new_frame() ($how)" "$a against the stub's $b: $(grep -m 3 'fix-frame' "$TMP/scribble-$how.out")"; fi
done
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
t=$(ex_score "$TMP/forge.out" lab1.tune_allocator) st=$(ex_score "$TMP/stub.out" lab1.tune_allocator)
if [ -n "$t" ] && [ -n "$st" ] && [ "${t%/*}" -le "${st%/*}" ] && grep -q 'printed a second CSV row' "$TMP/forge.out"; then
	pass "recheck: a region that prints a forged row before the kit's scores $t (the stub $st): no count of its runs is read"
else fail "recheck: a forged row printed by the region" "tune_allocator $t, the stub $st: $(grep -m 3 'tune-malloc' "$TMP/forge.out")"; fi
