#!/usr/bin/env bash
# tests/glibc-versions.sh - the Lab 4 checks whose answer depends on the
# glibc version, run under other releases' own loaders (tools/platforms/glibc.sh).
# The loaders come from the cache, or are fetched once (.ci/run fetches
# them first); when that fails the checks are skipped with the reason,
# never passed.
#
# First principles (malloc.c: sysmalloc, __libc_free), P = getconf PAGESIZE:
# a block of S bytes (S a multiple of 16) from mmap is S + 16 bytes rounded
# up to pages, ceil((S + 16) / P) pages, each written first by memset: one
# fault a page.  N frames that each get a fresh mmap: N blocks' pages.  A
# threshold above the block keeps it in the heap: one block's pages for the
# run.  The dynamic threshold below 32 MiB: frame 1 mmapped, frame 2 grows
# the heap, the rest reuse it: two blocks' pages, 1 frame from mmap.
# What differs by version (see the notes in README "Which glibc?"):
#   2.41 rejects "256M" (a warning on stderr; the setting is dropped, so the
#        dynamic threshold stays on); 2.36 read it as 256 bytes.
#   2.31 refuses any threshold above 32 MiB (do_set_mmap_threshold), from
#        mallopt, GLIBC_TUNABLES or MALLOC_MMAP_THRESHOLD_ alike: 34 MiB
#        frames keep churning with the Lab 4 fix.
#   every version ignores a misspelt tunable name, silently.
. "$(dirname "$0")/lib.sh" || exit 1

L9N=10
L9P=$(getconf PAGESIZE)
l9pages() { echo $(( ($1 + 16 + L9P - 1) / L9P )); }
L9THR=268435456 L9TRIM=536870912

# l9run NAME PREFIX BIN SIZE [VAR=value...]: faults of one run; stdout and
# stderr kept in $TMP/l9_NAME.out / .err.
l9run() {
	local name=$1 pfx=$2 bin=$3 size=$4
	shift 4
	# shellcheck disable=SC2086
	env "$@" $pfx "$bin" --alloc memset --frames $L9N --size "$size" \
		>"$TMP/l9_$name.out" 2>"$TMP/l9_$name.err"
	field "$TMP/l9_$name.out" "minor faults"
}

# The tool itself: usage errors need no network.
check_usage_error "glibc.sh without a command: usage, exit 2" tools/platforms/glibc.sh
check_usage_error "glibc.sh with an unknown suite: usage, exit 2" tools/platforms/glibc.sh prefix nosuch
check_usage_error "matrix.sh with an argument: usage, exit 2" tools/platforms/matrix.sh --frames

# A loader for SUITE, from the cache or fetched (at most once a run).
# Sets L9PFX, or L9WHY to the reason it could not.
l9loader() {
	L9PFX='' L9WHY=''
	if ! L9PFX=$(tools/platforms/glibc.sh prefix "$1" 2>"$TMP/l9_fetch_$1"); then
		L9PFX=
		L9WHY="no $1 glibc: $(tail -n 1 "$TMP/l9_fetch_$1" | sed 's/^glibc.sh: //' | cut -c1-70)"
	fi
}

p30=$(l9pages $((30 << 20)))
p34=$(l9pages $((34 << 20)))

l9loader trixie
if [ -z "$L9PFX" ]; then
	skip "checks under glibc 2.41" "$L9WHY"
else
	v=$(tools/platforms/glibc.sh version trixie 2>/dev/null)
	$L9PFX ./frames --frames 1 --size 1M --csv >"$TMP/l9_ver" 2>&1
	got=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "glibc") c = i; next }
		NR == 2 && c { print $c }' "$TMP/l9_ver")
	if [ "$v" = 2.41 ] && [ "$got" = 2.41 ]; then
		pass "./frames runs under trixie's loader and reports glibc 2.41"
	else
		fail "./frames under trixie's loader" "package says '$v', frames says '$got'"
	fi

	f=$(l9run t_vars "$L9PFX" ./frames 34M MALLOC_MMAP_THRESHOLD_=$L9THR MALLOC_TRIM_THRESHOLD_=$L9TRIM)
	near "2.41: 34 MiB with the MALLOC_*_ variables: one block's pages" "$f" "$p34" 1
	f=$(l9run t_tun "$L9PFX" ./frames 34M \
		GLIBC_TUNABLES=glibc.malloc.mmap_threshold=$L9THR:glibc.malloc.trim_threshold=$L9TRIM)
	near "2.41: 34 MiB with GLIBC_TUNABLES: one block's pages" "$f" "$p34" 1

	f=$(l9run t_256m "$L9PFX" ./frames 30M GLIBC_TUNABLES=glibc.malloc.mmap_threshold=256M)
	if grep -q "invalid GLIBC_TUNABLES value \`256M'" "$TMP/l9_t_256m.err"; then
		pass "2.41: mmap_threshold=256M is rejected with a warning on stderr"
	else
		fail "2.41: mmap_threshold=256M warning" "stderr: $(head -c 200 "$TMP/l9_t_256m.err")"
	fi
	near "2.41: after the rejected 256M, 30 MiB adapts: two blocks' pages" "$f" $((2 * p30)) 1
	cmp_num "2.41: after the rejected 256M, 30 MiB: 1 frame from mmap" \
		"$(field "$TMP/l9_t_256m.out" "from mmap")" -eq 1

	# Lab 6 (arena_get2, mtrim in 2.41): one arena per thread plus main below
	# the limit, arena_max caps it, malloc_trim(0) more than halves RssAnon.
	$L9PFX ./arenas --csv --threads 3 --rounds 8 --blocks 100 >"$TMP/l9_ar" 2>&1
	MALLOC_ARENA_MAX=2 $L9PFX ./arenas --csv --threads 3 --rounds 8 --blocks 100 >"$TMP/l9_ar2" 2>&1
	a=$(tools/lib/csvget arenas "$TMP/l9_ar" 2>/dev/null)
	b=$(tools/lib/csvget arenas "$TMP/l9_ar2" 2>/dev/null)
	if [ "$a $b" = "4 2" ]; then pass "2.41: arenas, 3 threads: 4, and 2 with MALLOC_ARENA_MAX=2"
	else fail "2.41: arenas, 3 threads" "got '$a' and '$b', want 4 and 2"; fi
	$L9PFX ./arenas --threads 4 --trim >"$TMP/l9_art" 2>&1
	b=$(field "$TMP/l9_art" 'RssAnon after') a=$(field "$TMP/l9_art" 'RssAnon trimmed')
	cmp_num "2.41: arenas --trim: RssAnon after malloc_trim(0) under half ($b KiB)" \
		"$((2 * ${a:-0}))" -lt "${b:-0}"
	# Since 2.39 (BZ 30945) the limit counts online CPUs, not the affinity mask.
	if command -v taskset >/dev/null 2>&1 && [ "$(getconf _NPROCESSORS_ONLN)" -ge 2 ] &&
	   [ "$(getconf _NPROCESSORS_ONLN)" -le 8 ]; then
		taskset -c 0 $L9PFX ./arenas --csv --threads 12 --rounds 4 --blocks 50 >"$TMP/l9_arx" 2>&1
		cmp_num "2.41: 12 threads pinned to one CPU still get 13 arenas (online CPUs count)" \
			"$(tools/lib/csvget arenas "$TMP/l9_arx" 2>/dev/null)" -eq 13
	fi

	f=$(l9run t_miss "$L9PFX" ./frames 34M GLIBC_TUNABLES=glibc.malloc.mmap_treshold=$L9THR)
	near "2.41: a misspelt name is ignored (34 MiB churns)" "$f" $((L9N * p34)) 1
	if [ -s "$TMP/l9_t_miss.err" ]; then
		fail "2.41: a misspelt name is silent" "stderr: $(head -c 200 "$TMP/l9_t_miss.err")"
	else
		pass "2.41: a misspelt name is silent (nothing on stderr)"
	fi
fi

# 2.31: only with the kit rebuilt against it (make glibc-2.31).
if [ ! -x build/glibc-2.31/frames ]; then
	skip "checks under glibc 2.31" "build/glibc-2.31/frames is not built (make glibc-2.31)"
else
	l9loader bullseye
	if [ -z "$L9PFX" ]; then
		skip "checks under glibc 2.31" "$L9WHY"
	else
		f=$(l9run b_vars "$L9PFX" build/glibc-2.31/frames 34M \
			MALLOC_MMAP_THRESHOLD_=$L9THR MALLOC_TRIM_THRESHOLD_=$L9TRIM)
		near "2.31: a 256 MiB threshold is refused: 34 MiB still churns" "$f" $((L9N * p34)) 1
		# The refusal changes nothing, so alone it leaves the dynamic threshold
		# on; the accepted trim threshold beside it turns that off, so with
		# both, even 30 MiB frames churn (worse than no setting at all).
		l9run b_30a "$L9PFX" build/glibc-2.31/frames 30M MALLOC_MMAP_THRESHOLD_=$L9THR >/dev/null
		cmp_num "2.31: the refused threshold alone leaves the dynamic one on (30 MiB: 1 from mmap)" \
			"$(field "$TMP/l9_b_30a.out" "from mmap")" -eq 1
		f=$(l9run b_30 "$L9PFX" build/glibc-2.31/frames 30M \
			MALLOC_MMAP_THRESHOLD_=$L9THR MALLOC_TRIM_THRESHOLD_=$L9TRIM)
		near "2.31: with the trim threshold beside it, 30 MiB churns too" "$f" $((L9N * p30)) 1
	fi
fi
