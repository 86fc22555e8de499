#!/usr/bin/env bash
# tests/submission.sh - make submit, as a student types it, writes the
# file for that student at the knobs typed.  Under tests/run.sh this file
# makes the run's shared submission (tests/lib.sh: shared_submission),
# started first while the files that read it (grade, fixtures) wait at the
# end of the order; alone, it makes its own.
. "$(dirname "$0")/lib.sh" || exit 1

# make -s submit STUDENT=tester OUT=... FRAMES=2 ...: the name, the file
# and the knobs got through.
if shared_submission && grep -qx 'student: tester' "$SUB" && grep -qx 'frames: 2' "$SUB" &&
   grep -qx "submission: $SUB" "$(dirname "$SUB")/sub.out"; then
	pass "make -s submit STUDENT=tester OUT=... FRAMES=2 ...: the file, at those knobs, for tester"
else
	fail "make -s submit STUDENT=tester OUT=... FRAMES=2 ..." "${SUB_WHY:-$(grep -E '^(student|frames):' "$SUB")}"
fi

# It ends by naming the one file to upload: the line before the file's
# name says so (stderr), and nothing follows it.
if shared_submission && [ "$(tail -n 1 "$(dirname "$SUB")/sub.err")" = "submit: upload this one file:" ] &&
   [ "$(tail -n 1 "$(dirname "$SUB")/sub.out")" = "submission: $SUB" ]; then
	pass "make submit ends: 'upload this one file:', then submission: PATH"
else
	fail "make submit names what to upload" "stderr ends: $(tail -n 1 "$(dirname "$SUB")/sub.err")"
fi

# Typed without a knob, make submit says nothing of its own before its
# runs (the knob-cap check once opened it with a shell error), and with a
# TMPDIR whose path holds a blank (shared_submission's) every step's
# commands check passes: the strace log's path is not taken for the command.
if shared_submission; then
	make --no-print-directory -s -n submit STUDENT=tester OUT="$TMP/n.txt" >/dev/null 2>"$TMP/n.err"
	if [ ! -s "$TMP/n.err" ] && ! grep -q 'syntax error\|^/bin/bash' "$(dirname "$SUB")/sub.err"; then
		pass "make submit without a knob: no shell error before its runs"
	else fail "make submit without a knob" "$(head -n 2 "$TMP/n.err" "$(dirname "$SUB")/sub.err")"; fi
	tools/grade.sh "$SUB" >"$TMP/g.out" 2>&1
	np=$(grep -c '^PASS  [^ ]*  *commands ' "$TMP/g.out") nf=$(grep -c '^[A-Z]*  [^ ]*  *commands ' "$TMP/g.out")
	if [ "$np" -ge 10 ] && [ "$np" = "$nf" ]; then
		pass "make submit with TMPDIR holding a blank: every commands check passes ($np)"
	else fail "make submit with TMPDIR holding a blank" "$np of $nf commands checks pass: $(grep -m 2 '  commands ' "$TMP/g.out")"; fi
fi

# A knob over the grader's cap (tools/grading/knobs: cap FRAMES) makes a
# file the grader refuses: make submit stops first, one line naming the
# cap, exit 2, no file and no .part; tools/submit.sh without make too.
cap=$(awk '$1 == "cap" && $2 == "FRAMES" { print $3; exit }' tools/grading/knobs)
if [ -z "$cap" ]; then
	skip "make submit FRAMES over the cap" "tools/grading/knobs has no cap FRAMES line"
else
	make --no-print-directory -s submit STUDENT=capped OUT="$TMP/capped.txt" FRAMES=$((cap + 1)) >"$TMP/out" 2>"$TMP/err"; rc=$?
	if [ $rc -eq 2 ] && [ "$(wc -l <"$TMP/err")" -eq 1 ] && grep -q "FRAMES $((cap + 1)) is over the grader's cap $cap " "$TMP/err" &&
	   [ ! -s "$TMP/out" ] && [ -z "$(ls "$TMP" | grep '^capped')" ]; then
		pass "make submit FRAMES=$((cap + 1)): refused (cap $cap), exit 2, one line, nothing written"
	else
		fail "make submit FRAMES=$((cap + 1))" "exit $rc: $(head -c 300 "$TMP/err"); $(ls "$TMP" | grep '^capped')"
	fi
	check_refused "FRAMES=$((cap + 1)) OUT=$TMP/capped.txt tools/submit.sh"
	[ ! -e "$TMP/capped.txt" ] || fail "tools/submit.sh FRAMES over the cap" "it wrote $TMP/capped.txt"
fi
