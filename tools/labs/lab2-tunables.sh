#!/usr/bin/env bash
# tools/labs/lab2-tunables.sh - Lab 2 from outside, as `make lab2-tunables`
# runs it: the 32 B row (`./malloc_variance small`) at one thread and at
# two, under glibc's defaults, with the tcache off
# (glibc.malloc.tcache_count=0), and with the tcache off and one arena for
# every thread (+ glibc.malloc.arena_max=1).  One screen: the environment
# once, each run's command (and any "# warning:" it printed), a table of
# the six runs, then how to read it.  Everything each run printed (its
# "# set:" lines, clock, per-thread rows) goes to RUN_DIR/lab2-tunables.txt
# (default: tools/labs/knobs).  Progress on a terminal only.  Unpinned, as variance-threads: two
# threads pinned to one CPU would take turns instead of meeting at a lock.
# VARIANCE_ITERS=N samples per thread (tools/labs/knobs' lab2-tunables line:
# two threads make twice the samples).  A failed run stops
# the script with its reason, exit 1.
set -u -o pipefail
cd "$(dirname "$0")/../.." || exit 1
. tools/lib/lib.sh
prog=lab2-tunables
lab_knobs lab2 tunables
ITERS=$VARIANCE_ITERS
need_built malloc_variance
leftover_settings "the default rows"
RUN=$RUN_DIR
DETAIL=$RUN/lab2-tunables.txt

SETTINGS=("" "GLIBC_TUNABLES=glibc.malloc.tcache_count=0"
	  "GLIBC_TUNABLES=glibc.malloc.tcache_count=0:glibc.malloc.arena_max=1")
NAMES=("default" "tcache_count=0" "tcache_count=0:arena_max=1")

./malloc_variance --help >/dev/null || die "./malloc_variance does not run"
scratch_dir
mkdir -p "$RUN" 2>/dev/null && : 2>/dev/null >"$DETAIL" ||
	die "cannot write '$DETAIL' (read-only directory? set RUN_DIR)"
echo "malloc(32 B) + touch + free, $ITERS times a thread, at 1 and 2 threads:"
echo "  default                     tcache (per-thread cache, no lock), arena a thread"
echo "  tcache_count=0              no tcache: every call takes its arena's lock"
echo "  tcache_count=0:arena_max=1  no tcache, one arena: two threads share one lock"
n=0
for i in 0 1 2; do
	for t in 1 2; do
		n=$((n + 1))
		progress "run $n of 6: ${NAMES[$i]}, $t thread(s)"
		out=$TMPD/run$i-$t
		cmd="./malloc_variance small --threads $t --iters $ITERS"
		# shellcheck disable=SC2086
		env ${SETTINGS[$i]} $cmd >"$out" || die "the run failed: ${SETTINGS[$i]} $cmd"
		progress
		if [ "$n" = 1 ]; then
			# The environment once, from the first run.
			awk -v re="$ENV_HEADER_RE" '$0 ~ re' "$out"
			echo
		fi
		# shellcheck disable=SC2086
		show_cmd ${SETTINGS[$i]} $cmd
		# What a run adds to the header (a refused setting) is shown here;
		# every line it printed goes to the detail file.
		grep '^# warning:' "$out"
		{ echo; show_cmd ${SETTINGS[$i]} $cmd; cat "$out"; } >>"$DETAIL"
	done
done
# p50, p90, p99.9 and mean of the row, counted from the right (the label
# has spaces), from the run's two tables: "times (ns) min p50 p90 p99 p99.9
# max", then "label mean (ns) faults/it via".
# ROW32: awk rules leaving p = "p50 p90 p99.9" and m = the mean.
ROW32='/^times \(ns\)/ { tb = 1 } /^label / { tb = 2 }
	/^malloc 32 B/ && tb == 1 { p = $(NF-4) " " $(NF-3) " " $(NF-1) }
	/^malloc 32 B/ && tb == 2 { m = $(NF-2) }'
echo
echo "The malloc 32 B row of each run (ns; both threads' samples together):"
printf '%-28s %7s %7s %7s %7s %9s\n' setting threads p50 p90 p99.9 mean
for i in 0 1 2; do
	for t in 1 2; do
		awk -v name="${NAMES[$i]}" -v t="$t" "$ROW32"' END { split(p, c, " ")
			if (m == "" || p == "") exit 1
			printf "%-28s %7d %7s %7s %7s %9s\n", name, t, c[1], c[2], c[3], m }' \
			"$TMPD/run$i-$t" || die "no 'malloc 32 B' row in a run's output"
	done
done
awk 'FNR == 1 { f++; tb = 0 } '"$ROW32"' tb == 2 && /^malloc 32 B/ { mean[f] = m }
     END { if (mean[1] > 0) printf "mean at 2 threads, tcache_count=0:arena_max=1 / default: %.1fx\n", mean[2] / mean[1] }' \
	"$TMPD/run0-2" "$TMPD/run2-2"
echo "Every line of the six runs: $DETAIL"
echo
# SINGLE_THREAD_P: __libc_malloc calls _int_malloc without the lock and
# _int_free takes none (glibc-2.36 malloc/malloc.c:3313-3318, 4530, 4568);
# tcache_count has no env_alias (elf/dl-tunables.list:84-86), arena_max has
# MALLOC_ARENA_MAX (69-74).  With threads, malloc locks its arena (arena_get,
# 3321) while free puts a fastbin-size chunk (32 B is one) on its list with
# an atomic compare-and-exchange, no lock (4489-4549).
echo "Read it: one thread barely notices either setting (glibc skips the arena lock"
echo "while a process has one thread).  At two, without the tcache each malloc takes"
echo "its arena's lock (free swaps the block onto a fastbin atomically), and with one"
echo "arena both threads queue on that one lock: p90 and the mean jump.  If p90"
echo "stays at p50 with two threads, they rarely ran at once (a busy machine): rerun."
echo "MALLOC_ARENA_MAX=1 is arena_max's other spelling; tcache_count has none."
