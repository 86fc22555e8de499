#!/usr/bin/env bash
# tools/grading/check.sh --grade FILE - make check's grade of the
# exercises (the code between the markers of tools/lib/exercise.awk):
# FILE holds the records of the rows of tools/grading/steps that grade an
# exercise (tools/submit.sh with MALLOC_LABS_STEPS=exercise: the same
# commands, the same records), and tools/grading/grade.awk (MODE=check)
# grades them, running nothing: every count against the kit's
# first-principles model, never a time.  One line a check, then a line an
# exercise and Score: N/M.  Its callers: tools/grading/recheck.sh, which
# is make check (it makes the runs, then grades them here), and
# tests/check.sh (the grader held to a doctored record).
# Without --grade it makes the runs itself first (tools/submit.sh, here,
# with none of recheck.sh's rules or isolation): make check's old way,
# which nothing calls now.  Its knobs (environment): FRAMES SCALE
# VARIANCE_ITERS COUNT_LARGE BYTES, as make submit's
# (tools/grading/knobs); CHECK_TIMEOUT a run, in seconds.
# Exit: 0 full marks, 1 short of them, 2 the check itself could not run.
set -u -o pipefail
caller=$PWD
cd "$(dirname "$0")/../.." || exit 2
prog=check
. tools/lib/lib.sh || exit 2
usage() {
	echo "usage: make check   (environment: FRAMES SCALE VARIANCE_ITERS COUNT_LARGE BYTES CHECK_TIMEOUT)"
	echo "       tools/grading/check.sh --grade FILE"
}
record=
case ${1:-} in
-h|--help) usage; exit 0 ;;
'') ;;
--grade) [ $# = 2 ] || bad_usage "--grade wants one FILE"
	record=$2; case $record in /*) ;; *) record=$caller/$record ;; esac
	[ -f "$record" ] && [ -r "$record" ] || bad_usage "cannot read '$(shown "$2")'" ;;
*) bad_usage "unexpected argument '$(shown "$1")'" ;;
esac
T=$(mktemp -d) || { echo "$prog: no temporary directory" >&2; exit 2; }
trap 'rm -rf "$T"' EXIT
regions=$(kit_regions) || exit 2
exfiles=$(printf '%s\n' "$regions" | awk '{ printf "%s%s=%s", (NR > 1 ? " " : ""), $1, $2 }')
if [ -z "$record" ]; then
	# the runner each measured program goes through (tools/submit.sh)
	make -s tools/grading/wait4run >&2 || { echo "$prog: tools/grading/wait4run does not build" >&2; exit 2; }
	record=$T/check.txt
	MALLOC_LABS_STEPS=exercise STUDENT=${STUDENT:-check} OUT="$record" tools/submit.sh >"$T/submit.out" ||
		{ echo "$prog: the runs could not be made (above)" >&2; exit 2; }
fi
printf '%s\t%s\t\tyes\t1\n' "$record" "make check" >"$T/manifest"
make -s tools/grading/predict >&2 || { echo "$prog: tools/grading/predict does not build" >&2; exit 2; }
LC_ALL=C awk -v MODE=check -v STEPS=tools/grading/steps -v KNOBS_FILE=tools/grading/knobs -v SUMMARY= \
	-v PREDICT=tools/grading/predict -v PREDICT_REQ="$T/predict" \
	-v EXFILES="$exfiles" -v MANIFEST="$T/manifest" \
	-f tools/lib/csv.awk -f tools/grading/steps.awk -f tools/grading/alike.awk -f tools/grading/grade.awk -f tools/grading/gradescope.awk </dev/null
