#!/usr/bin/env bash
# tools/yes-table.sh - Lab 5's runs, as `make yes-table` starts them.  Every
# command is printed before it runs, exactly as a student would type it.
#   1. the table with writer and reader on one CPU, then on two CPUs
#   2. GNU yes through the same kind of pipe into `./yes --read`, placed the
#      same two ways, and the size of GNU yes's writes (strace), to compare
#      with the table's row of that size
# BYTES=N sets the bytes per run (default 128M; GNU yes gets 8 times that).
set -u
cd "$(dirname "$0")/.." || exit 1
BYTES=${BYTES:-128M}
NCPU=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)
[ -x ./yes ] || { echo "yes-table: ./yes is not built; run make yes" >&2; exit 1; }

say() { printf '\n$ %s\n' "$*"; }
run() { say "$@"; "$@" || { echo "yes-table: the run failed" >&2; exit 1; }; }

run ./yes --cpus 0,0 --bytes "$BYTES"
if [ "$NCPU" -ge 2 ]; then
	run ./yes --cpus 0,1 --bytes "$BYTES"
else
	echo "(one CPU online: no two-CPU table)"
fi

if [ ! -x /usr/bin/yes ]; then
	echo; echo "GNU yes: skipped (/usr/bin/yes is not installed)"; exit 0
fi
# GNU yes runs once, not median of 3 with 4 alignments: give it more bytes.
case $BYTES in
*K) gnu_bytes=$(( ${BYTES%K} * 8 ))K ;;
*M) gnu_bytes=$(( ${BYTES%M} * 8 ))M ;;
*G) gnu_bytes=$(( ${BYTES%G} * 8 ))G ;;
*)  gnu_bytes=$(( BYTES * 8 )) ;;
esac
if command -v taskset >/dev/null 2>&1; then
	say "taskset -c 0 /usr/bin/yes | taskset -c 0 ./yes --read $gnu_bytes"
	taskset -c 0 /usr/bin/yes | taskset -c 0 ./yes --read "$gnu_bytes"
	if [ "$NCPU" -ge 2 ]; then
		say "taskset -c 0 /usr/bin/yes | taskset -c 1 ./yes --read $gnu_bytes"
		taskset -c 0 /usr/bin/yes | taskset -c 1 ./yes --read "$gnu_bytes"
	fi
else
	say "/usr/bin/yes | ./yes --read $gnu_bytes    (taskset missing: not pinned)"
	/usr/bin/yes | ./yes --read "$gnu_bytes"
fi

if command -v strace >/dev/null 2>&1 && strace -o /dev/null true >/dev/null 2>&1; then
	mkdir -p .run
	say "strace -o .run/gnu-yes.strace -e trace=write /usr/bin/yes | head -c 1M >/dev/null"
	strace -o .run/gnu-yes.strace -e trace=write /usr/bin/yes | head -c 1M >/dev/null
	echo "GNU yes's write() sizes (count, bytes):"
	sed -nE 's/^write\(1, .*\) += ([0-9]+)$/\1/p' .run/gnu-yes.strace | sort -n | uniq -c | sort -rn | head -n 3
else
	echo "GNU yes's write size: skipped (strace missing or not permitted)"
fi
