#!/usr/bin/env bash
# tools/grading/questions.sh - a student's own parameters and answer sheet.
#   tools/grading/questions.sh params NAME   the knobs: Q_SIZE=... Q_L4=... Q_BUF=...
#   tools/grading/questions.sh sheet NAME    the answer sheet (make questions STUDENT=NAME)
# The parameters come from the name alone (POSIX cksum of it), so the
# student, make submit and the grader derive the same ones, and another
# name's sheet asks other numbers: a copied answer is wrong for this name.
# make submit ANSWERS=FILE runs the steps of tools/grading/steps marked "student"
# at these parameters and carries the answers; tools/grading/grade.awk marks them.
set -u -o pipefail
usage() { echo "usage: tools/grading/questions.sh params|sheet NAME" >&2; exit 2; }
case ${1:-} in
-h|--help) echo "usage: tools/grading/questions.sh params|sheet NAME"; exit 0 ;;
params|sheet) ;;
*) echo "questions: params or sheet, not '$(printf %s "${1:-}" | tr -c '[:print:]' '?')'" >&2; usage ;;
esac
[ $# -eq 2 ] || usage
[ -n "$2" ] || { echo "questions: no NAME (make questions STUDENT=name)" >&2; usage; }
case $2 in
[A-Za-z0-9]*) ;;
*) echo "questions: NAME must start with a letter or digit" >&2; usage ;;
esac
case $2 in *[!A-Za-z0-9@._-]*) echo "questions: NAME may hold letters, digits and @._- only" >&2; usage ;; esac

h=$(printf '%s' "$2" | cksum | cut -d' ' -f1)
# Lab 1: a frame from 36 MiB to about 60 MiB, over the 32 MiB cap (untuned,
# every frame is a mapping of its own), a multiple of 8 bytes (a pixel).
Q_SIZE=$(( 37748736 + (h % 3000) * 8192 + ((h / 3000) % 512) * 8 ))
# Lab 4: within 64 KiB either side of 32 MiB, where the cap decides.
Q_L4=$(( 33488896 + ((h / 11) % 16384) * 8 ))
# Lab 5: a buffer from 160 KiB to 956 KiB, from malloc (over the 128 KiB
# mmap threshold).
Q_BUF=$(( 163840 + ((h / 13) % 200) * 4096 ))

if [ "$1" = params ]; then
	echo "Q_SIZE=$Q_SIZE Q_L4=$Q_L4 Q_BUF=$Q_BUF"
	exit 0
fi

cat <<EOF
# malloc-labs answer sheet for $2.  Fill in each answer after its colon
# BEFORE you run the steps, then: make submit STUDENT=$2 ANSWERS=<this file>
# make submit runs these steps at your parameters and carries the answers;
# the grader marks each against first principles for your parameters and
# your machine (the header make submit writes: page size, faults a page,
# glibc), and shows your own measurement beside it.
# Whole numbers only.  Your parameters (do not edit; they come from your name):
answers: malloc-labs-answers 1
student: $2
q_size: $Q_SIZE
q_l4: $Q_L4
q_buf: $Q_BUF
# Lab 1, ./frames --no-thp --size $Q_SIZE --alloc malloc at FRAMES frames
# (make submit's FRAMES, 10 unless you set it), untuned and with --tune.
# Pages a frame spans (its $Q_SIZE bytes plus malloc's 16-byte header):
frame_pages:
# Untuned, minor faults a frame (your machine's faults for a page read then written):
faults_untuned:
# Untuned, mmap() and munmap() calls a frame:
mmap_untuned:
munmap_untuned:
# --tune, brk() calls a frame once the heap has grown:
brk_tuned:
# --tune, minor faults of the whole run (within 1%):
faults_tuned:
# --tune, corrupt sampled pixels of the whole run (one pixel in 64 bytes; within 1%):
corrupt_tuned:
# Lab 4, ./frames --no-thp --alloc memset --size $Q_L4 at 100 / SCALE frames
# (10 unless you set SCALE): frames that come from mmap:
l4_mmap_frames:
# The one setting (an environment variable or a tunable, name=value) that
# makes every frame of a 34 MiB run come from the heap on your glibc:
l4_fix:
# Lab 5, ./yes --size $Q_BUF --align malloc --bytes BYTES (16M unless you set
# BYTES): write() calls, and the buffer's address mod 4096:
yes_writes:
yes_addr_mod:
EOF
