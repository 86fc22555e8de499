#!/usr/bin/env bash
# tools/grading/classroom/regrade.sh [LOGIN=]CLONE... - the grade of
# record for a GitHub Classroom assignment, made on the instructor's
# machine from the students' repositories (each CLONE checked out at its
# last commit before the deadline).  The workflow in a student's
# repository (malloc-labs.yml, run.sh) is feedback only: the student can
# edit it.  Here, from this kit alone:
#   - the code: tools/grading/recheck.sh takes the exercise regions of the
#     clone's lab programs and measures them in this kit's own programs;
#   - the sheet: answers/*.txt made for LOGIN (the clone's GitHub login:
#     LOGIN=, or the clone's directory name), re-run here by make submit
#     at that name and graded; a sheet made for another name earns 0,
#     and so do two made for LOGIN (neither is picked by what it says).
# Standard output: the gradebook CSV, a header, then a row a clone in the
# order given: student,clone,score,max,answers,answers_max,refused,note
# (refused: the exercises whose regions were refused; note: why a clone
# or its sheet could not be graded).  What each recheck printed goes to
# REGRADE_LOG (default: a directory made here, named on stderr).
# Knobs (environment): as make check's and make submit's.
# Exit: 0 every clone graded; 1 some could not be (its row says why, and
# the others are graded all the same); 2 bad usage.
set -u -o pipefail
export LC_ALL=C
caller=$PWD
cd "$(dirname "$0")/../../.." || exit 2
prog=regrade
. tools/lib/lib.sh || exit 2
usage() { echo "usage: tools/grading/classroom/regrade.sh [--no-isolation-i-trust-this-code] [LOGIN=]CLONE...   (each CLONE a student's repository)"; }
# (recheck.sh runs each clone's code in tools/grading/sandbox, or refuses)
trust=()
[ "${1:-}" = --no-isolation-i-trust-this-code ] && { trust=("$1"); shift; }
case ${1:-} in -h|--help) usage; exit 0 ;; '') bad_usage "no CLONE" ;; -*) bad_usage "unknown option '$(shown "$1")'" ;; esac
[ ! -e tools/lib/handout ] || bad_usage "this is a handout: the grade of record runs in the instructor's kit"
LOG=${REGRADE_LOG:-}
if [ -z "$LOG" ]; then LOG=$(mktemp -d "${TMPDIR:-/tmp}/regrade.XXXXXX") || die "no temporary directory"; fi
mkdir -p "$LOG" || die "cannot write $(shown "$LOG")"
echo "$prog: each clone's output in $(shown "$LOG")" >&2
make -s all tools/grading/regioncheck >&2 || die "the kit does not build here"

# field FILE NAME: the CSV column NAME of tools/grade.sh --csv's row.
field() { tools/lib/csvget "$2" "$1" 2>/dev/null; }
# row FIELD...: one CSV row, each field as a spreadsheet keeps text.
CSV_LIB=$(cat tools/lib/csv.awk) || die "tools/lib/csv.awk cannot be read"
row() {
	awk "$CSV_LIB"' BEGIN { for (i = 1; i < ARGC; i++) printf "%s%s", (i > 1 ? "," : ""), csv_field(ARGV[i]); print ""; exit }' "$@"
}

row student clone score max answers answers_max refused note
bad=0 i=0
for arg in "$@"; do
	i=$((i + 1))
	case $arg in *=*) login=${arg%%=*} clone=${arg#*=} ;; *) login= clone=$arg ;; esac
	from_caller clone
	[ -n "$login" ] || login=$(basename "$clone")
	out=$LOG/$i-$(printf '%s' "$login" | tr -c 'A-Za-z0-9._-' '_')
	progress "$i of $#: $(shown "$login")"
	if [ ! -d "$clone" ]; then
		row "$login" "$arg" 0 "" "" "" "" "not a directory"; bad=1; continue
	fi
	tools/grading/recheck.sh ${trust[@]+"${trust[@]}"} "$clone" >"$out.code" 2>&1; rc=$?
	score=$(sed -n 's/^Score: \([0-9]*\)\/[0-9]*$/\1/p' "$out.code" | tail -n 1)
	max=$(sed -n 's/^Score: [0-9]*\/\([0-9]*\)$/\1/p' "$out.code" | tail -n 1)
	if [ $rc -gt 1 ] || [ -z "$score" ]; then
		row "$login" "$arg" 0 "" "" "" "" "the code could not be re-run: $(shown "$(tail -n 1 "$out.code")")"; bad=1; continue
	fi
	refused=$(awk '$3 == "REFUSED" { printf "%s%s", (n++ ? " " : ""), $1 }' "$out.code")
	# The sheet: the one made for this login, re-run here.  (A re-run
	# without the sandbox's whole isolation is said in the note.)
	answers= amax= note=$(sed -n 's/^Unsealed: /code unsealed: /p' "$out.code" | tail -n 1)
	# (the grader's copies of the clone's answers/*.txt, read with bounds:
	# upload_files, upload_copy; a link, a device or a FIFO is no sheet)
	sheets=() mine= n=0
	while IFS= read -r -d '' s; do
		rel=${s#"$clone"} rel=${rel#/}
		[[ $rel == answers/* && $rel != answers/*/* ]] || continue
		n=$((n + 1)) c=$out.answer-$n.txt
		upload_copy "$s" "$c" && grep -q '^answers: malloc-labs-answers' "$c" && sheets+=("$c")
	done < <(upload_files "$clone" '*.txt' 2)
	n=0
	for s in ${sheets[@]+"${sheets[@]}"}; do
		w=$(sed -n 's/^student: //p' "$s" | head -n 1 | tr -d '\r')
		[ "$(printf '%s' "$w" | tr 'A-Z' 'a-z')" = "$(printf '%s' "$login" | tr 'A-Z' 'a-z')" ] && mine=$s n=$((n + 1))
	done
	if [ $n -gt 1 ]; then   # never one picked by what it says of itself
		answers=0 note="${note:+$note; }$n answer sheets are made for $login: none is graded (keep one)"; mine=
	elif [ -n "$mine" ]; then
		who=$(sed -n 's/^student: //p' "$mine" | head -n 1 | tr -d '\r')
		if STUDENT=$who ANSWERS=$mine OUT=$out.sheet.txt tools/submit.sh >"$out.sheet.log" 2>&1 &&
		   tools/grade.sh --csv "$out.sheet.txt" >"$out.sheet.csv" 2>/dev/null; [ -s "$out.sheet.csv" ]; then
			answers=$(field "$out.sheet.csv" answers) amax=$(field "$out.sheet.csv" answers_max)
		else note="${note:+$note; }the sheet could not be re-run: $(shown "$(tail -n 1 "$out.sheet.log")")"; bad=1; fi
	elif [ ${#sheets[@]} -gt 0 ]; then
		answers=0 note="${note:+$note; }the answer sheet is not made for $login"
	fi
	row "$login" "$arg" "$score" "$max" "$answers" "$amax" "$refused" "$note"
done
progress
exit $bad
