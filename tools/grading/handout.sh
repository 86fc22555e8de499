#!/usr/bin/env bash
# tools/grading/handout.sh DIR - make handout OUT=DIR: the students' copy of
# the kit.  The kit's files as a ZIP download holds them (kit_copy), with
# every exercise region (tools/lib/exercise.awk) replaced by its stub from
# tools/exercises/: the skeleton as shipped, no solution in it.  The file
# tools/lib/handout marks the copy, so that its doors know what it is:
# grade.sh shows no key and marks no answer (the course's grader does),
# make handout and make autograder refuse (they need the solutions), and
# the tests that need a solution skip by name (make check grades those).
# DIR must not exist yet, or be empty, and lie outside the kit; the copy is
# made beside it and moved into place whole.
# Exit: 0 made; 1 the copy failed; 2 bad usage.
set -u -o pipefail
export LC_ALL=C
caller=$PWD
cd "$(dirname "$0")/../.." || exit 1
prog=handout
. tools/lib/lib.sh || exit 1
usage() { echo "usage: make handout OUT=DIR   (DIR new or empty, outside the kit)"; }
case ${1:-} in
-h|--help) usage; exit 0 ;;
'') bad_usage "no OUT: name the directory to write" ;;
esac
[ $# = 1 ] || bad_usage "one DIR, not $#"
out=$1
from_caller out
[ ! -e tools/lib/handout ] ||
	bad_usage "this is a handout already: make handout runs in the instructor's kit"
if [ -e "$out" ] && { [ ! -d "$out" ] || [ -n "$(ls -A "$out" 2>/dev/null)" ]; }; then
	bad_usage "'$(shown "$out")' exists and is not an empty directory: not writing over it"
fi
parent=$(dirname "$out")
mkdir -p "$parent" 2>/dev/null && [ -w "$parent" ] || bad_usage "cannot write in '$(shown "$parent")'"
top=$(pwd -P) where=$(cd "$parent" && pwd -P)
case $where/ in "$top"/*) bad_usage "'$(shown "$out")' is inside the kit: name a directory outside it" ;; esac

regions=$(awk -v DO=list -f tools/lib/exercise.awk $(lab_programs | sed 's/$/.c/')) || exit 1
stage=$(mktemp -d "$parent/.handout.XXXXXX") || die "cannot write in '$(shown "$parent")'"
trap 'rm -rf "$stage"' EXIT
kit_copy "$stage" || die "the kit could not be copied"
for f in $(printf '%s\n' "$regions" | awk '!seen[$2]++ { print $2 }'); do
	awk -v DO=stub -v STUBS=tools/exercises -f tools/lib/exercise.awk "$f" >"$stage/$f" || exit 1
done
# A ZIP download's tools/lib/kit-commit names the kit's commit; the
# handout's sources are not that commit's, so it names none (kitversion
# then hashes the handout's own sources, or asks git where there is one).
printf '%s\n' '$Format:%h$' >"$stage/tools/lib/kit-commit"
{
	echo "# A malloc-labs handout: the exercise regions hold their stubs."
	echo "# Its doors read this file: see tools/grading/handout.sh."
	echo "from_kit: $(tools/lib/kitversion 2>/dev/null || echo unknown)"
	echo "made: $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
	printf '%s\n' "$regions" | awk '{ print "region: " $1 " " $2 }'
} >"$stage/tools/lib/handout" || die "cannot write the handout's mark"
if [ -d "$out" ]; then rmdir "$out" || die "cannot replace the empty '$(shown "$out")'"; fi
mv "$stage" "$out" || die "cannot move the handout into '$(shown "$out")'"
trap - EXIT
n=$(printf '%s\n' "$regions" | wc -l)
echo "handout: $(shown "$out") ($n exercise regions, each its stub; no solutions)"
echo "try it: cd $(shown "$out") && make check   (the stubs score under half)"
