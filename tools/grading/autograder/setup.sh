#!/usr/bin/env bash
# tools/grading/autograder/setup.sh - Gradescope runs this once, as root,
# while it builds the autograder's image (Ubuntu).  Grading an uploaded
# file (GRADE=file in run_autograder) needs only bash, awk and coreutils,
# which the image has.  Grading code (GRADE=code, the default) and
# re-running a sheet (GRADE=sheet) build and run the labs: a compiler,
# make, strace and binutils (nm, readelf) are installed when missing.
set -eu -o pipefail
here=$(dirname "$0")
for t in awk find sort; do
	command -v "$t" >/dev/null 2>&1 || { echo "setup.sh: $t is missing from the image" >&2; exit 1; }
done
grep -q '^GRADE=${GRADE:-file}' "$here/run_autograder" && exit 0
need=()
command -v cc >/dev/null 2>&1 || need+=(build-essential)
command -v make >/dev/null 2>&1 || need+=(make)
command -v strace >/dev/null 2>&1 || need+=(strace)
command -v readelf >/dev/null 2>&1 && command -v nm >/dev/null 2>&1 || need+=(binutils)
[ ${#need[@]} -eq 0 ] && exit 0
apt-get update
DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${need[@]}"
