#!/usr/bin/env bash
# tools/maint/sanitize.sh BUILD... - short runs of every lab's modes under the
# sanitizer builds `make sanitize` made (build/asan-gcc/, build/tsan-clang/,
# ...): each lab's quick run (tools/labs/registry), under TSan only the
# threaded labs', then its program's own runs below (asan_PROGRAM,
# tsan_PROGRAM), each program's once.  SANITIZE_LABS="lab1 lab3" only
# those labs (default: all).  A run passes when no sanitizer printed a report and it exited as
# it should.  Ends with "sanitize: N runs, M reports or failures, K skipped"
# and exits 1 if M > 0.
#
# ASan and TSan bring their own malloc(): it ignores glibc's tunables and
# refuses mallopt(), and its fault counts are its own.  So no count is
# compared here, and the steps that need mallopt are run only to check
# that they fail cleanly (exit 1, "refused", no report), and are counted
# as skipped with that reason.
set -u -o pipefail
cd "$(dirname "$0")/../.." || exit 1
. tools/lib/lib.sh
prog=sanitize
usage() { echo "usage: tools/maint/sanitize.sh BUILD... (e.g. asan-gcc tsan-clang)"; }
[ $# -gt 0 ] || bad_usage "no BUILD named"
for build in "$@"; do
	case $build in asan-* | tsan-*) ;; *) bad_usage "unknown build '$build'" ;; esac
done
LOG=$(mktemp -d) || die "mktemp -d failed: set TMPDIR to a writable directory"
trap 'rm -rf "$LOG"' EXIT

# A report makes the process exit 86 (not a status any lab uses) and
# prints a line these patterns find.
export ASAN_OPTIONS=${ASAN_OPTIONS:-exitcode=86:detect_leaks=1:abort_on_error=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1:exitcode=86}
export TSAN_OPTIONS=${TSAN_OPTIONS:-exitcode=86:halt_on_error=1}
REPORT='^==[0-9]+==ERROR|^SUMMARY: [A-Za-z]+Sanitizer|^WARNING: ThreadSanitizer|runtime error:'

runs=0 bad=0 skipped=0

# run WANT CMD...: CMD (with stdin from /dev/null) exits WANT, no report.
run() {
	local want=$1 got
	shift
	runs=$((runs + 1))
	"$@" </dev/null >"$LOG/out" 2>"$LOG/err"
	got=$?
	if grep -qE "$REPORT" "$LOG/err"; then
		bad=$((bad + 1))
		printf 'REPORT  %s\n' "$*"
		grep -E "$REPORT" "$LOG/err" | head -n 3 | sed 's/^/        /'
	elif [ "$got" -ne "$want" ]; then
		bad=$((bad + 1))
		printf 'FAIL    %s\n        exit %s, want %s: %s\n' "$*" "$got" "$want" \
			"$(head -c 200 "$LOG/err")"
	else
		printf 'ok      %s\n' "$*"
	fi
}

# refused WHY CMD...: a step this allocator cannot take: it must fail
# cleanly (exit 1 naming the refusal, no report); counted as skipped.
refused() {
	local why=$1
	shift
	"$@" </dev/null >"$LOG/out" 2>"$LOG/err"
	if [ $? -eq 1 ] && grep -q 'refused' "$LOG/err" && ! grep -qE "$REPORT" "$LOG/err"; then
		skipped=$((skipped + 1))
		printf 'skip    %s (%s)\n' "$*" "$why"
	else
		runs=$((runs + 1)) bad=$((bad + 1))
		printf 'FAIL    %s\n        want a clean refusal (exit 1): %s\n' "$*" "$(head -c 200 "$LOG/err")"
	fi
}

NOMALLOPT="this malloc is the sanitizer's: it refuses mallopt(), so the step means nothing here"

# Lab 1 (frames): every --alloc, varying sizes, every output form.
asan_frames() {
	local b=$1
	for a in calloc malloc memset once; do
		run 0 "$b/frames" --frames 3 --size 1M --alloc "$a"
	done
	run 0 "$b/frames" --frames 4 --size 2M --vary 512K
	run 0 "$b/frames" --frames 2 --size 1M --csv
	run 0 "$b/frames" --frames 2 --size 1M --no-thp --stats
	run 0 "$b/frames" --env
	run 0 "$b/frames" --help
	run 2 "$b/frames" --size 1x
	refused "$NOMALLOPT" "$b/frames" --frames 2 --size 1M --tune
}

# Lab 2 (malloc_variance): each row that needs no mallopt, every output form.
asan_malloc_variance() {
	local b=$1
	for m in small medium large pool; do
		run 0 "$b/malloc_variance" "$m" --iters 2000
	done
	run 0 "$b/malloc_variance" small --iters 2000 --hist
	run 0 "$b/malloc_variance" medium --iters 2000 --csv
	run 0 "$b/malloc_variance" pool --iters 2000 --mlock
	run 0 "$b/malloc_variance" small --threads 2 --iters 1000
	run 0 "$b/malloc_variance" --self-test
	run 2 "$b/malloc_variance" --iters 0
	refused "$NOMALLOPT" "$b/malloc_variance" large-mmap --iters 1000
	refused "$NOMALLOPT" "$b/malloc_variance" large-heap --iters 1000
	refused "$NOMALLOPT (its first mallopt row)" "$b/malloc_variance" all --iters 1000
}

# Lab 3 (threads): the mode that sets no threshold; the others need mallopt.
asan_threads() {
	local b=$1
	run 0 "$b/threads" --mode default 200000 300 2
	run 0 "$b/threads" --mode default --fixed --csv 100000 100 1
	run 2 "$b/threads" 0 1 1
	refused "$NOMALLOPT" "$b/threads" --mode pre25 200000 300 2
	refused "$NOMALLOPT" "$b/threads" --mode tuned 200000 300 2
}

# Lab 5 (yes): one row, one size at every alignment, the sweep, CSV, --read.
asan_yes() {
	local b=$1
	run 0 "$b/yes" --size 4K --align page+8 --reps 1 --bytes 64K
	run 0 "$b/yes" --size 16K --reps 1 --bytes 256K
	run 0 "$b/yes" --reps 1 --bytes 64K --cpus 0,0
	run 0 "$b/yes" --csv --reps 2 --size 2K --bytes 64K
	run 0 sh -c "head -c 100000 /dev/zero | $b/yes --read 100000"
	run 2 "$b/yes" --align page+4
}

# Lab 6 (arenas): with the trim, as CSV; a refused option.
asan_arenas() {
	local b=$1
	run 0 "$b/arenas" --threads 2 --rounds 4 --blocks 50 --trim
	run 0 "$b/arenas" --threads 3 --rounds 4 --blocks 50 --csv
	run 2 "$b/arenas" --threads 0
}

tsan_arenas() { run 0 "$1/arenas" --threads 3 --rounds 4 --blocks 50 --trim; }

tsan_malloc_variance() {
	local b=$1
	run 0 "$b/malloc_variance" small --threads 2 --iters 2000
	run 0 "$b/malloc_variance" pool --threads 2 --iters 2000
	run 0 "$b/malloc_variance" large --threads 2 --iters 500
	run 0 "$b/malloc_variance" all --threads 2 --iters 500
}

tsan_threads() {
	local b=$1
	run 0 "$b/threads" --mode pre25 200000 300 2
	run 0 "$b/threads" --mode tuned --fixed 100000 200 2
}

# shellcheck disable=SC2086
rows=$(lab_rows ${SANITIZE_LABS:-}) || exit 2
for build in "$@"; do
	[ -d "build/$build" ] || die "build/$build is missing: run make sanitize"
	echo "== build/$build"
	kind=${build%%-*} done_progs=' '
	while read -r id program driver more threads old plots record knobs quick; do
		[ "$kind" = asan ] || [ "$threads" = yes ] || continue
		read -r -a args <<<"$quick"
		run 0 "build/$build/$program" "${args[@]}"
		[[ $done_progs == *" $program "* ]] && continue
		done_progs="$done_progs$program "
		! declare -F "${kind}_$program" >/dev/null || "${kind}_$program" "build/$build"
	done <<<"$rows"
done
echo "sanitize: $runs runs, $bad reports or failures, $skipped skipped"
[ "$bad" -eq 0 ]
