#!/usr/bin/env bash
# tests/doors.sh - one set of solutions graded through the kit's three
# doors (issue 44 item 6): make check in a handout holding the regions,
# run as the student would (another uid, the handout its own); Gradescope's
# code mode, emulated as tests/gradescope.sh does (tests/lib.sh); the
# Classroom regrade of clones of a handout, as tests/classroom.sh makes
# them.  Three submissions, a region an exercise each:
#   natural  correct, as students write it: perror() then exit() when
#            mallopt() refuses, sysconf(_SC_PAGESIZE), exit() when
#            malloc_trim() fails; the kit's own for the other three;
#   mixed    partial (page_buffer: aligned_alloc() below 128 KiB, malloc()
#            above, as if a mapped block began on a page), wrong
#            (thread_policy: the thresholds the lab argues against), not
#            compiling (give_memory_back: graded as its stub), and three
#            stubs as shipped: the stubs' points, exercise by exercise;
#   hostile  hangs, floods its output, fills memory, and machine code that
#            runs sh -c to write the grader's files and the other clones
#            and read the solutions (tests/lib.sh: hostile_regions);
#            getpagesize() and the kit's own for the other two.
# Each exercise of each submission scores the same in every door; each
# hostile region at most its stub; the grader's files (the kit's and each
# Gradescope root's) and the other clones hash the same after.
. "$(dirname "$0")/lib.sh" || exit 1
full_only "one set of solutions through make check, Gradescope and the regrade"
needs_solution "every exercise" "the three doors (the kit's regions are the correct ones)" || exit 0

# The small knobs of tests/check.sh; CHECK_TIMEOUT 10: the hanging region
# costs 10 s of CPU a door, and an honest run on a loaded machine has 50 s
# of wall time (at 5, under a load of 13, lab3.tuned once lost its count).
KNOBS=(FRAMES=2 SCALE=100 VARIANCE_ITERS=2000 COUNT_LARGE=200 BYTES=1M CHECK_TIMEOUT=10)
progs=$(lab_programs | sed 's/$/.c/')
SUBS="hostile natural mixed"     # the hostile first: its attack comes before the others' grading
gradescope_ready; case $? in
1) skip "the three doors" "$GS_WHY"; exit 0 ;;
2) fail "make autograder, a PATH without git" "$GS_WHY"; exit 0 ;;
esac
make -s handout OUT="$TMP/ho" >"$TMP/ho.out" 2>&1 || { fail "make handout" "$(tail -n 3 "$TMP/ho.out")"; exit 0; }

# ------------------------------------------------------ the submissions
for s in $SUBS; do mkdir -p "$TMP/sub/$s" && cp $progs "$TMP/sub/$s/"; done
N=$TMP/sub/natural M=$TMP/sub/mixed H=$TMP/sub/hostile
set_region "$N/frames.c" lab1.tune_allocator "$(printf '%b' 'static void tune_allocator(int verbose)\n{\n\tif (mallopt(M_MMAP_MAX, 0) == 0 || mallopt(M_TRIM_THRESHOLD, -1) == 0) {\n\t\tperror("mallopt");\n\t\texit(1);\n\t}\n\tif (verbose)\n\t\tputs("tuned");\n}')"
set_region "$N/yes.c" lab5.page_buffer "$(printf '%b' 'static char *page_buffer(uint64_t size, uintptr_t page)\n{\n\tvoid *p;\n\n\t(void)page;\n\tif (posix_memalign(&p, (size_t)sysconf(_SC_PAGESIZE), size) != 0)\n\t\treturn NULL;\n\treturn p;\n}')"
set_region "$N/arenas.c" lab6.give_memory_back "$(printf '%b' 'static int give_memory_back(void)\n{\n\tint r = malloc_trim(0);\n\n\tif (r < 0) {\n\t\tfprintf(stderr, "malloc_trim: %s", strerror(errno));\n\t\texit(EXIT_FAILURE);\n\t}\n\treturn r;\n}')"
for r in lab1.new_frame lab1.tune_allocator lab2.pool; do
	f=$(kit_regions | awk -v r=$r '$1 == r { print $2 }')
	set_region "$M/$f" $r "$(cat tools/exercises/$r.c)"
done
set_region "$M/threads.c" lab3.thread_policy "$(printf '%b' 'static void thread_policy(uint64_t *mmap_threshold, uint64_t *trim_threshold)\n{\n\t*mmap_threshold = 128 * 1024;\n\t*trim_threshold = 128 * 1024;\n}')"
set_region "$M/yes.c" lab5.page_buffer "$(printf '%b' 'static char *page_buffer(uint64_t size, uintptr_t page)\n{\n\tif (size >= 128 * 1024)\n\t\treturn malloc(size);\t/* mapped on its own: on a page already */\n\treturn aligned_alloc(page, size);\n}')"
set_region "$M/arenas.c" lab6.give_memory_back "$(printf '%b' 'static int give_memory_back(void)\n{\n\treturn malloc_trim(0)\n}')"
set_region "$H/yes.c" lab5.page_buffer "$(printf '%b' 'static char *page_buffer(uint64_t size, uintptr_t page)\n{\n\tsize_t pg = (size_t)getpagesize();\n\n\tif (page != pg) {\n\t\tfprintf(stderr, "page %zu, not %zu", (size_t)page, pg);\n\t\tabort();\n\t}\n\treturn aligned_alloc(pg, (size + pg - 1) / pg * pg);\n}')"

# The grader's files: the kit's, and each Gradescope root's copy.  The
# machine code's command tries to write each of them and each file of the
# other clones, and to read a line of the solutions (the kit's, and
# Gradescope's copy); its stderr's last line, which make check shows,
# says how far it got: "sh: W/N writes refused, read: yes|no".
GRADER=(tools/grading/grade.awk tools/grading/gradescope.awk $progs)
for s in $SUBS; do GRADER+=("$TMP/gs-$s/source/tools/grading/grade.awk" "$TMP/gs-$s/source/tools/grading/gradescope.awk"); done
targets=$(for f in "${GRADER[@]}" $(for c in natural mixed; do printf "$TMP/cls/$c/%s\n" $progs; done); do
	case $f in /*) ;; *) f=$PWD/$f ;; esac; printf "'%s' " "$f"; done)
nt=$(wc -w <<<"$targets")
hostile_regions "$H" "n=0; for f in $targets; do echo pwned 2>/dev/null >>\$f || n=\$((n + 1)); done; r=no; cat '$PWD/malloc_variance.c' '$TMP/gs-hostile/source/malloc_variance.c' 2>/dev/null | grep -q 'Threading the list' && r=yes; echo sh: \$n/$nt writes refused, read: \$r >&2; exit 3" ||
	{ skip "the three doors" "$HOSTILE_WHY"; exit 0; }

# Each door's copies: a Gradescope root an upload, a clone a submission
# (a handout with its regions, committed where git is), and for make check
# a handout of the student's own, in a directory only that uid enters.
CLONES=()
for s in $SUBS; do
	new_root "gs-$s" && cp "$TMP/sub/$s"/*.c "$TMP/gs-$s/submission/" || { fail "a Gradescope root for $s" "unzip failed"; exit 0; }
	for d in "$TMP/cls/$s" "$TMP/student/$s"; do
		mkdir -p "$d" && cp -r "$TMP/ho/." "$d/" &&
			for f in $progs; do awk -v DO=splice -v FROM="$TMP/sub/$s/$f" -f tools/lib/exercise.awk "$TMP/ho/$f" >"$d/$f" || exit 1; done ||
			{ fail "a handout holding $s's regions" "the splice failed"; exit 0; }
	done
	if command -v git >/dev/null 2>&1; then
		(cd "$TMP/cls/$s" && git init -q && git add -A && git -c user.name=s -c user.email=s@example.org commit -qm work) ||
			fail "$s's repository" "git failed"
	fi
	CLONES+=("$s=$TMP/cls/$s")
done
hashes() { sha256sum "${GRADER[@]}" "$TMP"/cls/*/*.c 2>&1; }
before=$(hashes)

# --------------------------------------------------------------- the doors
# make check as the student: a uid of its own (free_uid: not the
# re-run's 64999, nor one tests/sandbox.sh counts), the handout and a TMPDIR its, the rest of $TMP closed to it; memory held
# to the sandbox's 2 GiB (make check limits a run's CPU and output, not
# its memory, and this machine is shared).  In the background, while
# Gradescope and the regrade run.
NB=$(free_uid) door1=
if [ "$(id -u)" != 0 ]; then door1="not root: the student's uid cannot be taken"
elif ! command -v setpriv >/dev/null 2>&1; then door1="setpriv (util-linux) is not installed"
else
	mkdir -p "$TMP/student/tmp" && chown -R $NB:$NB "$TMP/student" && chmod 700 "$TMP/student" && chmod 711 "$TMP"
	for s in $SUBS; do
		(cd "$TMP/student/$s" && setpriv --reuid=$NB --regid=$NB --clear-groups \
			env -i PATH="$PATH" HOME="$TMP/student" TMPDIR="$TMP/student/tmp" \
			bash -c 'ulimit -v 2097152 && exec make -s check "$@"' check "${KNOBS[@]}") >"$TMP/check.$s" 2>&1
	done &
fi
for s in $SUBS; do
	grade_upload "gs-$s" "${KNOBS[@]}" && json_ok "gs-$s" "Gradescope, $s"
done
env "${KNOBS[@]}" REGRADE_LOG="$TMP/rglog" tools/grading/classroom/regrade.sh "${CLONES[@]}" >"$TMP/rg.csv" 2>"$TMP/rg.err"
rg=$?
wait

# ------------------------------------------------------------ the scores
# Each door's points an exercise, "NAME N/M" a line in the regions' order:
# make check's and the regrade's from the grade recheck.sh prints, then
# Gradescope's from its tests in results.json.
graded() { awk '/^The grade/ { g = 1; next } g && /^  lab[0-9]+\./ { print $1, $NF }' "$1"; }
gs_graded() {
	sed -n 's/^    {"name": "\(lab[0-9]*\.[a-z0-9_]*\) ([^"]*)", "score": \([0-9]*\), "max_score": \([0-9]*\),.*/\1 \2\/\3/p' "$1"
}
total() { awk '{ split($2, p, "/"); s += p[1]; m += p[2] } END { if (NR) print s "/" m }'; }
pts() { awk -v r="$2" '$1 == r { print $2 }' <<<"$1"; }
i=0
for s in $SUBS; do
	i=$((i + 1))
	g1=$( [ -n "$door1" ] || graded "$TMP/check.$s")
	g2=$(gs_graded "$TMP/gs-$s/results/results.json" 2>/dev/null)
	g3=$(graded "$TMP/rglog/$i-$s.code" 2>/dev/null)
	eval "G1_$s=\$g1 G2_$s=\$g2 G3_$s=\$g3"
	t1=$(total <<<"$g1") t2=$(total <<<"$g2") t3=$(total <<<"$g3")
	# each door's own total is the sum of its exercises
	c1=$(sed -n 's/^Score: //p' "$TMP/check.$s" 2>/dev/null)
	c2=$(score_of "gs-$s")
	c3=$(awk -F, -v s="$s" '$1 == s { print $3 "/" $4 }' "$TMP/rg.csv")
	line="make check ${t1:-skipped}, gradescope $t2, regrade $t3"
	if [ -n "$g2" ] && [ "$g2" = "$g3" ] && [ "$(wc -l <<<"$g2")" = "$(kit_regions | wc -l)" ] &&
	   { [ -n "$door1" ] || [ "$g1" = "$g2" ]; } && [ "${c2:-x}/${t2#*/}" = "$t2" ] && [ "$c3" = "$t3" ] &&
	   { [ -n "$door1" ] || [ "$c1" = "$t1" ]; }; then
		pass "$s: $line; each exercise the same in each door"
	else
		fail "$s: the same points an exercise in each door" "$line (totals shown: $c1, $c2, $c3)
$(paste <(echo "$g1") <(echo "$g2") <(echo "$g3"))"
	fi
done
[ -z "$door1" ] || skip "make check as the student" "$door1"
[ $rg = 0 ] && [ "$(wc -l <"$TMP/rg.csv")" = 4 ] && pass "regrade: every clone graded, a row each (exit 0)" ||
	fail "regrade: every clone graded" "exit $rg: $(cat "$TMP/rg.csv") $(tail -n 2 "$TMP/rg.err")"

# The natural styles score full marks; mixed's region that does not
# compile is refused, the reason shown, in each door.
nat=$(total <<<"$G2_natural")
[ -n "$nat" ] && [ "${nat%/*}" = "${nat#*/}" ] && pass "natural C (perror, exit, sysconf, strerror): full marks, $nat" ||
	fail "natural C scores full marks" "$(grep -v ' \([0-9]*\)/\1$' <<<"$G2_natural")"
why="does not compile alone: expected ';'"
outs=("$TMP/gs-mixed/results/results.json" "$TMP/rglog/3-mixed.code")
[ -n "$door1" ] || outs+=("$TMP/check.mixed")
n=$(grep -l -F "$why" "${outs[@]}" | wc -l)
[ "$n" = ${#outs[@]} ] && pass "mixed: give_memory_back refused in each door ($n): '$why'" ||
	fail "mixed: give_memory_back refused with the reason" "in $n of ${#outs[@]} doors"

# mixed's partial page_buffer scores some of its points, not all; its
# wrong thread_policy not all.
p=$(pts "$G2_mixed" lab5.page_buffer) w=$(pts "$G2_mixed" lab3.thread_policy)
[ -n "$p" ] && [ "${p%/*}" -gt 0 ] && [ "${p%/*}" -lt "${p#*/}" ] && [ -n "$w" ] && [ "${w%/*}" -lt "${w#*/}" ] &&
	pass "mixed: the partial page_buffer scores $p, the wrong thread_policy $w" ||
	fail "mixed: partial and wrong regions" "page_buffer '$p', thread_policy '$w'"

# Each hostile region scores at most its stub (mixed's region there: the
# stub as shipped, or, for give_memory_back, refused and graded as its
# stub), in each door.
for r in lab1.tune_allocator lab1.new_frame lab2.pool lab6.give_memory_back; do
	bad= shown=
	for d in 1 2 3; do
		[ $d = 1 ] && [ -n "$door1" ] && continue
		eval "a=\$(pts \"\$G${d}_hostile\" $r) b=\$(pts \"\$G${d}_mixed\" $r)"
		[ -n "$a" ] && [ -n "$b" ] && [ "${a%/*}" -le "${b%/*}" ] || bad="$bad door $d: $a against $b;"
		shown="$shown $a"
	done
	[ "$(grep -l "^  $r .* taken$" "$TMP/rglog/1-hostile.code" "$TMP/gs-hostile/results/recheck.log" | wc -l)" = 2 ] ||
		bad="$bad not taken (run) by both graders"
	[ -z "$bad" ] && pass "hostile $r, taken and run:$shown, at most its stub's $b" ||
		fail "hostile $r, taken and run, scores at most its stub" "$bad"
done
# Beside them, hostile's other two regions (getpagesize(), the kit's
# own) score full marks.
for r in lab5.page_buffer lab3.thread_policy; do
	a=$(pts "$G2_hostile" $r)
	[ -n "$a" ] && [ "${a%/*}" = "${a#*/}" ] && pass "hostile: beside those, its $r scores full marks ($a)" ||
		fail "hostile: its $r scores full marks" "'$a'"
done
# The machine code ran sh in each door; it wrote nothing, and in the
# graders' (Gradescope, the regrade) it read no solution either.  (make
# check runs as the student, on the student's machine: what it may read
# there is the student's; here it is said, not held to anything.)
said() { grep -h -m 1 -o 'sh: [0-9]*/[0-9]* writes refused, read: [a-z]*' "$1"; }
for d in "$TMP/gs-hostile/results/recheck.log:Gradescope" "$TMP/rglog/1-hostile.code:the regrade"; do
	got=$(said "${d%%:*}")
	[ "$got" = "sh: $nt/$nt writes refused, read: no" ] && pass "${d#*:}: the machine code ran sh -c, which said '$got'" ||
		fail "${d#*:}: the machine code wrote and read nothing of the grader's" "it said '$got'"
done
if [ -z "$door1" ]; then
	got=$(said "$TMP/check.hostile")
	[ "${got%, read: *}" = "sh: $nt/$nt writes refused" ] && pass "make check as the student: the machine code ran sh -c, which said '$got'" ||
		fail "make check as the student: the machine code wrote nothing of the grader's" "it said '$got'"
fi
after=$(hashes)
[ "$after" = "$before" ] &&
	pass "after the three doors the grader's files ($(wc -l <<<"$after") of the kit, the Gradescope roots, the clones) hash the same" ||
	fail "the grader's files changed" "$(diff <(echo "$before") <(echo "$after") | head -n 3)"
