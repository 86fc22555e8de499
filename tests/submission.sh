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
