#!/usr/bin/env bash
# tools/labs/demo-strace.sh - `make demo-strace`: Lab 1's completed program
# (calloc a frame, render, check, free) with glibc's default policy and
# tuned (--tune), each under strace -f -c, and the counts side by side in
# 80 columns for a projector: brk, mmap, munmap, page faults, frames from
# mmap.  FRAMES=N frames a run (make demo-strace DEMO_FRAMES=N; default 20).
# Without strace the fault counts still show and the call rows say why not.
set -u -o pipefail
cd "$(dirname "$0")/../.." || exit 1
. tools/lib/lib.sh
prog=demo-strace
knob FRAMES 20 1 1000000   # the most: frames' cap, MODEL_FRAMES_MAX (tools/include/model.h)
need_built frames
leftover_settings "the default column"

scratch_dir
STRACE=(strace -f -c -e "trace=brk,mmap,munmap")
WHY=
strace_works || WHY=$STRACE_WHY

# The environment check, each long line broken at its " | " into lines of
# at most 80 columns.
./frames --env | awk '{
	if (length($0) <= 80) { print; next }
	n = split(substr($0, 3), part, / \| /); line = "#"
	for (i = 1; i <= n; i++) {
		if (line != "#" && length(line) + 3 + length(part[i]) > 80) { print line; line = "#" }
		line = line (line == "#" ? " " : " | ") part[i]
	}
	print line }' || die "./frames --env failed"

echo "Lab 1's completed program, $FRAMES frames of 63 MiB, default and tuned:"
for v in default tuned; do
	args="--frames $FRAMES"
	[ $v = tuned ] && args="--tune $args"
	if [ -z "$WHY" ]; then
		printf '$ %s ./frames %s\n' "${STRACE[*]}" "$args"
		# shellcheck disable=SC2086
		"${STRACE[@]}" -o "$TMPD/$v.strace" ./frames $args >"$TMPD/$v.out" ||
			die "the run failed: ./frames $args"
	else
		printf '$ ./frames %s\n' "$args"
		# shellcheck disable=SC2086
		./frames $args >"$TMPD/$v.out" || die "the run failed: ./frames $args"
	fi
done

# calls NAME VARIANT: the calls column of strace -c, or "-" without strace
calls() {
	[ -z "$WHY" ] || { echo -; return; }
	strace_calls "$TMPD/$2.strace" "$1"
}
# val LABEL VARIANT: the value after "LABEL:" in frames' report
val() {
	awk -v l="$1" '{ x = $0; sub(/^ +/, "", x) } index(x, l ":") == 1 {
		sub(/^[^:]*: */, "", x); print x; exit }' "$TMPD/$2.out"
}

echo
printf '%-22s %18s %18s\n' "" "default" "tuned (--tune)"
for s in brk mmap munmap; do
	printf '%-22s %18s %18s\n' "$s calls" "$(calls $s default)" "$(calls $s tuned)"
done
printf '%-22s %18s %18s\n' "minor faults" "$(val 'minor faults' default)" \
	"$(val 'minor faults' tuned)"
printf '%-22s %18s %18s\n' "faults/frame" "$(val faults/frame default)" \
	"$(val faults/frame tuned)"
printf '%-22s %18s %18s\n' "from mmap" "$(val 'from mmap' default | cut -d' ' -f1-3)" \
	"$(val 'from mmap' tuned | cut -d' ' -f1-3)"
printf '%-22s %18s %18s\n' "time" "$(val time default)" "$(val time tuned)"
echo
[ -z "$WHY" ] || echo "(no system-call counts: $WHY)"
[ -n "$WHY" ] || echo "(times are under strace, which stops the program at each traced call)"
echo "Default: each frame is its own mmap, unmapped by free(), so every frame faults"
echo "in all its pages again.  Tuned (mallopt: no mmap, no trim): the heap grows once"
echo "with brk and keeps the pages; later frames reuse them and only calloc's clearing"
echo "is left.  Same program, same frames: the difference is malloc's policy."
