#!/usr/bin/env bash
# tests/widths.sh - what a class sees: every make target, run on a
# terminal (util-linux script gives it one) at small knobs, prints no line
# over 80 columns (a projector's), progress lines included, and so does
# ./frames --env; every file in results/ fits 100 columns (a reader's
# editor), bar the known exceptions below.  With LONG_TESTS=1 (CI) each
# target also runs at its default knobs, must fit the same width and never
# be silent on the terminal for more than 3.5 s (the gaps between output chunks, from
# script's timing log): minutes of runs, so opt-in.  Widths and gaps
# between outputs, never how long work took.
. "$(dirname "$0")/lib.sh" || exit 1
full_only "every target on a terminal: widths"

# The one file in results/ not meant for reading: a submission's csv: lines
# are the programs' CSV records, kept whole for the grader (docs/labs.md says so).
W8_EXCEPTIONS="results/reference-submission.txt"

# w8_lines FILE: a terminal log's lines, each piece between carriage
# returns a line of its own (an overwritten progress line is a line);
# w8_widest FILE: the widest of them.
w8_lines() {
	grep -av '^Script \(started\|done\) on ' "$1" | sed 's/\x1b\[[0-9;]*[A-Za-z]//g' | tr '\r' '\n'
}
w8_widest() { w8_lines "$1" | awk '{ if (length > m) m = length } END { print m + 0 }'; }

# w8_silence TIMING TOTAL: the longest gap between output chunks, the last
# one (to the end of the run) included.
w8_silence() {
	awk -v T="$2" '{ s += $1; if ($1 > m) m = $1 } END { if (T - s > m) m = T - s; printf "%.1f", m }' "$1"
}

# w8_run NAME MAX SILENCE CMD: CMD on a terminal; its widest line <= MAX;
# with SILENCE (seconds, or - for none) no gap longer than that.
w8_run() {
	local name=$1 max=$2 quiet=$3 cmd=$4 t0 t1 w g
	t0=$(date +%s.%N)
	script -q -e --log-out "$TMP/w8.log" --log-timing "$TMP/w8.tim" -c "$cmd" </dev/null >/dev/null 2>&1
	local rc=$?
	t1=$(date +%s.%N)
	if [ "$rc" -ne 0 ]; then
		fail "$name: runs on a terminal" "exit $rc: $(tail -c 300 "$TMP/w8.log")"
		return
	fi
	w=$(w8_widest "$TMP/w8.log")
	if [ "$w" -le "$max" ]; then
		pass "$name: every line on a terminal fits $max columns ($w)"
	else    # the line itself: a width that moves with a measurement shows which
		fail "$name: every line on a terminal fits $max columns" \
			"$w columns: $(w8_lines "$TMP/w8.log" | awk -v m="$max" 'length > m' | head -n 3)"
	fi
	if [ "$quiet" != - ]; then
		g=$(w8_silence "$TMP/w8.tim" "$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')")
		if awk -v g="$g" -v q="$quiet" 'BEGIN { exit !(g <= q) }'; then
			pass "$name: never silent over $quiet s on a terminal (longest ${g} s)"
		else
			fail "$name: never silent over $quiet s on a terminal" "a gap of $g s"
		fi
	fi
}

if ! pty_ok; then
	skip "widths on a terminal" "$PTY_WHY"
else
	# Short relative paths (in the git-ignored .run/): some lines name them.
	W8K="RUN_DIR=.run/w8 LAB3_OUT=.run/w8lab3"
	L3="COUNT_LARGE=20 COUNT_SMALL=50 LIVE=16000000 REPEATS=1"
	# Each target: the columns it must fit (80 for every one: each goes
	# on a projector), and the small knobs it runs at here.
	W8_TARGETS="80|lab1|FRAMES=1
80|lab1-tunables|FRAMES=1
80|lab1-strace|FRAMES=1
80|demo-strace|DEMO_FRAMES=2
80|lab2|VARIANCE_ITERS=2000
80|lab2-tunables|VARIANCE_ITERS=2000
80|lab2-strace|VARIANCE_ITERS=200
80|lab3|$L3
80|lab3-tunables|$L3
80|lab3-strace|$L3
80|lab4|SCALE=300
80|lab4-tunables|SCALE=100
80|lab4-strace|SCALE=100
80|gotcha|
80|lab5|BYTES=1M
80|lab5-tunables|BYTES=1M
80|lab5-strace|BYTES=1M
80|lab6|MAX_THREADS=2 ROUNDS=4
80|lab6-tunables|ROUNDS=4
80|lab6-strace|ROUNDS=4
80|lab7|FRAMES=1 REPEATS=1 ROUNDS=2 THREADS=1
80|lab7-tunables|FRAMES=1 REPEATS=1 ROUNDS=2 THREADS=1
80|lab7-strace|FRAMES=1 ROUNDS=2 THREADS=1
80|lab8|REPEATS=1 CMD=tests/bin/uninit
80|help|"
	while IFS='|' read -r max target knobs; do
		w8_run "make $target (small knobs)" "$max" - \
			"env $W8K make --no-print-directory $target $knobs"
	done <<<"$W8_TARGETS"
	w8_run "./frames --env" 80 - "./frames --env"
	w8_run "./frames --env with settings" 80 - \
		"env MALLOC_MMAP_THRESHOLD_=268435456 GLIBC_TUNABLES=glibc.malloc.trim_threshold=536870912 ./frames --env"
	if [ "${LONG_TESTS:-0}" = 1 ]; then
		while IFS='|' read -r max target knobs; do
			w8_run "make $target (default knobs)" "$max" 3.5 \
				"env $W8K make --no-print-directory $target"
		done <<<"$W8_TARGETS"
	else
		skip "every target at default knobs: widths, no silence over 3.5 s" "minutes: LONG_TESTS=1"
	fi
	rm -rf .run/w8 .run/w8lab3
fi

# results/: what the kit recorded, as a reader opens it.
for f in results/*.txt; do
	case " $W8_EXCEPTIONS " in
	*" $f "*) skip "$f: 100 columns" "CSV records for the grader, not for reading"; continue ;;
	esac
	# Kept whole, not folded: the command a recording ran (its first line)
	# and a compiler command make echoed (make kernels builds for arm64).
	cmp_num "$f fits 100 columns (bar its command and compiler lines)" \
		"$(awk '!/^# recorded by / && !/ -std=gnu11 .* -o / { if (length > m) m = length } END { print m + 0 }' "$f")" -le 100
done
