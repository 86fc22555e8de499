#!/usr/bin/env bash
# tests/handout.sh - make handout OUT=DIR, the students' copy: refused in
# one line where it would overwrite, write into the kit or has no solution
# to hide; otherwise the kit with every exercise region its stub and
# nothing else changed, marked as a handout, whose grader shows no key and
# marks no answer.  make test-all also runs the handout's own make test
# (it must pass on the stubs: what needs a solution is make check's).
# (tests/check.sh scores the handout's stubs with make check.)
. "$(dirname "$0")/lib.sh" || exit 1

EX=tools/lib/exercise.awk
H=$TMP/handout

# ------------------------------------------------------- what is refused
# handout_refused NAME MAKE-ARGS...: exit 2, the reason in one line and
# the usage, nothing written.
handout_refused() {
	local name=$1 rc
	shift
	make --no-print-directory handout "$@" >"$TMP/out" 2>"$TMP/err"; rc=$?
	if [ $rc = 2 ] && [ "$(grep -c '^handout: ' "$TMP/err")" = 1 ] && grep -q '^usage: make handout OUT=DIR' "$TMP/err" &&
	   [ ! -s "$TMP/out" ]; then
		pass "make handout refuses $name (exit 2, one line and the usage)"
	else fail "make handout refuses $name" "exit $rc: $(cat "$TMP/err" "$TMP/out" | head -c 300)"; fi
}
if [ "$HANDOUT" = 1 ]; then
	handout_refused "in a handout (no solution to hide)" OUT="$H"
	[ ! -e "$H" ] && pass "... and writes nothing" || fail "make handout in a handout wrote" "$(ls "$H")"
	check_exit "make autograder in a handout: refused (exit 2)" 2 make --no-print-directory autograder
	exit 0
fi
handout_refused "without OUT"
mkdir -p "$TMP/full" && : >"$TMP/full/notes.txt"
handout_refused "a directory that holds files" OUT="$TMP/full"
[ "$(ls "$TMP/full")" = notes.txt ] && pass "... and leaves that directory as it was" ||
	fail "make handout into a full directory" "it now holds: $(ls "$TMP/full")"
: >"$TMP/afile"
handout_refused "a file" OUT="$TMP/afile"
handout_refused "a directory inside the kit" OUT=handout-inside
[ ! -e handout-inside ] && pass "... and writes nothing there" || { fail "make handout inside the kit" "wrote handout-inside"; rm -rf handout-inside; }

# --------------------------------------------------------- the handout
mkdir "$H" && make --no-print-directory handout OUT="$H" >"$TMP/out" 2>"$TMP/err"; rc=$?
regions=$(kit_regions | wc -l)
if [ $rc = 0 ] && grep -q "^handout: $H ($regions exercise regions" "$TMP/out" && [ ! -s "$TMP/err" ]; then
	pass "make handout OUT=an empty directory: exit 0, says what it made"
else fail "make handout" "exit $rc: $(cat "$TMP/out" "$TMP/err" | head -c 300)"; fi
w=$(sed "s|$H|DIR|g" "$TMP/out" | awk '{ if (length($0) > m) m = length($0) } END { print m + 0 }')
cmp_num "make handout's lines fit 80 columns (its DIR aside)" "$w" -le 80
ls -A "$H" | grep -q '^\.handout\.' && fail "make handout leaves no staging directory" "$(ls -A "$H")" ||
	pass "make handout leaves no staging directory behind"
[ -z "$(ls -A "$TMP" | grep '^\.handout\.')" ] && pass "... beside it either" ||
	fail "make handout's staging directory" "left in $TMP"

# The mark, naming the kit and every region.
progs=$(lab_programs | sed 's/$/.c/' | tr '\n' ' ')
# shellcheck disable=SC2086
kit_regions | awk '{ print "region: " $1 " " $2 }' >"$TMP/want_regions"
if [ -f "$H/tools/lib/handout" ] && grep -q "^from_kit: $(tools/lib/kitversion)$" "$H/tools/lib/handout" &&
   diff <(grep '^region: ' "$H/tools/lib/handout") "$TMP/want_regions" >/dev/null; then
	pass "the handout is marked (tools/lib/handout): the kit it came from, every region"
else fail "the handout's mark" "$(cat "$H/tools/lib/handout" 2>&1 | head -c 300)"; fi

# Every region is its stub, and nothing else differs: the kit's regions
# spliced back give the kit's own file, byte for byte.
bad=
while read -r r f _; do
	awk -v DO=stub -v STUBS=tools/exercises -f $EX "$H/$f" >"$TMP/restub" || bad="$bad $r(stub)"
	cmp -s "$TMP/restub" "$H/$f" || bad="$bad $r(not its stub)"
	awk -v DO=splice -v FROM="$f" -f $EX "$H/$f" >"$TMP/back" || bad="$bad $r(splice)"
	cmp -s "$TMP/back" "$f" || bad="$bad $f(outside the regions)"
	cmp -s "$H/$f" "$f" && bad="$bad $f(the kit's own)"
done < <(kit_regions)
[ -z "$bad" ] && pass "the handout's regions hold their stubs, and only the regions differ from the kit" ||
	fail "the handout's programs" "$bad"
kit_copy "$TMP/kit" || fail "a copy of the kit" "kit_copy failed"
{
	echo "Only in $H/tools/lib: handout"
	for f in $progs tools/lib/kit-commit tools/lib/kit-sources tools/grading/grade.awk; do echo "Files $TMP/kit/$f and $H/$f differ"; done
} >"$TMP/allowed"
others=$(diff -rq "$TMP/kit" "$H" 2>&1 | grep -v -x -F -f "$TMP/allowed")
[ -z "$others" ] && pass "the handout holds every other file of the kit, unchanged" ||
	fail "the handout's other files" "$(printf '%s' "$others" | head -c 300)"
# The documents ship with it: README, FURTHER.md and every docs/ page.
docs_in "the handout" "$H"
# A handout is its kit's revision with the regions replaced: it names the
# kit's commit (none from a kit with changes no commit holds), and its
# sources, hashed with their regions stubbed, are the kit's so hashed,
# whatever its regions hold (a file make submit writes there names them).
# Without git (a ZIP download) the kit's commit is its tools/lib/kit-commit.
kv=$(tools/lib/kitversion) hs=$(tools/lib/kitversion --handout-sources)
case $kv in src-*|*-dirty) want='$Format:%h$' wantv="src-$hs" ;; *) want=$(git rev-parse --short HEAD 2>/dev/null || tr -cd 'A-Za-z0-9' <tools/lib/kit-commit) wantv=$want ;; esac
awk -v r=lab1.tune_allocator '{ print } $0 == "/* BEGIN EXERCISE " r " */" { print "/* the student'"'"'s */" }' \
	"$H/frames.c" >"$TMP/f.c" && cp "$TMP/f.c" "$H/frames.c"
if [ "$(cat "$H/tools/lib/kit-commit")" = "$want" ] && [ "$(cat "$H/tools/lib/kit-sources")" = "$hs" ] &&
   [ "$("$H/tools/lib/kitversion")" = "$wantv" ] && [ "$("$H/tools/lib/kitversion" --sources)" = "$hs" ]; then
	pass "the handout names the kit's revision ($wantv) and its sources with the regions stubbed ($hs), a region edited"
else fail "the handout's kit lines" "kit-commit $(cat "$H/tools/lib/kit-commit"), kit-sources $(cat "$H/tools/lib/kit-sources"), kitversion $("$H/tools/lib/kitversion") --sources $("$H/tools/lib/kitversion" --sources); want $want $hs"; fi
awk -v DO=stub -v STUBS=tools/exercises -f $EX "$H/frames.c" >"$TMP/f.c" && cp "$TMP/f.c" "$H/frames.c"

# ------------------------------------------------ the handout's grader
# No key, and no answer marked: a submission carrying a sheet is graded
# here with its answers, there with one line saying the course marks them.
shared_submission && cp "$SUB" "$TMP/sub.txt" || fail "make submit at small knobs" "$SUB_WHY"
if [ -f "$TMP/sub.txt" ]; then
	awk '{ print } !done && $0 == "" { print "@answers"; print "frame_pages: 11215"; print "@end"; print ""; done = 1 }' \
		"$TMP/sub.txt" >"$TMP/ans.txt"
	tools/grade.sh "$TMP/ans.txt" >"$TMP/kit.out" 2>&1
	"$H/tools/grade.sh" "$TMP/ans.txt" >"$TMP/h.out" 2>&1
	if grep -q '^FAIL  answers  *frame_pages ' "$TMP/kit.out" && ! grep -q '^[A-Z]* *answers  *frame_pages' "$TMP/h.out" &&
	   grep -q '^SKIP  answers  *sheet .*' "$TMP/h.out" && grep -q '^Answers: not marked in a handout$' "$TMP/h.out" &&
	   ! grep -q '(key)' "$TMP/h.out"; then
		pass "the handout's grader marks no answer (the kit's marks them): one SKIP line says so"
	else fail "the handout's grader and the answers" "$(grep -E 'answers|^Answers' "$TMP/h.out" | head -n 4)"; fi
fi
check_exit "the handout's grade.sh --key: refused (exit 2)" 2 "$H/tools/grade.sh" --key "$TMP/sub.txt"
if [ "$(wc -l <"$TMP/err")" -ge 1 ] && grep -q "^grade: --key: the answers' key is the instructor's, not in a handout$" "$TMP/err"; then
	pass "... saying why, in one line and the usage"
else fail "grade.sh --key in a handout: the reason" "$(head -c 300 "$TMP/err")"; fi

# The key is not in the handout: its grade.awk is the kit's without the
# KEY lines (what marks the answers), so a handout whose mark is deleted,
# asked for the key, marks nothing and shows none.
g=$H/tools/grading/grade.awk
if [ "$(awk '/^# ---- KEY:/ { k = 1 } !k { sub(/^#handout: /, ""); print } /^# ---- END KEY$/ { k = 0 }' \
	tools/grading/grade.awk)" = "$(cat "$g")" ] && ! grep -q 'ans_num\|ask_frames("ans\.' "$g"; then
	pass "the handout's grade.awk is the kit's without what marks the answers"
else fail "the handout's grade.awk" "$(diff tools/grading/grade.awk "$g" | grep -m 3 '^>')"; fi
if [ -f "$TMP/ans.txt" ]; then
	cp -r "$H" "$TMP/nomark" && rm "$TMP/nomark/tools/lib/handout"
	"$TMP/nomark/tools/grade.sh" --key "$TMP/ans.txt" >"$TMP/nomark.out" 2>&1
	if grep -q '^SKIP  answers  *sheet ' "$TMP/nomark.out" && ! grep -q '^[A-Z]* *answers  *frame_pages' "$TMP/nomark.out" &&
	   grep -q '^Answers: not marked in a handout$' "$TMP/nomark.out"; then
		pass "a handout without its mark, grade.sh --key: no answer marked, no key shown"
	else fail "a handout without its mark prints the key" "$(grep -E 'answers|^Answers' "$TMP/nomark.out" | head -n 4)"; fi
fi

# ---------------------------------------------------- its own make test
full_only "the handout's own make test"
# A file make submit wrote in the handout: the kit's grader knows its kit
# (a revision with the regions replaced): only the exercises' steps FAIL.
if [ -n "$(git status --porcelain 2>/dev/null)" ] || ! git rev-parse --git-dir >/dev/null 2>&1; then
	skip "the kit's grader on a handout's file" "the kit is no clean git checkout: the handout names no commit"
else
	(cd "$H" && make -s >/dev/null 2>&1 &&
		make --no-print-directory submit STUDENT=ho FRAMES=2 SCALE=100 VARIANCE_ITERS=2000 COUNT_LARGE=200 BYTES=1M) \
		>"$TMP/hsub.out" 2>&1
	hf=$(sed -n 's/^submission: //p' "$TMP/hsub.out" | tail -n 1)
	tools/grade.sh "$H/$hf" >"$TMP/hgrade.out" 2>&1; rc=$?
	HANDOUT=1 graded_clean "the kit's tools/grade.sh on a file make submit wrote in a handout" "$rc" "$TMP/hgrade.out"
	if [ -n "$hf" ] && ! grep -q 'INTEGRITY' "$TMP/hgrade.out"; then
		pass "... no INTEGRITY: its kit, $(sed -n 's/^kit: //p' "$H/$hf"), is the kit's revision with the regions replaced"
	else fail "the kit's grader on a handout's file" "$(grep -m 3 'INTEGRITY\|kit' "$TMP/hgrade.out") $(tail -n 2 "$TMP/hsub.out")"; fi
fi
(cd "$H" && make -s >/dev/null 2>&1 && make --no-print-directory test) >"$TMP/ht.out" 2>&1; rc=$?
last=$(tail -n 1 "$TMP/ht.out")
if [ $rc = 0 ] && [[ $last =~ ^[0-9]+\ passed,\ 0\ failed,\ [0-9]+\ skipped$ ]] &&
   tr -s ' \n' '  ' <"$TMP/ht.out" | grep -q "needs lab1.tune_allocator's solution: a handout holds the stub"; then
	pass "the handout's own make test passes on the stubs ($last), skipping by name what needs a solution"
else fail "the handout's own make test" "exit $rc: $(grep -m 5 '^FAIL' "$TMP/ht.out") $last"; fi
