#!/usr/bin/env bash
# tools/grading/autograder/build.sh - make autograder: build/autograder.zip for
# Gradescope ("Configure Autograder", zip upload).  Its root holds the
# kit's tracked files as they are now, setup.sh and run_autograder,
# kit-revisions.txt (this kit's history, so the grader can tell a known kit
# revision without git), and tools/lib/kit-commit filled in as git archive
# fills it (export-subst): a re-run there names the revision the zip was
# built from (tools/lib/kitversion), not only its sources' hash.
# Bash (dash, /bin/sh on Debian, has no pipefail): the Makefile runs it by
# its #! line.
set -u -o pipefail
cd "$(dirname "$0")/../../.." || exit 1
. tools/lib/lib.sh
prog=autograder
# A handout's regions are stubs: its grader would know no solution.
[ ! -e tools/lib/handout ] || { echo "$prog: this is a handout: make autograder runs in the instructor's kit" >&2; exit 2; }
command -v zip >/dev/null 2>&1 || die "zip is not installed (apt-get install zip)"
git rev-parse --git-dir >/dev/null 2>&1 || die "not a git checkout: the zip holds the tracked files"
out=build/autograder
rm -rf "$out" build/autograder.zip || die "cannot remove the old $out"
mkdir -p "$out" || die "cannot create $out/"
git ls-files -z | xargs -0 cp --parents -t "$out" || die "cannot copy the tracked files to $out/"
git rev-list HEAD >"$out/kit-revisions.txt" || die "git rev-list HEAD failed"
git rev-parse --short HEAD >"$out/tools/lib/kit-commit" || die "git rev-parse HEAD failed"
cp tools/grading/autograder/setup.sh tools/grading/autograder/run_autograder "$out/" &&
	chmod +x "$out/setup.sh" "$out/run_autograder" || die "cannot copy setup.sh and run_autograder"
(cd "$out" && zip -qr ../autograder.zip .) || die "zip failed"
echo "autograder: build/autograder.zip ($(wc -c <build/autograder.zip) bytes): upload it in Gradescope's Configure Autograder"
