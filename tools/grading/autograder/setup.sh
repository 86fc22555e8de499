#!/usr/bin/env bash
# tools/grading/autograder/setup.sh - Gradescope runs this once, as root, while it
# builds the autograder's image (Ubuntu).  Grading an uploaded file needs
# only sh and awk; the compiler, make and strace are for the build check in
# run_autograder and for a course that re-runs the labs there (RERUN=1).
set -eu -o pipefail
apt-get update
DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends build-essential make strace
