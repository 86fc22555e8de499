#!/bin/sh
# tools/grade.sh FILE|DIR... - grade malloc-labs submissions (`make submit`)
# from first principles.  Shell and awk only (any POSIX awk: mawk has no
# FPAT, so CSV goes through tools/csv.awk's csv_split).
#
# The model, the points and the tolerances live in tools/grade.awk; the
# steps (and the commands each must have run) in tools/steps.  Each check
# prints one line:
#   PASS|FAIL|ENV|SKIP  step  check  got  want  tolerance  points
# then `Score: N/M` (M counts PASS, FAIL and ENV checks; SKIP is not
# applicable, e.g. no strace).  ENV means the environment the run saw makes
# the count incomparable (the reason follows); it is never turned into a
# PASS.  Times are recorded and listed as "not graded".
#
# Exit: 0 every check passed, 1 any FAIL, 3 no FAIL but some ENV, 2 bad
# usage or a file that is not a submission (no header).
# Given a DIR, every file in it is graded, then one CSV row a submission:
#   file,student,score,max,fails,envs,env_flags
set -u
DIR=$(dirname "$0")
for lib in csv.awk steps.awk grade.awk steps; do
	[ -r "$DIR/$lib" ] || { echo "grade: $DIR/$lib is missing" >&2; exit 2; }
done

usage() { echo "usage: tools/grade.sh FILE|DIR..." >&2; exit 2; }
[ $# -ge 1 ] || usage
case $1 in -h|--help) echo "usage: tools/grade.sh FILE|DIR..."; exit 0 ;; -*) echo "grade: unknown option '$1'" >&2; usage ;; esac

# grade_file FILE: print the report; exit status as above.
grade_file() {
	[ -r "$1" ] && [ -f "$1" ] || { echo "grade: cannot read '$1'" >&2; return 2; }
	# The file comes on standard input: a name such as FRAMES=1.txt given
	# to awk as an argument would be read as an assignment, not a file.
	awk -v SUMMARY="${SUMMARY:-}" -v SUBFILE="$1" -v STEPS="$DIR/steps" -v EXPECT_OUT="${EXPECT_OUT:-}" \
		-f "$DIR/csv.awk" -f "$DIR/steps.awk" -f "$DIR/grade.awk" <"$1"
}

worst=0
note() { # fold an exit status into the worst so far: 2 > 1 > 3 > 0
	case $1 in
	2) worst=2 ;; 1) [ $worst = 2 ] || worst=1 ;; 3) [ $worst = 0 ] && worst=3 ;;
	esac
}
for arg in "$@"; do
	if [ -d "$arg" ]; then
		SUMMARY=$(mktemp) || exit 2
		export SUMMARY
		n=0
		for f in "$arg"/*; do
			[ -f "$f" ] || continue
			n=$((n + 1))
			echo "== $f"
			grade_file "$f"; rc=$?
			note $rc
			[ $rc = 2 ] && echo "$f,,,,,,not a submission" >>"$SUMMARY"
		done
		[ $n -gt 0 ] || { echo "grade: no files in $arg" >&2; rm -f "$SUMMARY"; exit 2; }
		echo "== $arg: one row a submission"
		echo "file,student,score,max,fails,envs,env_flags"
		cat "$SUMMARY"
		rm -f "$SUMMARY"; SUMMARY=
	else
		grade_file "$arg"; note $?
	fi
done
exit $worst
