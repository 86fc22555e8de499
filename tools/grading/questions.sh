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
prog=questions
. "$(dirname "$0")/../lib/lib.sh" || exit 2     # bad_usage
usage() { printf '%s\n' "usage: tools/grading/questions.sh params|sheet NAME | params-list <NAMES"; }
# name_problem NAME: WHY is set to why NAME cannot name a student, or
# emptied (it can); no subshell, so a class of names costs no processes.
name_problem() {
	case $1 in
	'') WHY="no NAME (make questions STUDENT=name)" ;;
	[!A-Za-z0-9]*) WHY="NAME must start with a letter or digit" ;;
	*[!A-Za-z0-9@._-]*) WHY="NAME may hold letters, digits and @._- only" ;;
	*) WHY= ;;
	esac
}
case ${1:-} in
-h|--help) usage; exit 0 ;;
params|sheet) [ $# -eq 2 ] || bad_usage "params or sheet, then one NAME" ;;
params-list) [ $# -eq 1 ] || bad_usage "params-list reads the names on standard input" ;;
*) bad_usage "params, sheet or params-list, not '$(shown "${1:-}")'" ;;
esac

# q_params H: Q_SIZE, Q_L4 and Q_BUF for a name whose POSIX cksum is H.
q_params() {
	local h=$1
	# Lab 1: a frame from 36 MiB to about 60 MiB, over the 32 MiB cap (untuned,
	# every frame is a mapping of its own), a multiple of 8 bytes (a pixel).
	Q_SIZE=$(( 37748736 + (h % 3000) * 8192 + ((h / 3000) % 512) * 8 ))
	# Lab 4: from 32 MiB - 128 KiB to 32 MiB + 64 KiB, where the cap decides.
	# Frames come back from the heap up to ./frames --edge (Lab 4's edge):
	# on glibc 2.35-2.42 32 MiB - page - 24 bytes, 33,550,312 at 4 KiB pages,
	# 33,538,024 at 16 KiB, 33,488,872 at 64 KiB; the range holds each edge
	# (a third of the names fall below the 64 KiB one, two thirds below 4 KiB's).
	Q_L4=$(( 33423360 + ((h / 11) % 24576) * 8 ))
	# Lab 5: a buffer from 256 KiB to 1,052 KiB, from malloc: over the 128 KiB
	# mmap threshold, and over what the heap's first growth leaves free on any
	# page size (up to 176 KiB at 64 KiB pages, where a smaller buffer is
	# carved from the heap and its address is not a mapping's page + 16).
	Q_BUF=$(( 262144 + ((h / 13) % 200) * 4096 ))
}

# params-list: a line for each name read, its knobs, or "-" for a name
# that cannot be a student's; one cksum for them all (the grader asks
# for a whole class at once).
if [ "$1" = params-list ]; then
	T=$(mktemp -d) || die "no temporary directory"
	trap 'rm -rf "$T"' EXIT
	n=0 good=()
	while IFS= read -r name || [ -n "$name" ]; do
		n=$((n + 1))
		name_problem "$name"
		[ -z "$WHY" ] || continue
		printf '%s' "$name" >"$T/$n" || die "cannot write $T/$n"
		good+=("$n")
	done
	declare -A sum=()
	if [ ${#good[@]} -gt 0 ]; then
		while read -r crc _ path; do sum[$path]=$crc; done < <(cd "$T" && cksum "${good[@]}")
	fi
	for ((i = 1; i <= n; i++)); do
		if [ -n "${sum[$i]:-}" ]; then
			q_params "${sum[$i]}"
			echo "Q_SIZE=$Q_SIZE Q_L4=$Q_L4 Q_BUF=$Q_BUF"
		else
			echo -
		fi
	done
	exit 0
fi

name_problem "$2"
[ -z "$WHY" ] || bad_usage "$WHY"
q_params "$(printf '%s' "$2" | cksum | cut -d' ' -f1)"
if [ "$1" = params ]; then
	echo "Q_SIZE=$Q_SIZE Q_L4=$Q_L4 Q_BUF=$Q_BUF"
	exit 0
fi

# Every line fits 80 columns whatever the name (up to 64 characters): the
# name is on the student: line alone.
cat <<EOF
# malloc-labs answer sheet.  Fill in each answer after its colon BEFORE you
# run the steps, then, with the name on the student: line below:
#   make submit STUDENT=<that name> ANSWERS=<this file>
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
# Untuned, minor faults a frame (at your machine's faults for a page that is
# read, then written):
faults_untuned:
# Untuned, mmap() and munmap() calls a frame:
mmap_untuned:
munmap_untuned:
# --tune, brk() calls a frame once the heap has grown:
brk_tuned:
# --tune, minor faults of the whole run (within 1%):
faults_tuned:
# --tune, corrupt sampled pixels of the whole run (one pixel in 64 bytes;
# within 1%):
corrupt_tuned:
# Lab 4, ./frames --no-thp --alloc memset --size $Q_L4 at 100 / SCALE frames
# (10 unless you set SCALE): frames that come from mmap:
l4_mmap_frames:
# A setting (an environment variable or a tunable, name=value) that makes
# every frame of a 34 MiB run come from the heap on your glibc (make lab4's
# tuned columns set two thresholds: one of them is enough for this):
l4_fix:
# Lab 5, ./yes --size $Q_BUF --align malloc --bytes BYTES (16M unless you set
# BYTES): write() calls, and the buffer's address mod the page size:
yes_writes:
yes_addr_mod:
EOF
