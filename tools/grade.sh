#!/usr/bin/env bash
# tools/grade.sh [--csv | --feedback | --format F] [--key] [--knobs FILE] FILE|DIR...
# grade malloc-labs submissions (`make submit`) from first principles.
# Shell and awk only (any POSIX awk: mawk has no FPAT, so CSV goes through
# tools/lib/csv.awk's csv_split).
#
# The model, the points and the tolerances live in tools/grading/grade.awk; the
# steps (the commands each must have run, and the checker each gets) in
# tools/grading/steps; the course's knobs in tools/grading/knobs.  Each check
# prints one line:
#   PASS|FAIL|ENV|INTEGRITY|SKIP  step  check  got  want  tolerance  points
# then `Status:`, `Answers: A/B` (the answer sheet and the runs at its
# parameters, scored apart) and `Score: N/M` (the runs; M is the same for
# every file of one kit revision: what is missing scores 0).  ENV means the
# environment the run saw makes the count incomparable (the reason
# follows); it is never turned into a PASS.  INTEGRITY means the file is
# not as make submit wrote it (a line per reason): no score at all.
# Times are recorded and listed as "not graded".
#
# Output, one of:
#   (default)     the report of each file; with a DIR or several files, one
#                 CSV block after all of them
#   --csv         only the CSV: one header, then one row a file
#   --feedback    each FAIL, ENV and INTEGRITY of each file, with what it
#                 means and what to try (a text to hand the student)
#   --format gradescope   Gradescope's results.json for one FILE (the
#                 answers' tests visible after the due date only)
# --key           the answers' key in the want column (for the instructor;
#                 never hand this output to a student)
# --knobs FILE    the course's knobs (default tools/grading/knobs): the
#                 minimums, and whether a file under one is flagged or
#                 INTEGRITY
# The CSV: file,student,date,status,score,max,answers,answers_max,fails,envs,
# frames,scale,variance_iters,count_large,bytes,kit,glibc,kernel,thp,flags,
# same_run_as.  Text fields are quoted when needed and a leading = + - @ is
# neutralised; same_run_as names the group of files that are copies of one
# run (most of their recorded times, temporary names and dates alike), and
# each pair is listed on stderr with how alike it is.
#
# In a DIR, a *.part (a make submit that did not finish) and a hidden file
# are not graded: a note on stderr names each.
#
# Exit: 0 every check passed; 1 any FAIL, or copies of one run; 3 no FAIL
# but some ENV; 4 INTEGRITY (any file); 2 bad usage, a file that is not a
# submission, or standard output that cannot be written.  Several files:
# the worst, in the order 2, 4, 1, 3, 0.
set -u -o pipefail
LC_ALL=C; export LC_ALL     # bytes are bytes: what is not printable ASCII is replaced
ROOT=$(dirname "$0")/..
prog=grade
. "$ROOT/tools/lib/lib.sh" || exit 2     # bad_usage
for lib in lib/csv.awk grading/steps.awk grading/grade.awk grading/copies.awk grading/gradescope.awk grading/steps grading/questions.sh grading/knobs; do
	[ -r "$ROOT/tools/$lib" ] || { printf 'grade: %s is missing\n' "$ROOT/tools/$lib" >&2; exit 2; }
done
G=$ROOT/tools/grading
L=$ROOT/tools/lib

USAGE="usage: tools/grade.sh [--csv | --feedback | --format report|csv|feedback|gradescope] [--key] [--knobs FILE] FILE|DIR..."
say() { printf '%s\n' "$*"; }              # a file's name is printed, never echoed
usage() { say "$USAGE"; }
shown() { printf '%s' "$1" | tr -c '[:print:]' '?'; }   # a name, safe to print
MODE=report SHOWKEY=0 KNOBS=$G/knobs
while [ $# -gt 0 ]; do
	case $1 in
	-h|--help) say "$USAGE"; exit 0 ;;
	--csv) MODE=csv ;;
	--feedback) MODE=feedback ;;
	--key) SHOWKEY=1 ;;
	--knobs) [ $# -ge 2 ] || bad_usage "--knobs wants a file"
		KNOBS=$2; shift ;;
	--format) [ $# -ge 2 ] || bad_usage "--format wants report, csv, feedback or gradescope"
		MODE=$2; shift ;;
	--format=*) MODE=${1#--format=} ;;
	--) shift; break ;;
	-*) bad_usage "unknown option '$(shown "$1")'" ;;
	*) break ;;
	esac
	shift
done
case $MODE in report|csv|feedback|gradescope) ;; *) bad_usage "--format wants report, csv, feedback or gradescope, not '$(shown "$MODE")'" ;; esac
[ -f "$KNOBS" ] && [ -r "$KNOBS" ] || bad_usage "cannot read the knobs file '$(shown "$KNOBS")'"
[ $# -ge 1 ] || bad_usage "no FILE or DIR to grade"
if [ $MODE = gradescope ] && { [ $# -ne 1 ] || [ -d "$1" ]; }; then
	bad_usage "--format gradescope grades one FILE"
fi

# Is the kit revision a submission names one of this kit's own?  (unknown
# when the grader does not run from a git checkout, e.g. on Gradescope)
HAVE_GIT=0
git -C "$ROOT" rev-parse --git-dir >/dev/null 2>&1 && HAVE_GIT=1
# Without git, a kit-revisions.txt beside the kit (make autograder writes
# one: every commit hash of its history) answers the same question.
# A kit without git (a ZIP download) is src-HASH, the hash of its sources
# (tools/lib/kitversion): known when they are this kit's own.  A revision's
# kit_sources (KIT_SOURCES, the submission's line, if it has one) must be
# that revision's sources as git holds them: "changed" otherwise.
kit_known() {
	rev=${1%-dirty}
	case $rev in ''|-*|*[!A-Za-z0-9._-]*) echo no; return ;; esac
	case $rev in src-*)
		if [ "${rev#src-}" = "$("$ROOT/tools/lib/kitversion" --sources 2>/dev/null)" ]; then echo yes; else echo no; fi
		return ;;
	esac
	if [ $HAVE_GIT = 1 ] && [ -n "${KIT_SOURCES:-}" ] && [ "$KIT_SOURCES" != unknown ] &&
	   git -C "$ROOT" cat-file -e "$rev^{commit}" 2>/dev/null &&
	   [ "$KIT_SOURCES" != "$("$ROOT/tools/lib/kitversion" --sources "$rev" 2>/dev/null)" ]; then
		echo changed; return
	fi
	if [ $HAVE_GIT = 1 ]; then
		if git -C "$ROOT" cat-file -e "$rev^{commit}" 2>/dev/null; then echo yes; else echo no; fi
	elif [ -r "$ROOT/kit-revisions.txt" ]; then
		rev=${rev##*-g}     # git describe's TAG-N-gHASH
		if grep -q "^$rev" "$ROOT/kit-revisions.txt"; then echo yes; else echo no; fi
	else
		echo unknown
	fi
}

SUMMARY=$(mktemp) || exit 2
# Standard output is kept in a file and copied out at the end: busybox awk
# ignores a failed write (>/dev/full, a full disk), cat does not.
OUTBUF=$(mktemp) || { rm -f "$SUMMARY"; exit 2; }
exec 3>&1 >"$OUTBUF"
flush_out() {
	local rc=$1
	if ! cat "$OUTBUF" >&3 2>/dev/null; then
		printf 'grade: cannot write to standard output\n' >&2
		rc=2
	fi
	rm -f "$SUMMARY" "$OUTBUF"
	exit "$rc"
}
trap 'flush_out $?' EXIT

# head_value KEY FILE: the first "KEY: value" line's value, as grade.awk
# reads it (a CR and trailing blanks dropped); reads only up to that line.
head_value() { sed -n "/^$1: /{s/^$1: //;s/\r\$//;s/[[:space:]]*\$//;p;q;}" "$2"; }

# grade_file FILE: print the report; exit status as above.
grade_file() {
	[ -r "$1" ] && [ -f "$1" ] || { say "grade: cannot read '$(shown "$1")'" >&2; return 2; }
	qknobs=
	# The student's parameters (a cksum of the name) only matter with a sheet.
	if grep -q -m 1 -e '^questions: ' -e '^@answers' "$1"; then
		qknobs=$("$G/questions.sh" params "$(head_value student "$1")" 2>/dev/null) || qknobs=
	fi
	known=$(KIT_SOURCES=$(head_value kit_sources "$1") kit_known "$(head_value kit "$1")")
	# The file comes on standard input: a name such as FRAMES=1.txt given
	# to awk as an argument would be read as an assignment, not a file.
	# results.json is written byte by byte (tools/grading/gradescope.awk).
	awk -v SUMMARY="$SUMMARY" -v SUBFILE="$1" -v STEPS="$G/steps" -v EXPECT_OUT="${EXPECT_OUT:-}" \
		-v MODE="$MODE" -v QKNOBS="$qknobs" -v KIT_KNOWN="$known" -v SHOWKEY=$SHOWKEY -v KNOBS_FILE="$KNOBS" \
		-f "$L/csv.awk" -f "$G/steps.awk" -f "$G/grade.awk" -f "$G/gradescope.awk" <"$1"
}

worst=0
note() { # fold an exit status into the worst so far: 2 > 4 > 1 > 3 > 0
	case $1 in
	2) worst=2 ;; 4) [ $worst = 2 ] || worst=4 ;;
	1) case $worst in 2|4) ;; *) worst=1 ;; esac ;;
	3) [ $worst = 0 ] && worst=3 ;;
	esac
}
one() { # FILE: grade it, with a heading when several are graded
	if [ $MODE = report ] || [ $MODE = feedback ]; then [ $many = 1 ] && say "== $(shown "$1")"; fi
	grade_file "$1"; rc=$?
	note $rc
	[ $rc = 2 ] && printf 'none\t%s\n' "$(shown "$1")" >>"$SUMMARY"
	return 0
}
many=0; [ $# -gt 1 ] && many=1
for arg in "$@"; do [ -d "$arg" ] && many=1; done
for arg in "$@"; do
	if [ -d "$arg" ]; then
		n=0
		for f in "$arg"/* "$arg"/.[!.]*; do
			[ -e "$f" ] || continue
			case ${f##*/} in
			*.part) say "grade: not grading $(shown "$f"): a .part is a make submit that did not finish" >&2; continue ;;
			.*) say "grade: not grading $(shown "$f"): a hidden file" >&2; continue ;;
			esac
			[ -f "$f" ] || continue
			n=$((n + 1))
			one "$f"
		done
		[ $n -gt 0 ] || { say "grade: no files to grade in $(shown "$arg")" >&2; exit 2; }
	else
		one "$arg"
	fi
done

# The CSV, and copies of one run found by their fingerprints (tools/grading/
# copies.awk: linear in the files and their values).
if [ $MODE = csv ] || { [ $MODE = report ] && [ $many = 1 ]; }; then
	[ $MODE = report ] && say "== one row a submission"
	say "file,student,date,status,score,max,answers,answers_max,fails,envs,frames,scale,variance_iters,count_large,bytes,kit,glibc,kernel,thp,flags,same_run_as"
	awk -F '\t' -f "$L/csv.awk" -f "$G/copies.awk" "$SUMMARY"
	case $? in 0) ;; 1) note 1 ;; *) exit 2 ;; esac
fi
exit $worst
