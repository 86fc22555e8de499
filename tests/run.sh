#!/usr/bin/env bash
# tests/run.sh [NAME...] - run the kit's test files, each as its own
# process (bash tests/NAME.sh, with its own temporary directory: see
# tests/lib.sh), several at a time, and end with the one line "N passed,
# M failed, K skipped".  Each file's output is shown whole, in the files'
# order, whatever order they finish in; then the slowest files and their
# seconds.  On a terminal, stderr says which files are running.  Exit
# status 1 when any check failed, 2 when a NAME is not a test file.
# Without NAMEs: every tests/*.sh but lib.sh and run.sh, the labs first
# (lab1, lab2, ...), then the rest by name.  TEST_JOBS=N files at a time
# (default: the CPUs online; 1 runs them one after another).  Run it
# through `make test` (or `make test T=NAME`), which builds the programs
# once for every file.  TEST_TIER=quick (make test) leaves each file's
# longer checks to TEST_TIER=all (make test-all, the default here): see
# full_only in tests/lib.sh.  Files that ask share one submission made
# through make (shared_submission), made once in this run's directory by
# tests/submission.sh, started first.
set -u -o pipefail
# A signal the shell that started make test ignores (SIGXFSZ or SIGPIPE:
# some terminals and wrappers do) stays ignored in every check, and bash
# cannot reset it: run again once with them as the checks expect them.
if [ "${MALLOC_LABS_SIGNALS:-}" != default ] && env --default-signal=PIPE true 2>/dev/null; then
	MALLOC_LABS_SIGNALS=default exec env --default-signal=PIPE,XFSZ bash "$0" "$@"
fi
cd "$(dirname "$0")/.." || exit 1
. tools/lib/lib.sh
prog=tests/run.sh

# test_names: every test file's NAME, in the order they are shown.
test_names() {
	local f n
	for f in tests/*.sh; do
		n=${f#tests/}
		n=${n%.sh}
		case $n in lib | run) continue ;; esac
		echo "$n"
	done | awk '{ key = /^lab[0-9]+$/ ? sprintf("0 %09d", substr($0, 4)) : "1 " $0
		      printf "%s\t%s\n", key, $0 }' | sort | cut -f 2
}
usage() {
	echo "usage: tests/run.sh [NAME...]  (make test [T=NAME]); NAME is one of:"
	test_names | paste -sd' ' | fold -s -w 78 | sed 's/^/  /; s/ *$//'
}

names=("$@")
[ $# -gt 0 ] || mapfile -t names < <(test_names)
for n in "${names[@]}"; do
	[[ $n != */* ]] && [ "$n" != lib ] && [ "$n" != run ] && [ -f "tests/$n.sh" ] ||
		bad_usage "no test file tests/$n.sh"
done
knob TEST_JOBS "$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)" 1 64

# Each file's output, counts and seconds; nothing else is kept here.
if ! SCRATCH=$(mktemp -d) || [ ! -d "$SCRATCH" ] || [ ! -w "$SCRATCH" ]; then
	die "mktemp -d failed (TMPDIR=${TMPDIR:-unset}): set TMPDIR to a writable directory"
fi
# A FIFO each finished file writes its index into: the loop below wakes
# when one ends (or after 2 s, to refresh the progress line) and then
# looks for the .end files, which say which files finished.
mkfifo "$SCRATCH/done" && exec {DONE}<>"$SCRATCH/done" || die "cannot make a FIFO in $SCRATCH"
mkdir "$SCRATCH/shared" || die "cannot write $SCRATCH"
export TESTS_SHARED=$SCRATCH/shared TEST_TIER=${TEST_TIER:-all}
trap 'rm -rf "$SCRATCH"' EXIT
trap 'progress_end; exit 130' INT TERM

# run_file I: tests/NAME.sh in the background; stdout and stderr kept
# together in $SCRATCH/I.out, its counts in I.counts, its exit status and
# seconds in I.end; then I is written into the FIFO.
run_file() {
	local i=$1
	(
		t0=$(date +%s.%N)
		TESTS_COUNTS=$SCRATCH/$i.counts bash "tests/${names[$i]}.sh" >"$SCRATCH/$i.out" 2>&1 </dev/null
		rc=$?
		echo "$rc $(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')" >"$SCRATCH/$i.end"
		echo "$i" >&"$DONE"
	) &
	pids[$i]=$!
}

# show_file I: its output, then its counts added to the totals.
passed=0 failed=0 skipped=0 kept=()
show_file() {
	local i=$1 n=${names[$1]} p f s dir rc secs
	read -r rc secs <"$SCRATCH/$i.end"
	progress
	echo "== tests/$n.sh"
	cat "$SCRATCH/$i.out"
	if ! read -r p f s dir <"$SCRATCH/$i.counts" 2>/dev/null; then
		# Killed, or it never reached tests/lib.sh: one failure, said once.
		p=0 f=1 s=0 dir=-
		echo "FAIL    tests/$n.sh left no counts (exit $rc)"
	fi
	passed=$((passed + p)) failed=$((failed + f)) skipped=$((skipped + s))
	[ "$f" -eq 0 ] || kept+=("tests/$n.sh: $f failed; its files: $dir")
	printf '%s %s\n' "$secs" "$n" >>"$SCRATCH/times"
}

./frames --env 2>/dev/null || echo "# (./frames --env failed)"
total=${#names[@]} next=0 running=0 shown=0
declare -A finished=() pids=()
# Started first: tests/submission.sh, which makes the shared submission
# (half a minute of one CPU) while the other files run beside it; last:
# the files that read it, so that none holds a slot waiting for it.
first=() rest=() last=()
for ((j = 0; j < total; j++)); do
	if [ "${names[$j]}" = submission ]; then first+=("$j")
	elif grep -q shared_submission "tests/${names[$j]}.sh"; then last+=("$j")
	else rest+=("$j"); fi
done
order=(${first[@]+"${first[@]}"} ${rest[@]+"${rest[@]}"} ${last[@]+"${last[@]}"})
while [ "$shown" -lt "$total" ]; do
	while [ "$running" -lt "$TEST_JOBS" ] && [ "$next" -lt "$total" ]; do
		run_file "${order[$next]}"
		next=$((next + 1)) running=$((running + 1))
	done
	# The FIFO only wakes the loop: a file has finished when its .end is
	# there.  (read -t can lose a line when its timeout falls mid-read: a
	# rehearsal of CI hung here with every file done.)
	read -r -t 2 _ <&"$DONE" || :
	for ((k = 0; k < next; k++)); do
		j=${order[$k]}
		if [ -z "${finished[$j]:-}" ] && [ -s "$SCRATCH/$j.end" ]; then
			finished[$j]=1
			running=$((running - 1))
			wait "${pids[$j]}"
		fi
	done
	# Shown in order: every finished file whose predecessors are shown.
	while [ "$shown" -lt "$total" ] && [ -n "${finished[$shown]:-}" ]; do
		show_file "$shown"
		shown=$((shown + 1))
	done
	busy=
	for ((k = 0; k < next; k++)); do
		j=${order[$k]}
		[ -n "${finished[$j]:-}" ] || busy="$busy ${names[$j]}"
	done
	[ -z "$busy" ] || progress "$shown of $total files shown; running:$busy"
done
progress

echo
for k in ${kept[@]+"${kept[@]}"}; do echo "$k"; done
if [ "$total" -gt 1 ]; then
	echo "slowest files (s): $(sort -rn "$SCRATCH/times" | head -n 5 | awk '{ printf "%s%s %s", (NR > 1 ? ", " : ""), $2, $1 }')"
fi
[ "$TEST_TIER" = all ] || echo "the quick tier: make test-all runs every check (the rest take minutes more)"
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
