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
# What differs by version (see the notes in docs/platforms.md, "Which glibc?"):
#   2.41 rejects "256M" (a warning on stderr; the setting is dropped, so the
#        dynamic threshold stays on); 2.36 read it as 256 bytes.
#   2.31 refuses any threshold above 32 MiB (do_set_mmap_threshold), from
#        mallopt, GLIBC_TUNABLES or MALLOC_MMAP_THRESHOLD_ alike: 34 MiB
#        frames keep churning with the Lab 4 fix.
#   every version ignores a misspelt tunable name, silently.
. "$(dirname "$0")/lib.sh" || exit 1
full_only "the labs under glibc 2.31, 2.35, 2.39 and newer"

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
	needs_solution lab6.give_memory_back "2.41: arenas --trim: RssAnon after the call under half" &&
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

# ---------------------------------------------------------------- 2.35, 2.39
# Ubuntu 22.04's glibc (Gradescope's default image) and 24.04's (GitHub's
# ubuntu-latest runner), built from the upstream tags (tools/platforms/
# glibc.sh: MALLOC_LABS_GLIBC_BUILDS, default ../shared/glibc beside the
# kit).  Under each loader:
#   every Lab 1 mode and Lab 4 row: frames' measured faults equal its own
#     prediction within the grader's tolerance (FAULT_TOL): the model reads
#     the running glibc, so it must hold on the releases courses grade on;
#   Lab 6: arenas within arenas' own predicted range, 20 threads, and 20
#     threads on one CPU (BZ 30945: 2.35-2.38 set the limit from the CPUs a
#     process may use, 2.39 from those online);
#   the environment header's word on each tunable agrees with the loader's
#     own --list-tunables: a name it lists is never "no such tunable", a
#     misspelt one always is;
# and under 2.39 a make submit of the labs linked to that loader grades
# clean (the Classroom workflow's glibc).
GV_MODES=(
	"L1 malloc||--frames 4 --alloc malloc"
	"L1 calloc||--frames 4 --alloc calloc"
	"L1 mmap_max=0|GLIBC_TUNABLES=glibc.malloc.mmap_max=0|--frames 4 --alloc malloc"
	"L1 no trim|GLIBC_TUNABLES=glibc.malloc.mmap_max=0:glibc.malloc.trim_threshold=4294967295|--frames 4 --alloc malloc"
	"L1 --tune malloc||--frames 4 --tune --alloc malloc"
	"L1 --tune calloc||--frames 4 --tune --alloc calloc"
	"L1 --tune memset||--frames 4 --tune --alloc memset"
	"L1 perturb=170|GLIBC_TUNABLES=glibc.malloc.perturb=170|--frames 4 --alloc malloc"
	"L1 once||--frames 4 --alloc once"
	"L4 30M||--alloc memset --size 30M --frames 4"
	"L4 32M||--alloc memset --size 32M --frames 4"
	"L4 34M||--alloc memset --size 34M --frames 4"
	"L4 34M vars|MALLOC_MMAP_THRESHOLD_=$L9THR MALLOC_TRIM_THRESHOLD_=$L9TRIM|--alloc memset --size 34M --frames 4"
	"L4 34M tunables|GLIBC_TUNABLES=glibc.malloc.mmap_threshold=$L9THR:glibc.malloc.trim_threshold=$L9TRIM|--alloc memset --size 34M --frames 4"
	"L4 edge 33550312||--alloc memset --size 33550312 --frames 4"
	"L4 edge 33550320||--alloc memset --size 33550320 --frames 4"
	"L4 1M-24||--alloc memset --size 1048552 --frames 4"
)

# gv_predictions VER PREFIX: every mode's faults against frames' prediction.
gv_predictions() {
	local ver=$1 pfx=$2 m label envs args got want kind bad=()
	for m in "${GV_MODES[@]}"; do
		IFS='|' read -r label envs args <<<"$m"
		# shellcheck disable=SC2086
		env $envs $pfx ./frames --csv --no-thp $args >"$TMP/gv.out" 2>"$TMP/gv.err" ||
			{ bad+=("$label: exit $?: $(head -c 100 "$TMP/gv.err")"); continue; }
		got=$(tools/lib/csvget minor_faults "$TMP/gv.out")
		want=$(tools/lib/csvget predicted_faults "$TMP/gv.out")
		kind=$(tools/lib/csvget prediction "$TMP/gv.out")
		case $kind in
		exact) [ $((got > want ? got - want : want - got)) -le "$FAULT_TOL" ] ||
			bad+=("$label: $got faults, predicted $want (exact)") ;;
		*) [ "$got" -le "$want" ] || bad+=("$label: $got faults, above the bound $want") ;;
		esac
	done
	if [ ${#bad[@]} -eq 0 ]; then
		pass "glibc $ver: ${#GV_MODES[@]} Lab 1 modes and Lab 4 rows equal frames' prediction (±$FAULT_TOL)"
	else
		fail "glibc $ver: frames' predictions" "$(printf '%s; ' "${bad[@]}")"
	fi
}

# gv_arenas VER PREFIX: arenas within arenas' own predicted range.
gv_arenas() {
	local ver=$1 pfx=$2 pin label n lo hi
	for pin in "" "taskset -c 0"; do
		label="20 threads"
		if [ -n "$pin" ]; then
			command -v taskset >/dev/null 2>&1 ||
				{ skip "glibc $ver: arenas on one CPU" "no taskset (util-linux)"; continue; }
			label="20 threads on one CPU"
		fi
		$pin $pfx ./arenas --csv --threads 20 --rounds 4 --blocks 50 >"$TMP/gv.ar" 2>&1
		n=$(tools/lib/csvget arenas "$TMP/gv.ar" 2>/dev/null)
		lo=$(tools/lib/csvget arenas_predicted_lo "$TMP/gv.ar" 2>/dev/null)
		hi=$(tools/lib/csvget arenas_predicted_hi "$TMP/gv.ar" 2>/dev/null)
		if [[ $n =~ ^[0-9]+$ && $lo =~ ^[0-9]+$ && $hi =~ ^[0-9]+$ ]] && [ "$n" -ge "$lo" ] && [ "$n" -le "$hi" ]; then
			pass "glibc $ver: Lab 6, $label: $n arenas, predicted $lo..$hi"
		else
			fail "glibc $ver: Lab 6, $label" "arenas '$n', predicted '$lo'..'$hi'"
		fi
	done
}

# gv_tunables VER PREFIX LOADER: the header's word on each malloc tunable
# against the loader's own list.
gv_tunables() {
	local ver=$1 pfx=$2 loader=$3 t bad=() listed
	listed=$("$loader" --list-tunables 2>/dev/null | sed -n 's/^\(glibc\.malloc\.[a-z_]*\):.*/\1/p')
	[ -n "$listed" ] || { fail "glibc $ver: --list-tunables" "the loader listed no glibc.malloc tunable"; return; }
	# The header says "no such tunable" or "not a tunable of glibc X.Y".
	for t in $listed glibc.malloc.mmap_treshold glibc.malloc.arena_maximum; do
		GLIBC_TUNABLES=$t=1 $pfx ./frames --env >"$TMP/gv.env" 2>&1
		if grep -qx "$t" <<<"$listed"; then
			! grep -Eq "^# warning: $t=1: (no such tunable|not a tunable of)" "$TMP/gv.env" ||
				bad+=("$t is listed, the header says it is not a tunable")
		else
			grep -Eq "^# warning: $t=1: (no such tunable|not a tunable of glibc $ver)" "$TMP/gv.env" ||
				bad+=("$t is not listed, the header does not say so")
		fi
	done
	if [ ${#bad[@]} -eq 0 ]; then
		pass "glibc $ver: the header's tunable names agree with ld.so --list-tunables ($(wc -w <<<"$listed") malloc names, 2 misspelt)"
	else
		fail "glibc $ver: tunable names vs --list-tunables" "$(printf '%s; ' "${bad[@]}")"
	fi
}

# gv_submit VER DIR: the kit copied (its .git too, so its revision is this
# one's), its labs linked to VER's loader, a short make submit, its grade.
gv_submit() {
	local ver=$1 dir=$2 kit=$TMP/gv-kit rc
	rm -rf "$kit"
	cp -a . "$kit" 2>/dev/null || { fail "glibc $ver: make submit" "could not copy the kit"; return; }
	rm -rf "$kit/submissions"
	if ! (cd "$kit" && make -s -B LDLIBS="-Wl,--dynamic-linker=$dir/ld-linux-x86-64.so.2 -Wl,-rpath=$dir" \
		$(lab_programs)) >"$TMP/gv-build.txt" 2>&1; then
		fail "glibc $ver: the labs linked to its loader" "$(tail -n 3 "$TMP/gv-build.txt")"
		return
	fi
	(cd "$kit" && ./frames --env) 2>&1 | grep -q "^# glibc $ver " ||
		{ fail "glibc $ver: the linked frames runs on $ver" "$(cd "$kit" && ./frames --env 2>&1 | head -n 1)"; return; }
	(cd "$kit" && env -u MALLOC_LABS_GLIBC_BUILDS STUDENT=glibc$ver OUT="$TMP/gv-sub.txt" FRAMES=1 SCALE=100 \
		VARIANCE_ITERS=2000 COUNT_LARGE=200 BYTES=1M tools/submit.sh) >"$TMP/gv-submit.txt" 2>&1
	rc=$?
	if [ $rc -ne 0 ] || [ ! -s "$TMP/gv-sub.txt" ]; then
		fail "glibc $ver: make submit under its loader" "exit $rc: $(tail -n 2 "$TMP/gv-submit.txt")"
		return
	fi
	grep -q "^glibc: $ver\$" "$TMP/gv-sub.txt" ||
		{ fail "glibc $ver: the submission names it" "$(grep -m1 '^glibc:' "$TMP/gv-sub.txt")"; return; }
	tools/grade.sh "$TMP/gv-sub.txt" >"$TMP/gv-grade.txt" 2>&1
	rc=$?
	if [ $rc -eq 0 ]; then
		pass "glibc $ver: make submit under its loader grades clean ($(grep -m1 -o 'Score: [0-9/]*' "$TMP/gv-grade.txt"))"
	else
		fail "glibc $ver: make submit under its loader grades clean" "exit $rc: $(grep -E '^(FAIL|ENV|INTEGRITY)' "$TMP/gv-grade.txt" | head -n 5)"
	fi
}

for ver in 2.35 2.39; do
	if ! pfx=$(tools/platforms/glibc.sh prefix "$ver" 2>"$TMP/gv_why"); then
		skip "glibc $ver checks" "$(tail -n 1 "$TMP/gv_why" | sed 's/^glibc.sh: //' | cut -c1-80)"
		continue
	fi
	dir=$(tools/platforms/glibc.sh dir "$ver")
	got=$($pfx ./frames --csv --frames 1 --size 1M | tools/lib/csvget glibc /dev/stdin 2>/dev/null)
	if [ "$got" != "$ver" ]; then
		fail "glibc $ver: ./frames runs under its loader" "frames reports glibc '$got'"
		continue
	fi
	pass "glibc $ver: ./frames runs under its loader and reports $ver"
	gv_predictions "$ver" "$pfx"
	gv_arenas "$ver" "$pfx"
	gv_tunables "$ver" "$pfx" "$dir/ld-linux-x86-64.so.2"
	[ "$ver" = 2.39 ] && gv_submit "$ver" "$dir"
done
