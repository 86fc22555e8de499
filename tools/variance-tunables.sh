#!/usr/bin/env bash
# tools/variance-tunables.sh - Lab 2 from outside, as `make lab2-tunables`
# runs it: the 32 B row (`./malloc_variance small`) at one thread and at
# two, under glibc's defaults, with the tcache off
# (glibc.malloc.tcache_count=0), and with the tcache off and one arena for
# every thread (+ glibc.malloc.arena_max=1).  Each run prints its command,
# the "# set:" lines naming what it set, the row and one row per thread;
# a table of the six runs ends it.  Unpinned, as variance-threads: two
# threads pinned to one CPU would take turns instead of meeting at a lock.
# VARIANCE_ITERS=N samples per thread (default 200000).  A failed run stops
# the script with its reason, exit 1.
set -u -o pipefail
cd "$(dirname "$0")/.." || exit 1
. tools/lib.sh
prog=variance-tunables
knob VARIANCE_ITERS 200000 1 25000000
ITERS=$VARIANCE_ITERS
need_built malloc_variance

SETTINGS=("" "GLIBC_TUNABLES=glibc.malloc.tcache_count=0"
	  "GLIBC_TUNABLES=glibc.malloc.tcache_count=0:glibc.malloc.arena_max=1")
NAMES=("default" "tcache_count=0" "tcache_count=0:arena_max=1")

./malloc_variance --help >/dev/null || die "./malloc_variance does not run"
scratch_dir
echo "malloc(32 B) + touch + free, $ITERS times per thread, at 1 thread and at 2:"
echo "  default                     the tcache (per-thread cache, no lock) and one arena"
echo "                              per thread"
echo "  tcache_count=0              no tcache: every call takes its arena's lock"
echo "  tcache_count=0:arena_max=1  no tcache, one arena: two threads share one lock"
n=0
for i in 0 1 2; do
	for t in 1 2; do
		n=$((n + 1))
		[ -t 2 ] && printf '%s: run %d of 6\n' "$prog" "$n" >&2
		out=$TMPD/run$i-$t
		cmd="./malloc_variance small --threads $t --iters $ITERS"
		if [ -n "${SETTINGS[$i]}" ] && [ $(( ${#SETTINGS[$i]} + ${#cmd} + 3 )) -gt 96 ]; then
			printf '\n$ %s \\\n    %s\n' "${SETTINGS[$i]}" "$cmd"
		else
			printf '\n$ %s\n' "${SETTINGS[$i]:+${SETTINGS[$i]} }$cmd"
		fi
		# shellcheck disable=SC2086
		env ${SETTINGS[$i]} $cmd >"$out" || die "the run failed: ${SETTINGS[$i]} $cmd"
		if [ "$n" = 1 ]; then
			# The environment and the clock once, from the first run.
			awk -v re="$ENV_HEADER_RE" '/^label/ { exit } $0 ~ re || /^  / { print }' "$out"
		fi
		grep '^# \(set\|warning\):' "$out"
		awk '/^label/ { print } /^[^ ]/ { row = /^malloc 32 B/ } row && /^(malloc 32 B|  thread )/' "$out"
	done
done

# p50, p90, p99.9 and mean of the row, counted from the right (the label
# has spaces): "... min p50 p90 p99 p99.9 max mean faults/it via".
echo
echo "The malloc 32 B row of each run (ns; both threads' samples together):"
printf '%-28s %7s %7s %7s %7s %9s\n' setting threads p50 p90 p99.9 mean
for i in 0 1 2; do
	for t in 1 2; do
		awk -v name="${NAMES[$i]}" -v t="$t" '/^malloc 32 B/ {
			printf "%-28s %7d %7s %7s %7s %9s\n", name, t, $(NF-7), $(NF-6), $(NF-4), $(NF-2)
			found = 1 }
			END { exit !found }' "$TMPD/run$i-$t" || die "no 'malloc 32 B' row in a run's output"
	done
done
awk 'FNR == 1 { f++ } /^malloc 32 B/ { m[f] = $(NF-2) }
     END { if (m[1] > 0) printf "\nmean at 2 threads, tcache_count=0:arena_max=1 / default: %.1fx\n", m[2] / m[1] }' \
	"$TMPD/run0-2" "$TMPD/run2-2"
echo
echo "Read it: one thread barely notices either setting (glibc skips the arena lock"
echo "while a process has one thread).  At two, without the tcache each call takes"
echo "its arena's lock, and with one arena both threads queue on the same lock: p90"
echo "and the mean jump, and the per-thread rows show both paying.  The mean also"
echo "holds every stall of the machine (see max): compare it within one run only.  If"
echo "p90 stays at p50 with two threads, they rarely ran at the same moment (a busy"
echo "machine); rerun when it is quiet.  arena_max can also be set as"
echo "MALLOC_ARENA_MAX=1; tcache_count has no MALLOC_* spelling."
