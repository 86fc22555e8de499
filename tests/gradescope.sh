#!/usr/bin/env bash
# tests/gradescope.sh - Gradescope's contract, run as Gradescope runs it
# (issue 22 item 4, issue 24 item 3).  The zip of make autograder is
# unpacked into a root standing in for /autograder (run_autograder and
# setup.sh take it from AUTOGRADER_ROOT), then setup.sh and run_autograder
# run with a bare environment (HOME set, no git on PATH) for each kind of
# upload: honest, forged, empty, missing, binary, a backslash in the
# student line, a Latin-1 byte.  Every results.json must be valid UTF-8
# JSON (tests/bin/jsoncheck) with Gradescope's fields; grading an upload
# must not need the kit to build; RERUN=1 must re-run every upload from
# its sheet, and an honest re-run must grade its runs clean.
. "$(dirname "$0")/lib.sh" || exit 1
full_only "the Gradescope autograder, emulated"
needs_solution "every exercise" "the Gradescope autograder: make autograder builds from the instructor's kit" || exit 0
REF=results/reference-submission.txt
# The grader's maximum (one for every file: grade.awk), as it grades the
# reference submission now; results/reference-grade.txt holds it as make
# reference last recorded it, which may predate a check the grader added.
MAX=$(tools/grade.sh "$REF" 2>/dev/null | sed -n 's/^Score: [0-9]*\/\([0-9]*\)$/\1/p')

gradescope_ready; case $? in    # (tests/lib.sh: the zip, a PATH without git)
1) skip "Gradescope's contract" "$GS_WHY"; exit 0 ;;
2) fail "make autograder, a PATH without git" "$GS_WHY"; exit 0 ;;
esac
# meta NAME EMAIL EMAIL: the accounts that upload (Gradescope's
# submission_metadata.json, beside submission/).
meta() { printf '{"users": [{"email": "%s", "name": "A"}, {"email": "%s", "name": "B"}]}\n' "$2" "$3" >"$TMP/$1/submission_metadata.json"; }

# GRADE=file (a course that grades the file make submit wrote, knowing
# it is a self-check): the reference submission, its full score.
new_root honest && cp "$REF" "$TMP/honest/submission/ada-2026.txt"
grade_upload honest GRADE=file && json_ok honest "honest upload" &&
	cmp_num "honest upload scores the maximum" "$(score_of honest)" -eq "$MAX"

# A kit that does not build on the grader still grades the file.
new_root nobuild && cp "$REF" "$TMP/nobuild/submission/ada.txt"
echo 'this is not C' >"$TMP/nobuild/source/frames.c"
grade_upload nobuild GRADE=file && json_ok nobuild "kit that does not build" &&
	cmp_num "a broken build does not change the grade" "$(score_of nobuild)" -eq "$MAX"

# Forged: a count edited in a record (the first Lab 1 row's minor_faults,
# its 7th column, set to 1).
new_root forged
awk -F , -v OFS=, '/^csv: / && ++n == 2 { $7 = 1 } 1' "$REF" >"$TMP/forged/submission/ada.txt"
if cmp -s "$REF" "$TMP/forged/submission/ada.txt"; then fail "forged upload" "the edit did not apply"
else grade_upload forged GRADE=file && json_ok forged "forged upload" &&
	cmp_num "forged upload scores below the maximum" "$(score_of forged)" -lt "$MAX"; fi

# Two files make submit wrote: neither is picked (by its date line, say,
# which the student wrote): 0, and the reason.
new_root two && cp "$REF" "$TMP/two/submission/ada-1.txt" &&
	sed 's/^date: .*/date: 2099-01-01 00:00:00 UTC/' "$REF" >"$TMP/two/submission/ada-2.txt"
if grade_upload two GRADE=file && json_ok two "two submissions uploaded"; then
	[ "$(score_of two)" = 0 ] && grep -q '"output": "the upload holds 2 files make submit wrote: upload one' "$TMP/two/results/results.json" &&
		pass "GRADE=file: two submissions uploaded score 0, neither picked by its date" ||
		fail "GRADE=file: two submissions" "$(head -c 300 "$TMP/two/results/results.json")"
fi

# Empty, missing, binary: no points, a reason, valid JSON.
new_root empty && : >"$TMP/empty/submission/ada.txt"
new_root missing
new_root binary && awk 'BEGIN { for (i = 0; i < 256; i++) printf "%c", i; print "student: x" }' \
	>"$TMP/binary/submission/ada.txt"
for u in empty missing binary; do
	grade_upload $u GRADE=file && json_ok $u "$u upload" &&
		cmp_num "$u upload scores 0" "$(score_of $u)" -eq 0
done
grep -q '"output": "no .txt file in the upload' "$TMP/missing/results/results.json" &&
	pass "missing upload: the reason is the output" ||
	fail "missing upload: the reason" "$(head -c 300 "$TMP/missing/results/results.json")"

# A backslash and a Latin-1 byte in the student line: escaped, replaced
# (the grader reads every byte that is not printable ASCII as "?").
new_root backslash && sed 's/^student: .*/student: C:\\Users\\bob/' "$REF" >"$TMP/backslash/submission/a.txt"
grade_upload backslash GRADE=file && json_ok backslash "backslash in the student line" &&
	{ grep -qF '"output": "C:\\Users\\bob:' "$TMP/backslash/results/results.json" &&
		pass "the backslashes reach Gradescope as written" ||
		fail "the backslashes reach Gradescope" "$(grep -m1 output "$TMP/backslash/results/results.json")"; }
new_root latin1 && sed "s/^student: .*/student: jos$(printf '\351')/" "$REF" >"$TMP/latin1/submission/a.txt"
grade_upload latin1 GRADE=file && json_ok latin1 "Latin-1 byte in the student line" &&
	{ grep -qF '"output": "jos?:' "$TMP/latin1/results/results.json" &&
		pass "a byte that is not printable ASCII becomes ? (grade.awk, as it reads the file)" ||
		fail "a Latin-1 byte becomes ?" "$(grep -m1 output "$TMP/latin1/results/results.json")"; }

# RERUN=1: an uploaded submission is refused, never graded as measured.
new_root rerunsub && cp "$REF" "$TMP/rerunsub/submission/ada.txt"
grade_upload rerunsub RERUN=1 && json_ok rerunsub "RERUN=1, a submission uploaded" &&
	cmp_num "RERUN=1 grades no uploaded measurements" "$(score_of rerunsub)" -eq 0

# GRADE=sheet ties the sheet to the account that uploads it, as code does:
# a classmate's filled sheet earns nothing, before anything runs.
new_root sheetfriend && tools/grading/questions.sh sheet ada@uni.example >"$TMP/sheetfriend/submission/answers.txt" &&
	meta sheetfriend bob@uni.example eve@uni.example
if grade_upload sheetfriend GRADE=sheet && json_ok sheetfriend "GRADE=sheet, another student's sheet"; then
	[ "$(score_of sheetfriend)" = 0 ] && grep -q '"output": "the answer sheet is made for .ada@uni.example., not for the account that uploads it' \
		"$TMP/sheetfriend/results/results.json" && [ ! -e "$TMP/sheetfriend/results/rerun.txt" ] &&
		pass "GRADE=sheet: a sheet made for another account scores 0 and says why, nothing re-run" ||
		fail "GRADE=sheet with another student's sheet" "$(head -c 300 "$TMP/sheetfriend/results/results.json")"
fi

# RERUN=1 with a sheet: make submit here, at the sheet's name; the runs and
# the kit line grade clean (the zip says which revision it is).  Minutes.
if ! strace_works; then
	skip "RERUN=1 re-runs an honest sheet clean" "$STRACE_WHY"
else
	new_root rerun && tools/grading/questions.sh sheet ada >"$TMP/rerun/submission/ada.txt" && meta rerun ada x@uni.example
	if grade_upload rerun RERUN=1 && json_ok rerun "RERUN=1, a sheet uploaded"; then  # fails itself
		j=$TMP/rerun/results/results.json
		bad=$(grep '^    {"name": ' "$j" | grep -v '"name": "answer: ' | grep -v '"status": "passed"' | cut -c1-160)
		if [ -z "$bad" ] && [ -s "$TMP/rerun/results/rerun.txt" ] && grep -q '^kit: [0-9a-f]' "$TMP/rerun/results/rerun.txt"; then
			pass "RERUN=1: the sheet re-run here, every run's test passed, the kit line names the zip's revision"
		else
			fail "RERUN=1 honest re-run grades clean" "$bad $(grep -m1 '^kit:' "$TMP/rerun/results/rerun.txt" 2>&1)"
		fi
	elif grep -q 'make submit failed' "$TMP/rerun/results/results.json" 2>/dev/null; then
		fail "RERUN=1 with a sheet: make submit ran" "$(tail -n 3 "$TMP/rerun/results/rerun.log" 2>&1)"
	fi
fi

# ------------------------------------------------- GRADE=code, the default
# The student's programs, their regions re-run here (small knobs: the
# course's are docs/grading.md's figure).  The kit's own programs score full; the
# handout's stubs under half; a file make submit wrote, uploaded alone,
# 0 with the reason; an answer sheet counts only for its own account.
SMALL=(FRAMES=2 SCALE=100 VARIANCE_ITERS=2000 COUNT_LARGE=200 BYTES=1M)
code_max=$(make -s check "${SMALL[@]}" 2>/dev/null | sed -n 's/^Score: [0-9]*\///p')
new_root code && cp $(lab_programs | sed 's/$/.c/') "$TMP/code/submission/"
if grade_upload code "${SMALL[@]}" && json_ok code "GRADE=code, the kit's programs"; then
	cmp_num "GRADE=code: the kit's own solutions score full ($code_max)" "$(score_of code)" -eq "${code_max:-0}"
	# (the kit built and its programs run: seconds on any machine, never 0)
	cmp_num "GRADE=code: results.json's execution_time counts the re-run" \
		"$(sed -n 's/^  "execution_time": \([0-9]*\),$/\1/p' "$TMP/code/results/results.json")" -ge 1
fi
make -s handout OUT="$TMP/ho" >/dev/null 2>&1
new_root stubs && for f in $(lab_programs | sed 's/$/.c/'); do cp "$TMP/ho/$f" "$TMP/stubs/submission/"; done
if grade_upload stubs "${SMALL[@]}" && json_ok stubs "GRADE=code, the handout's stubs"; then
	cmp_num "GRADE=code: the stubs score under half" "$((2 * $(score_of stubs)))" -lt "${code_max:-0}"
fi
# The stubs in an upload made to trip the grader (tests/lib.sh): the
# stubs' score (when its names were read as lines, the kit's frames.c).
new_root hostile && hostile_upload "$TMP/hostile/submission" "$TMP/ho"
if grade_upload hostile "${SMALL[@]}" && json_ok hostile "GRADE=code, the stubs in a hostile upload"; then
	cmp_num "GRADE=code: the stubs in a hostile upload score the stubs' $(score_of stubs)" "$(score_of hostile)" -eq "$(score_of stubs)"
fi
new_root alone && cp "$REF" "$TMP/alone/submission/ada.txt"
if grade_upload alone && json_ok alone "GRADE=code, a submission file alone"; then
	if [ "$(score_of alone)" = 0 ] && grep -q '"output": "this course grades your code' "$TMP/alone/results/results.json"; then
		pass "GRADE=code: a file make submit wrote, uploaded alone, scores 0 with the reason"
	else fail "GRADE=code: a submission file alone" "$(head -c 300 "$TMP/alone/results/results.json")"; fi
fi
# The sheet of the uploading account: marked, the result after the due
# date; a friend's sheet: not marked, one test says why.
for who in mine friend; do
	new_root "$who" && cp $(lab_programs | sed 's/$/.c/') "$TMP/$who/submission/"
	tools/grading/questions.sh sheet ada@uni.example >"$TMP/$who/submission/answers.txt"
done
meta mine Ada@Uni.example partner@uni.example
meta friend bob@uni.example eve@uni.example
if grade_upload mine "${SMALL[@]}" && json_ok mine "GRADE=code with the account's sheet"; then
	j=$TMP/mine/results/results.json
	if grep -q '^  "visibility": "after_due_date",$' "$j" && grep -q '"name": "answer: frame_pages"' "$j" &&
	   [ "$(grep -c '"name": "lab[0-9]*\.[a-z0-9_]* (' "$j")" -ge 6 ]; then
		pass "GRADE=code: the account's own sheet is marked, the whole result after the due date"
	else fail "GRADE=code with the account's sheet" "$(grep -m 3 'visibility\|answer' "$j" | cut -c1-160)"; fi
fi
if grade_upload friend "${SMALL[@]}" && json_ok friend "GRADE=code with another student's sheet"; then
	j=$TMP/friend/results/results.json
	if grep -q '^  "visibility": "visible",$' "$j" && ! grep -q '"name": "answer: ' "$j" &&
	   grep -q "\"name\": \"answer sheet\", \"score\": 0.*not for the account that uploads it" "$j" &&
	   [ "$(score_of friend)" = "$(score_of code)" ]; then
		pass "GRADE=code: a sheet made for another student earns nothing, and says why"
	else fail "GRADE=code with a friend's sheet" "$(grep -m 3 'visibility\|answer' "$j" | cut -c1-160)"; fi
fi
