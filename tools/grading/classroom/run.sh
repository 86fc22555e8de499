#!/usr/bin/env bash
# tools/grading/classroom/run.sh prepare | check GROUP | workflow - the
# steps of the GitHub Classroom workflow (malloc-labs.yml beside this
# file), kept here so a test can run them as GitHub's runner does.
#   prepare    on each push, as the runner's user (not root) with
#              GITHUB_ACTOR set: strace if it can be installed, the build,
#              make submit at the student's GitHub name (with the answer
#              sheet answers/NAME.txt when one is committed), then the grade
#              (classroom/grade.txt) and the feedback (classroom/feedback.txt).
#              The first push, made by github-classroom[bot] when Classroom
#              copies the template, has no student: nothing is graded.
#   check G    one test group for autograding-command-grader: prints the
#              group's lines of the grade and exits 0 only when every check
#              of G passed (the action gives all of G's points or none).
#   workflow   the workflow file, its groups and points from the step
#              table (a step newer than results/reference-submission.txt,
#              SKIP in its grade, has its group too: a student's kit runs
#              it), once the reference grades clean (malloc-labs.yml is
#              this output; tests/classroom.sh checks they agree).
# Groups: file (the file's integrity) and each graded lab (its runs).
# The answer sheet is graded in grade.txt but has no group: its maximum
# depends on the sheet, and a group's points are fixed in the workflow.
set -u -o pipefail
cd "$(dirname "$0")/../../.." || exit 1
. tools/lib/lib.sh
prog=classroom
OUTD=classroom
usage() { echo "usage: tools/grading/classroom/run.sh prepare | check GROUP | workflow"; }

# groups: "GROUP POINTS" for each group, in the step table's order.
groups() { awk -v KIND=groups -f tools/grading/steps.awk tools/grading/steps; }

prepare() {
	local who=${GITHUB_ACTOR:-} sheet
	[ -n "$who" ] || die "GITHUB_ACTOR is not set: run on GitHub's runner (or set it)"
	if [ "$who" = "github-classroom[bot]" ]; then
		echo "$prog: the first push, made by github-classroom[bot] (the template's copy): nothing to grade"
		return 0
	fi
	if ! command -v strace >/dev/null 2>&1; then
		{ sudo -n apt-get update -qq && sudo -n apt-get install -y -qq strace; } >/dev/null 2>&1 ||
			echo "$prog: strace could not be installed: its checks will be ENV"
	fi
	mkdir -p "$OUTD" || die "cannot create $OUTD/"
	make --no-print-directory >"$OUTD/build.log" 2>&1 || { tail -n 20 "$OUTD/build.log"; die "the kit does not build"; }
	sheet=answers/$who.txt
	[ -f "$sheet" ] || sheet=
	STUDENT=$who OUT=$OUTD/submission.txt ANSWERS=$sheet tools/submit.sh ||
		die "make submit failed (above)"
	tools/grade.sh --feedback "$OUTD/submission.txt" >"$OUTD/feedback.txt"
	tools/grade.sh "$OUTD/submission.txt" >"$OUTD/grade.txt"
	cat "$OUTD/grade.txt"
	return 0
}

check() {
	local g=$1
	[ -r "$OUTD/grade.txt" ] || die "no $OUTD/grade.txt: the prepare step did not grade"
	awk -v g="$g" '$1 ~ /^(PASS|FAIL|ENV|SKIP|INTEGRITY)$/ {
		s = $2; sub(/\..*/, "", s); show = (s == g); n += show
		if (show && $1 != "PASS") bad++
	} show { print } END { if (!n) { print "no check in group " g; exit 2 } exit bad ? 1 : 0 }' "$OUTD/grade.txt"
}

workflow() {
	local g pts ids= ref=results/reference-submission.txt
	tools/grade.sh "$ref" >"$TMPD/ref.txt" || die "$ref does not grade clean"
	cat <<'YAML'
# tools/grading/classroom/malloc-labs.yml - the GitHub Classroom workflow:
# copy it to .github/workflows/malloc-labs.yml in the assignment's template
# repository (not classroom.yml: Classroom writes its own workflow there).
# Written by tools/grading/classroom/run.sh workflow; its steps are that
# script's.  On each push it re-runs the labs on GitHub's runner at the
# pusher's GitHub name, then reports each group's points to Classroom.
name: malloc-labs
on:
  push:
  workflow_dispatch:
permissions:
  checks: write
  actions: read
  contents: read
jobs:
  grade:
    runs-on: ubuntu-latest
    timeout-minutes: 30
    # Classroom's own first push copies the template: no student to grade.
    if: github.actor != 'github-classroom[bot]'
    steps:
      - uses: actions/checkout@v4
      - name: Build, make submit at the student's name, grade
        run: tools/grading/classroom/run.sh prepare
YAML
	while read -r g pts; do
		cat <<YAML
      - name: $g
        # after a failed prepare too: then no grade, so no points
        id: $g
        if: always()
        uses: classroom-resources/autograding-command-grader@v1
        with:
          test-name: $g
          command: tools/grading/classroom/run.sh check $g
          timeout: 1
          max-score: $pts
YAML
		ids="$ids${ids:+,}$g"
	done < <(groups)
	cat <<YAML
      - name: Report the points to Classroom
        if: always()
        uses: classroom-resources/autograding-grading-reporter@v1
        env:
YAML
	for g in ${ids//,/ }; do
		printf '          %s_RESULTS: "${{ steps.%s.outputs.result }}"\n' "${g^^}" "$g"
	done
	cat <<YAML
        with:
          runners: $ids
      - name: Keep the submission, the grade and the feedback
        if: always()
        uses: actions/upload-artifact@v4
        with:
          name: malloc-labs-grade
          path: classroom/
YAML
}

case ${1:-} in
prepare) [ $# -eq 1 ] || bad_usage "prepare takes no argument"; prepare ;;
check) [ $# -eq 2 ] && [[ $2 =~ ^[a-z0-9]+$ ]] || bad_usage "check wants one group name"; check "$2" ;;
workflow) [ $# -eq 1 ] || bad_usage "workflow takes no argument"; scratch_dir; workflow ;;
-h|--help) usage ;;
*) bad_usage "no command '${1:-}'" ;;
esac
