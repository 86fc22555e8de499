#!/usr/bin/env bash
# tools/labs/lab4.sh [table|tunables|strace] - Lab 4's runs, as `make lab4`,
# `make lab4-tunables` and `make lab4-strace` start them.
#   table     frames of fixed and varying sizes, malloc + memset + free
#             each, with glibc's default policy, with the two MALLOC_*_
#             variables, and with the GLIBC_TUNABLES spelling of the same
#             two settings: minor faults and sys time of each, measured here;
#             the last two rows sit either side of the cap's edge, which
#             ./frames --edge works out for this glibc and page size
#   tunables  the 34 MiB row in full, the same three ways: every line frames
#             prints, including the "# set:" lines naming what was set
#   strace    the 30 MiB and 34 MiB rows, untuned, under strace -c: one mmap
#             for the whole 30 MiB run, one mmap and munmap a frame at 34
# SCALE=N divides every frame count by N (make lab4 SCALE=10: a tenth).
# The first failed run stops the script with its reason, exit 1.
set -u -o pipefail
cd "$(dirname "$0")/../.." || exit 1
. tools/lib/lib.sh
prog=lab4
MODE=${1:-table}
lab_knobs lab4 "$MODE"          # SCALE: tools/labs/knobs, or exit 2
usage() { echo "usage: tools/labs/lab4.sh [table|tunables|strace]"; }
case $MODE in
table|tunables|strace) ;;
*) bad_usage "no mode '$MODE'" ;;
esac
need_built frames
leftover_settings "untuned and env runs"
scratch_dir
# Lab 4's edge (frames.c works it out for this glibc and page size): the
# largest frame whose freed block raises the threshold past it; and the
# next whole-pixel size, which maps every frame.
EDGE=$(./frames --edge) || die "./frames --edge failed"

# The thresholds the grader's Lab 4 steps set too (tools/grading/steps.awk,
# steps_derive()): THR 256 MiB, above every size here, so the heap serves
# them all; TRIM 512 MiB, so free() does not give the heap top back.
THR=$(awk -v KIND=knob -v NAME=THR -f tools/grading/steps.awk) &&
	TRIM=$(awk -v KIND=knob -v NAME=TRIM -f tools/grading/steps.awk) || die "tools/grading/steps.awk gives no THR, TRIM"
ENVVARS="MALLOC_MMAP_THRESHOLD_=$THR MALLOC_TRIM_THRESHOLD_=$TRIM"
TUNABLES="GLIBC_TUNABLES=glibc.malloc.mmap_threshold=$THR:glibc.malloc.trim_threshold=$TRIM"

# frames_for N [MIN]: N frames divided by SCALE, at least MIN (default 1).
frames_for() { local n=$(( $1 / SCALE )); [ "$n" -ge "${2:-1}" ] || n=${2:-1}; echo "$n"; }

# cell NAME ENV ARGS...: one run as CSV into $TMPD/NAME; a failure stops all.
cell() {
	local name=$1 envs=$2
	shift 2
	# shellcheck disable=SC2086
	env $envs ./frames --alloc memset --csv "$@" >"$TMPD/$name" ||
		die "the run failed: ${envs:+$envs }./frames --alloc memset $*"
}
get() { tools/lib/csvget "$1" "$TMPD/$2" || die "no column $1 in the run's CSV"; }
sys_s() { printf '%.2f' "$(get sys_s "$1")"; }

# Two tables of the same rows, so each fits 80 columns: the faults (with the
# untuned run's mmapped frames) printed as each row is measured, the sys
# seconds after the last row from what $TMPD/sys kept.
FAULTS_ROW='%-16s %6s %10s %8s %10s %10s\n'
SYS_ROW='%-16s %6s %10s %10s %10s\n'

table() {
	local rows=("1M 0 300" "8M 0 300" "48M 0 300" "8M 1536K 300" "30M 0 100" "32M 0 100"
		    "34M 0 100" "$EDGE 0 20" "$((EDGE + 8)) 0 20") row size vary n args label i=0 min
	echo "Each row runs  ./frames --alloc memset --size SIZE [--vary V] --frames N"
	echo "three times: untuned, then with the env vars, then with the tunables, and"
	echo "counts the whole run (every frame is malloc + memset + render + check +"
	echo "free).  untuned = glibc's defaults, dynamic threshold included.  mmapped:"
	echo "the untuned run's frames that were mmapped."
	echo "env vars: $ENVVARS"
	echo "tunables: GLIBC_TUNABLES=glibc.malloc.mmap_threshold=$THR:"
	echo "          glibc.malloc.trim_threshold=$TRIM"
	echo "          (one variable, split here to fit)"
	echo
	echo "Minor faults, whole run:"
	# shellcheck disable=SC2059
	printf "$FAULTS_ROW" size frames untuned mmapped "env vars" tunables
	: >"$TMPD/sys"
	for row in "${rows[@]}"; do
		read -r size vary n <<<"$row"
		i=$((i + 1))
		# Either side of the edge, 3 frames at least: the first is always mapped.
		min=1
		[ "$i" -gt 7 ] && min=3
		n=$(frames_for "$n" "$min")
		args="--size $size --frames $n"
		label=$size
		if [ "$vary" != 0 ]; then args="$args --vary $vary"; label="$size vary $vary"; fi
		progress "row $i of ${#rows[@]}: $label, $n frames, untuned"
		# shellcheck disable=SC2086
		cell u "" $args
		progress "row $i of ${#rows[@]}: $label, $n frames, env vars"
		# shellcheck disable=SC2086
		cell e "$ENVVARS" $args
		progress "row $i of ${#rows[@]}: $label, $n frames, tunables"
		# shellcheck disable=SC2086
		cell t "$TUNABLES" $args
		progress
		# shellcheck disable=SC2059
		printf "$FAULTS_ROW" "$label" "$n" "$(get minor_faults u)" "$(get mmap_frames u)" \
			"$(get minor_faults e)" "$(get minor_faults t)"
		# shellcheck disable=SC2059
		printf "$SYS_ROW" "$label" "$n" "$(sys_s u)" "$(sys_s e)" "$(sys_s t)" >>"$TMPD/sys"
	done
	echo
	echo "System time (s), whole run:"
	# shellcheck disable=SC2059
	printf "$SYS_ROW" size frames untuned "env vars" tunables
	cat "$TMPD/sys"
	echo
	echo "Read it: up to the edge the untuned column pays for one or two blocks only (the"
	echo "first free() of an mmapped block raises the threshold to its size); past it"
	echo "every frame is a fresh mmap: the threshold rises only to a freed block under"
	echo "32 MiB (glibc compares the size with its mmapped flag: exactly 32 MiB fails)."
	echo "Both tuned columns should show about one block's pages for the whole run."
	echo "The edge (./frames --edge, this glibc and $(getconf PAGESIZE)-byte pages):"
	echo "$EDGE bytes is the largest frame whose freed block raises the threshold past"
	echo "it, so the next frame comes from the heap; $((EDGE + 8)) maps every frame.  Up"
	echo "to glibc 2.42 the edge is 32 MiB - page - 24 bytes: larger pages move it down."
}

# show WORDS...: a blank line, then the command as typed (tools/lib/lib.sh).
show() { echo; show_cmd "$@"; }

tunables() {
	local n setting
	n=$(frames_for 100)
	echo "The 34 MiB row (above the dynamic threshold's 32 MiB cap) three ways: untuned,"
	echo "the two MALLOC_*_ variables, the same two settings as GLIBC_TUNABLES.  Each"
	echo "run's '# set:' lines say what it set; 'from mmap' and 'minor faults' what it"
	echo "did."
	for setting in "" "$ENVVARS" "$TUNABLES"; do
		# shellcheck disable=SC2086
		show $setting ./frames --alloc memset --size 34M --frames "$n"
		# shellcheck disable=SC2086
		env $setting ./frames --alloc memset --size 34M --frames "$n" |
			drop_env_header ||
			die "the run failed: $setting ./frames --alloc memset --size 34M --frames $n"
	done
	echo
	echo "Read it: untuned, every frame is mmapped and unmapped (from mmap: all of them),"
	echo "so every frame faults in its pages again.  Either spelling pins both thresholds"
	echo "above the frame: one block's faults for the whole run, from mmap 0."
}

strace_rows() {
	local n size calls mm mu
	if ! strace_works; then echo "$prog: skipped: $STRACE_WHY"; return 0; fi
	n=$(frames_for 100)
	for size in 30M 34M; do
		echo
		show_cmd strace -f -c -e trace=brk,mmap,munmap ./frames --alloc memset --size "$size" \
			--frames "$n"
		strace -f -c -e trace=brk,mmap,munmap -o "$TMPD/$size.strace" \
			./frames --alloc memset --size "$size" --frames "$n" >"$TMPD/$size.out" ||
			die "the run failed under strace: ./frames --alloc memset --size $size"
		cat "$TMPD/$size.strace"
	done
	echo
	printf '%-8s %7s %7s %7s %11s %13s\n' size frames mmap munmap "from mmap" "minor faults"
	for size in 30M 34M; do
		mm=$(strace_calls "$TMPD/$size.strace" mmap)
		mu=$(strace_calls "$TMPD/$size.strace" munmap)
		calls=$(awk '{ l = $0; sub(/^ +/, "", l) } l ~ /^from mmap:/ { print $3 }' "$TMPD/$size.out")
		printf '%-8s %7d %7d %7d %11s %13s\n' "$size" "$n" "${mm:-0}" "${mu:-0}" "$calls" \
			"$(awk '{ l = $0; sub(/^ +/, "", l) } l ~ /^minor faults:/ { print $3 }' "$TMPD/$size.out")"
	done
	echo
	echo "Read it: a few mmap calls are the loader's and libc's at start-up.  At 30 MiB"
	echo "one more mmap and munmap serve the whole run (the first frame; its free()"
	echo "raises the threshold).  At 34 MiB every frame adds one mmap and one munmap: the"
	echo "threshold cannot rise to 34 MiB, so malloc() maps each frame and free() unmaps"
	echo "it."
	echo "Count the calls; ignore strace's time columns: strace stops the program at"
	echo "every traced call, so its times are strace's, not malloc's."
}

./frames --env || die "./frames --env failed"
case $MODE in
table) table ;;
tunables) tunables ;;
strace) strace_rows ;;
esac
