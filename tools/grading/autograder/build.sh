#!/bin/sh
# tools/grading/autograder/build.sh - make autograder: build/autograder.zip for
# Gradescope ("Configure Autograder", zip upload).  Its root holds the
# kit's tracked files as they are now, setup.sh and run_autograder,
# kit-revisions.txt (this kit's history, so the grader can tell a known kit
# revision without git), and tools/lib/kit-commit filled in as git archive
# fills it (export-subst): a re-run there names the revision the zip was
# built from (tools/lib/kitversion), not only its sources' hash.
set -eu -o pipefail
cd "$(dirname "$0")/../../.."
command -v zip >/dev/null 2>&1 || { echo "autograder: zip is not installed (apt-get install zip)" >&2; exit 1; }
git rev-parse --git-dir >/dev/null 2>&1 || { echo "autograder: not a git checkout: the zip holds the tracked files" >&2; exit 1; }
out=build/autograder
rm -rf "$out" build/autograder.zip
mkdir -p "$out"
git ls-files -z | xargs -0 cp --parents -t "$out"
git rev-list HEAD >"$out/kit-revisions.txt"
git rev-parse --short HEAD >"$out/tools/lib/kit-commit"
cp tools/grading/autograder/setup.sh tools/grading/autograder/run_autograder "$out/"
chmod +x "$out/setup.sh" "$out/run_autograder"
(cd "$out" && zip -qr ../autograder.zip .)
echo "autograder: build/autograder.zip ($(wc -c <build/autograder.zip) bytes): upload it in Gradescope's Configure Autograder"
