#!/usr/bin/env bash
# tools/grading/rerun.sh SHEET... - make rerun ANSWERS=SHEET: re-run where it
# matters.  For a course that wants measurements it made itself: each
# student's filled answer sheet in (make questions), the kit built here and
# make submit run here at the sheet's name (so at the student's own
# parameters), then every new submission graded together (tools/grade.sh
# DIR: a report each, then the CSV).  The knobs (FRAMES SCALE ...) come from
# the environment as for make submit; an allocator setting inherited here
# is refused as it would be for a student.
# Exit: as tools/grade.sh; 1 also when a sheet could not be run.
set -u -o pipefail
export LC_ALL=C
cd "$(dirname "$0")/../.." || exit 1
prog=rerun
. tools/lib/lib.sh || exit 1      # die, bad_usage, shown
usage() { printf '%s\n' "usage: tools/grading/rerun.sh SHEET...   (make rerun ANSWERS=SHEET)"; }
case ${1:-} in -h|--help) usage; exit 0 ;; '') bad_usage "no SHEET" ;; -*) bad_usage "unknown option '$(shown "$1")'" ;; esac
for sheet in "$@"; do
	[ -f "$sheet" ] && [ -r "$sheet" ] || bad_usage "cannot read '$(shown "$sheet")'"
done
make --no-print-directory all >&2 || die "the kit does not build here"
mkdir -p submissions || exit 1
dir=$(mktemp -d submissions/rerun.XXXXXX) || exit 1
bad=0
for sheet in "$@"; do
	who=$(sed -n '/^student: /{s/^student: //;s/\r$//;p;q;}' "$sheet")
	printf 'rerun: %s: make submit here\n' "$(shown "$who")" >&2
	case $sheet in /*) ;; *) sheet=$PWD/$sheet ;; esac
	STUDENT=$who ANSWERS=$sheet OUT=$dir/$who.txt tools/submit.sh >/dev/null || { bad=1; continue; }
done
[ -n "$(ls "$dir")" ] || { rmdir "$dir"; die "no sheet could be run"; }
tools/grade.sh "$dir"; rc=$?
printf 'rerun: the submissions made here: %s\n' "$dir" >&2
[ $rc = 0 ] && [ $bad = 1 ] && rc=1
exit $rc
