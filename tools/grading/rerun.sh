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
cd "$(dirname "$0")/../.." || exit 1
usage() { echo "usage: tools/grading/rerun.sh SHEET...   (make rerun ANSWERS=SHEET)" >&2; exit 2; }
case ${1:-} in -h|--help) echo "usage: tools/grading/rerun.sh SHEET...   (make rerun ANSWERS=SHEET)"; exit 0 ;; -*|'') usage ;; esac
for sheet in "$@"; do
	[ -f "$sheet" ] && [ -r "$sheet" ] || { echo "rerun: cannot read '$(printf %s "$sheet" | tr -c '[:print:]' '?')'" >&2; exit 2; }
done
make --no-print-directory all >&2 || { echo "rerun: the kit does not build here" >&2; exit 1; }
mkdir -p submissions || exit 1
dir=$(mktemp -d submissions/rerun.XXXXXX) || exit 1
bad=0
for sheet in "$@"; do
	who=$(sed -n 's/^student: //p' "$sheet" | head -n 1 | tr -d '\r')
	echo "rerun: $(printf %s "$who" | tr -c '[:print:]' '?'): make submit here" >&2
	case $sheet in /*) ;; *) sheet=$PWD/$sheet ;; esac
	STUDENT=$who ANSWERS=$sheet OUT=$dir/$who.txt tools/submit.sh >/dev/null || { bad=1; continue; }
done
[ -n "$(ls "$dir")" ] || { echo "rerun: no sheet could be run" >&2; rmdir "$dir"; exit 1; }
tools/grade.sh "$dir"; rc=$?
echo "rerun: the submissions made here: $dir" >&2
[ $rc = 0 ] && [ $bad = 1 ] && rc=1
exit $rc
