#!/usr/bin/env bash
# tests/interrupt.sh - Ctrl-C in a lab (issue 36): the progress line on
# the terminal ends before make's "make: *** ... Interrupt", which then
# starts a line of its own instead of gluing onto "... faults so far";
# the run fails, and leaves no program running.
# script(1) gives the runs a terminal; the Ctrl-C is the byte a keyboard
# sends (^C, 0x03) written into it, so the terminal signals every process
# of the run, as a real one does.  What is checked is the bytes written,
# never a time: the ^C waits for the progress line, however long it takes.
. "$(dirname "$0")/lib.sh" || exit 1

if ! pty_ok; then
	skip "Ctrl-C ends the progress line" "$PTY_WHY"
	exit 0
fi
# A shell without job control starts a background job with SIGINT ignored
# (POSIX), and every program it runs inherits that: there ^C reaches no
# one, and the lab would run its million frames to the end.
ign=$(awk '/^SigIgn:/ { print $2 }' /proc/self/status 2>/dev/null)
if [ -n "$ign" ] && (( 0x$ign & 2 )); then
	skip "Ctrl-C ends the progress line" "SIGINT is ignored in this session (a background job of a shell without job control): ^C cannot reach a run"
	exit 0
fi

# ctrl_c NAME PATTERN CMD: CMD on a terminal; once its output holds
# PATTERN (an ERE, at most 60 s), ^C.  The output, carriage returns and
# line clears removed, is in $TMP/NAME; the exit status in $TMP/NAME.rc.
ctrl_c() {
	local out=$TMP/$1 pat=$2 i
	{
		for ((i = 0; i < 600; i++)); do
			grep -Eq -- "$pat" "$out.raw" 2>/dev/null && break
			sleep 0.1
		done
		printf '\003'
	} | timeout -k 5 300 script -qefc "$3" /dev/null >"$out.raw" 2>&1
	echo $? >"$out.rc"
	tr -d '\r' <"$out.raw" | sed 's/\x1b\[K//g' >"$out"
}

# ended NAME PATTERN: the last line holding PATTERN (the progress line
# where ^C came) holds nothing of make's, and make's message is a line of
# its own; the run fails.  (Which message, and so the status, is make's
# race: "Interrupt" and 130 as a rule, "wait: No child processes.  Stop."
# and 2 when its child was reaped first.)
ended() {
	local out=$TMP/$1 last rc
	last=$(grep -E -- "$2" "$out" | tail -n 1)
	rc=$(cat "$out.rc")
	if [ -z "$last" ]; then fail "$1: the progress line ends before make's message" "no line matches '$2'"
	elif [[ $last == *make:* ]]; then fail "$1: the progress line ends before make's message" "glued: $last"
	elif ! grep -q '^make: \*\*\* ' "$out"; then
		fail "$1: the progress line ends before make's message" "no line of its own starts make: ***"
	else pass "$1: the progress line ends before make's message"; fi
	cmp_num "$1: the interrupted run fails (exit status)" "$rc" -gt 0
}

# ./frames' own progress (tools/include/cli.h), the issue's example.
ctrl_c lab1 'faults so far' "make --no-print-directory lab1 FRAMES=1000000"
ended lab1 'faults so far'

# A driver's progress (tools/lib/lib.sh), with its program in the
# background: the line ends, and the program is not left running.
full_only "make lab3: Ctrl-C ends the driver's progress line, stops ./threads"
# (The run's processes carry a tag in their environment: other test files
# may run ./threads at the same time, and those are not this run's.)
tag=MALLOC_LABS_INTERRUPT_TEST=$$
ctrl_c lab3 'lab3: \[1/' "env $tag make --no-print-directory lab3 COUNT_LARGE=400000"
ended lab3 'lab3: \['
left=
for p in /proc/[0-9]*; do
	[ "$(readlink "$p/exe" 2>/dev/null)" = "$PWD/threads" ] && tr '\0' '\n' <"$p/environ" 2>/dev/null | grep -qx "$tag" &&
		left="$left ${p#/proc/}"
done
[ -z "$left" ] && pass "lab3: no ./threads left running after ^C" ||
	fail "lab3: ./threads left running after ^C" "pids:$left"
