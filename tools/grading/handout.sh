#!/usr/bin/env bash
# tools/grading/handout.sh DIR - make handout OUT=DIR: the students' copy of
# the kit.  The kit's files as a ZIP download holds them (kit_copy), with
# every exercise region (tools/lib/exercise.awk) replaced by its stub from
# tools/exercises/: the skeleton as shipped, no solution in it.  The file
# tools/lib/handout marks the copy, so that its doors know what it is:
# grade.sh marks no answer (the course's grader does; its grade.awk holds
# no code that would, so deleting the mark shows no key either),
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

regions=$(kit_regions) || exit 1
stage=$(mktemp -d "$parent/.handout.XXXXXX") || die "cannot write in '$(shown "$parent")'"
trap 'rm -rf "$stage"' EXIT
kit_copy "$stage" || die "the kit could not be copied"
for f in $(printf '%s\n' "$regions" | awk '!seen[$2]++ { print $2 }'); do
	awk -v DO=stub -v STUBS=tools/exercises -f tools/lib/exercise.awk "$f" >"$stage/$f" || exit 1
done
# No key: grade.awk without what marks the answers (its KEY lines), with
# its "#handout: " lines in their place.
awk '/^# ---- KEY:/ { key = 1 } key { if (/^# ---- END KEY$/) key = 0; next } { sub(/^#handout: /, ""); print }' \
	tools/grading/grade.awk >"$stage/tools/grading/grade.awk" || die "cannot write the handout's grade.awk"
grep -q '^function ask_answers() { }$' "$stage/tools/grading/grade.awk" || die "grade.awk's KEY lines are not where handout.sh looks"
# A handout is its kit's revision with the regions replaced: it names the
# kit's commit (tools/lib/kit-commit) with the hash of the kit's sources,
# regions stubbed (tools/lib/kit-sources), so that a file make submit
# writes there names a revision the kit's grader knows (tools/lib/
# kitversion).  A kit with changes no commit holds names none.
v=$(tools/lib/kitversion 2>/dev/null) c=
case $v in ''|src-*|*-dirty) ;;
*) c=$(git rev-parse --short HEAD 2>/dev/null || tr -cd 'A-Za-z0-9' <tools/lib/kit-commit) ;;
esac
printf '%s\n' "${c:-\$Format:%h\$}" >"$stage/tools/lib/kit-commit" &&
	tools/lib/kitversion --handout-sources >"$stage/tools/lib/kit-sources" || die "cannot write the handout's kit lines"
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
