#!/usr/bin/env bash
# tools/grade.sh [--csv | --feedback | --format gradescope] FILE|DIR... -
# grade malloc-labs submissions (`make submit`) from first principles.
# Shell and awk only (any POSIX awk: mawk has no FPAT, so CSV goes through
# tools/lib/csv.awk's csv_split).
#
# The model, the points and the tolerances live in tools/grading/grade.awk; the
# steps (and the commands each must have run) in tools/grading/steps.  Each check
# prints one line:
#   PASS|FAIL|ENV|SKIP  step  check  got  want  tolerance  points
# then `Answers: A/B` (the answer sheet, scored apart) and `Score: N/M`
# (the runs; M counts PASS, FAIL and ENV checks; SKIP is not applicable,
# e.g. Lab 6 in a format 1 file).  ENV means the environment the run saw
# makes the count incomparable (the reason follows); it is never turned
# into a PASS.  Times are recorded and listed as "not graded".
#
# Output, one of:
#   (default)     the report of each file; with a DIR or several files, one
#                 CSV block after all of them
#   --csv         only the CSV: one header, then one row a file
#   --feedback    each FAIL and ENV of each file, with what it means and
#                 what to try (a text to hand the student)
#   --format gradescope   Gradescope's results.json for one FILE
# The CSV: file,student,date,score,max,answers,answers_max,fails,envs,kit,
# glibc,kernel,thp,flags,same_run_as.  Text fields are quoted when needed
# and a leading = + - @ is neutralised; same_run_as names the other files
# whose every recorded time is the same (copies of one run).
#
# In a DIR, a *.part (a make submit that did not finish) and a hidden file
# are not graded: a note on stderr names each.
#
# Exit: 0 every check passed, 1 any FAIL (or copies of one run), 3 no FAIL
# but some ENV, 2 bad usage or a file that is not a submission (no header).
set -u -o pipefail
ROOT=$(dirname "$0")/..
for lib in lib/csv.awk grading/steps.awk grading/grade.awk grading/gradescope.awk grading/steps grading/questions.sh; do
	[ -r "$ROOT/tools/$lib" ] || { echo "grade: $ROOT/tools/$lib is missing" >&2; exit 2; }
done
G=$ROOT/tools/grading
L=$ROOT/tools/lib

USAGE="usage: tools/grade.sh [--csv | --feedback | --format report|csv|feedback|gradescope] FILE|DIR..."
usage() { echo "$USAGE" >&2; exit 2; }
shown() { printf '%s' "$1" | tr -c '[:print:]' '?'; }   # a name, safe to echo
MODE=report
while [ $# -gt 0 ]; do
	case $1 in
	-h|--help) echo "$USAGE"; exit 0 ;;
	--csv) MODE=csv ;;
	--feedback) MODE=feedback ;;
	--format) [ $# -ge 2 ] || { echo "grade: --format wants report, csv, feedback or gradescope" >&2; usage; }
		MODE=$2; shift ;;
	--format=*) MODE=${1#--format=} ;;
	--) shift; break ;;
	-*) echo "grade: unknown option '$(shown "$1")'" >&2; usage ;;
	*) break ;;
	esac
	shift
done
case $MODE in report|csv|feedback|gradescope) ;; *) echo "grade: --format wants report, csv, feedback or gradescope, not '$(shown "$MODE")'" >&2; usage ;; esac
[ $# -ge 1 ] || usage
if [ $MODE = gradescope ] && { [ $# -ne 1 ] || [ -d "$1" ]; }; then
	echo "grade: --format gradescope grades one FILE" >&2; usage
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

gs_locale=
[ $MODE = gradescope ] && gs_locale="env LC_ALL=C"
SUMMARY=$(mktemp) || exit 2
trap 'rm -f "$SUMMARY"' EXIT

# head_value KEY FILE: the first "KEY: value" line's value, as grade.awk
# reads it (a CR and trailing blanks dropped).
head_value() { sed -n "s/^$1: //p" "$2" | head -n 1 | tr -d '\r' | sed 's/[[:space:]]*$//'; }

# grade_file FILE: print the report; exit status as above.
grade_file() {
	[ -r "$1" ] && [ -f "$1" ] || { echo "grade: cannot read '$(shown "$1")'" >&2; return 2; }
	who=$(head_value student "$1")
	qknobs=$("$G/questions.sh" params "$who" 2>/dev/null) || qknobs=
	known=$(KIT_SOURCES=$(head_value kit_sources "$1") kit_known "$(head_value kit "$1")")
	# The file comes on standard input: a name such as FRAMES=1.txt given
	# to awk as an argument would be read as an assignment, not a file.
	# results.json is written byte by byte (tools/grading/gradescope.awk).
	$gs_locale awk -v SUMMARY="$SUMMARY" -v SUBFILE="$1" -v STEPS="$G/steps" -v EXPECT_OUT="${EXPECT_OUT:-}" \
		-v MODE="$MODE" -v QKNOBS="$qknobs" -v KIT_KNOWN="$known" \
		-f "$L/csv.awk" -f "$G/steps.awk" -f "$G/grade.awk" -f "$G/gradescope.awk" <"$1"
}

worst=0
note() { # fold an exit status into the worst so far: 2 > 1 > 3 > 0
	case $1 in
	2) worst=2 ;; 1) [ $worst = 2 ] || worst=1 ;; 3) [ $worst = 0 ] && worst=3 ;;
	esac
}
one() { # FILE: grade it, with a heading when several are graded
	if [ $MODE = report ] || [ $MODE = feedback ]; then [ $many = 1 ] && echo "== $(shown "$1")"; fi
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
			*.part) echo "grade: not grading $(shown "$f"): a .part is a make submit that did not finish" >&2; continue ;;
			.*) echo "grade: not grading $(shown "$f"): a hidden file" >&2; continue ;;
			esac
			[ -f "$f" ] || continue
			n=$((n + 1))
			one "$f"
		done
		[ $n -gt 0 ] || { echo "grade: no files to grade in $(shown "$arg")" >&2; exit 2; }
	else
		one "$arg"
	fi
done

# The CSV: same_run_as from the fingerprints (first pass), then the rows.
if [ $MODE = csv ] || { [ $MODE = report ] && [ $many = 1 ]; }; then
	[ $MODE = report ] && echo "== one row a submission"
	echo "file,student,date,score,max,answers,answers_max,fails,envs,kit,glibc,kernel,thp,flags,same_run_as"
	awk -F '\t' -f "$L/csv.awk" -f /dev/stdin "$SUMMARY" "$SUMMARY" <<-'AWK'
	NR == FNR { if ($1 != "none") { csv_split($2, f); who[$1] = who[$1] SUBSEP f[1]; cnt[$1]++ } next }
	$1 == "none" { print csv_field($2) ",,,,,,,,,,,,,not a submission,"; next }
	{
		o = ""
		if (cnt[$1] > 1) {
			csv_split($2, f); n = split(substr(who[$1], 2), w, SUBSEP)
			for (i = 1; i <= n; i++) if (w[i] != f[1]) o = o (o == "" ? "" : " ") w[i]
			copies++
		}
		print $2 "," csv_field(o)
	}
	END { if (copies) { print "grade: " copies " files share every recorded time with another file (same_run_as): copies of one run" > "/dev/stderr"; exit 1 } }
	AWK
	case $? in 0) ;; 1) note 1 ;; *) exit 2 ;; esac
fi
exit $worst
