#!/usr/bin/env bash
# tests/lab6.sh - Lab 6 (arenas.c, tools/labs/lab6.sh, frames --trim): the
# arena count against arena_get2()'s rule, malloc_trim's effect within one
# run, the program's own live count, address space reserved per heap, the
# targets and their strace counts, bad input.
#
# What is deterministic and asserted here:
#  - arenas: every worker is alive at once and no thread has exited, so
#    arena_get2 (malloc/arena.c) makes a new arena for each until the limit:
#    min(threads + 1, limit), the limit being arena_max when set.  Compared
#    with malloc_info()'s <heap> count, exactly.
#  - VmSize: each thread arena's first heap reserves HEAP_MAX_SIZE (64 MiB on
#    64-bit) whatever it uses: the growth is at least arenas - 1 of them.
#  - live bytes: the program's own count depends only on the seed, not on
#    the allocator policy: equal under arena_max=2 and the default.
#  - malloc_trim(0) returns the free pages of every arena (mtrim): RssAnon
#    after it is under half of RssAnon before it, in the same process (the
#    measured drop here is ~85%; half leaves room for any kernel's RSS
#    counter batching, which is a few hundred KiB).
#  - frames --tune keeps a freed 16 MiB frame as the heap's top; malloc_trim
#    gives it back (systrim): VmRSS drops by at least 90% of 16 MiB.
# Never a time.
. "$(dirname "$0")/lib.sh" || exit 1

L6A=$TMP/l6a

# l6_csv FILE NAME: column NAME of a --csv file, by its name.
l6_csv() { tools/lib/csvget "$2" "$1" 2>/dev/null | head -n 1; }

# ---------------------------------------------------------------- parsing
./arenas --help >"$TMP/out" 2>"$TMP/err"
if [ $? -eq 0 ] && grep -q '^usage: ' "$TMP/out" && [ ! -s "$TMP/err" ]; then
	pass "arenas --help: usage on stdout, exit 0"
else
	fail "arenas --help: usage on stdout, exit 0" "$(head -c 200 "$TMP/err")"
fi
check_usage_error "arenas: --threads 0" ./arenas --threads 0
check_usage_error "arenas: --threads 257" ./arenas --threads 257
check_usage_error "arenas: --rounds with junk" ./arenas --rounds 12x
check_usage_error "arenas: --blocks negative" ./arenas --blocks -3
check_usage_error "arenas: --live with a leading space" ./arenas --live " 5"
check_usage_error "arenas: --seed with a sign" ./arenas --seed +1
check_usage_error "arenas: --trim takes no value" ./arenas --trim=1
check_usage_error "arenas: an unexpected argument" ./arenas 4
check_usage_error "arenas: unknown option" ./arenas --fast
check_usage_error "arenas: --threads without a value" ./arenas --threads
check_usage_error "arenas: a burst bigger than half the memory" ./arenas --threads 256 --blocks 100000
grep -q 'more than half of this machine' "$TMP/err" ||
	fail "arenas: the memory refusal says why" "$(head -n 1 "$TMP/err")"
check_usage_error "frames: --trim takes no value" ./frames --trim=yes

# ------------------------------------------------------------ arena counts
# l6_arenas NAME WANT [VAR=value...] -- ARGS...: the arena count reported
# equals WANT, and equals the program's own (exact) prediction.
l6_arenas() {
	local name=$1 want=$2 envs=() got lo hi
	shift 2
	while [ "$1" != -- ]; do envs+=("$1"); shift; done
	shift
	env "${envs[@]}" ./arenas --csv --rounds 8 --blocks 100 "$@" >"$L6A.csv" 2>"$L6A.err"
	got=$(l6_csv "$L6A.csv" arenas)
	lo=$(l6_csv "$L6A.csv" arenas_predicted_lo)
	hi=$(l6_csv "$L6A.csv" arenas_predicted_hi)
	if [ "$got" = "$want" ] && [ "$lo" = "$want" ] && [ "$hi" = "$want" ]; then
		pass "$name: $got arenas, predicted $lo"
	else
		fail "$name" "got '$got' arenas, predicted $lo..$hi, want $want: $(head -c 200 "$L6A.err")"
	fi
}
if ! ./arenas --env | grep -q '^# warning: malloc() comes from'; then
	l6_arenas "arenas: 3 threads, default: one arena each plus main" 4 -- --threads 3
	l6_arenas "arenas: 1 thread: main + 1" 2 -- --threads 1
	l6_arenas "arenas: MALLOC_ARENA_MAX=2, 6 threads" 2 MALLOC_ARENA_MAX=2 -- --threads 6
	l6_arenas "arenas: glibc.malloc.arena_max=1, 4 threads: all share main" 1 \
		GLIBC_TUNABLES=glibc.malloc.arena_max=1 -- --threads 4
	l6_arenas "arenas: glibc.malloc.arena_max=3, 5 threads" 3 \
		GLIBC_TUNABLES=glibc.malloc.arena_max=3 -- --threads 5
	# Above the limit: 8 x CPUs, or arena_test + 1 (9) when that is more.
	L6CPU=$(getconf _NPROCESSORS_ONLN)
	L6LIM=$(( 8 * L6CPU > 9 ? 8 * L6CPU : 9 ))
	if [ "$L6LIM" -lt 200 ] && [ "$(getconf LONG_BIT)" = 64 ]; then
		l6_arenas "arenas: $((L6LIM + 4)) threads: capped at max(8 x $L6CPU CPUs, 9)" "$L6LIM" \
			-- --threads $((L6LIM + 4))
		# arena_test=2 does not lower the limit: it only decides when it is computed.
		l6_arenas "arenas: arena_test=2, $((L6LIM + 4)) threads: still $L6LIM" "$L6LIM" \
			GLIBC_TUNABLES=glibc.malloc.arena_test=2 -- --threads $((L6LIM + 4))
	else
		skip "arenas: the limit from the CPU count" "$L6CPU CPUs or 32-bit: too many threads"
	fi
else
	skip "arenas: arena counts" "malloc here is not glibc's"
fi

# ------------------------------------------------ one run, many readings
./arenas --threads 4 --trim >"$L6A.rep" 2>"$L6A.err"
cmp_num "arenas --threads 4 --trim exits 0" "$?" -eq 0
b=$(field "$L6A.rep" 'RssAnon after')
a=$(field "$L6A.rep" 'RssAnon trimmed')
if ! needs_solution lab6.give_memory_back "arenas --trim: RssAnon after the call is under half of before"; then :
elif [ -n "$a" ] && [ -n "$b" ]; then
	cmp_num "arenas --trim: RssAnon after malloc_trim(0) is under half of before ($b KiB)" \
		"$((2 * a))" -lt "$b"
else
	fail "arenas --trim: RssAnon before and after" "missing: '$b' '$a'"
fi
g=$(field "$L6A.rep" grown)
l=$(field "$L6A.rep" 'live after')
cmp_num "arenas: RssAnon grown >= live after (a live byte is resident), KiB" "$g" -ge "${l:-1}"
cmp_num "arenas: live peak >= live after" "$(field "$L6A.rep" 'live peak')" -ge "${l:-1}"
v=$(field "$L6A.rep" 'VmSize grown')
h=$(field "$L6A.rep" 'heap reserve')
cmp_num "arenas: VmSize grew by at least (arenas - 1) x HEAP_MAX_SIZE ($h KiB)" "$v" -ge "${h:-1}"
cmp_num "arenas: 4 threads reserve at least 4 x 64 MiB" "${h:-0}" -ge $((4 * 65536))
n=$(awk '!/^# / { if (length > m) m = length } END { print m + 0 }' "$L6A.rep")
cmp_num "arenas: report fits 100 columns" "$n" -le 100
if grep -qiE 'good|bad|better|worse|goal' "$L6A.rep"; then
	fail "arenas: no verdicts in the report" "$(grep -iE 'good|bad|better|worse|goal' "$L6A.rep" | head -n 1)"
else
	pass "arenas: no verdicts in the report"
fi

# The program's own live count does not depend on the allocator's policy.
./arenas --csv --threads 3 --rounds 32 >"$L6A.d" 2>/dev/null
MALLOC_ARENA_MAX=2 ./arenas --csv --threads 3 --rounds 32 >"$L6A.m" 2>/dev/null
d=$(l6_csv "$L6A.d" live_after)
m=$(l6_csv "$L6A.m" live_after)
if [ -n "$d" ] && [ "$d" = "$m" ]; then pass "arenas: live after is the same under MALLOC_ARENA_MAX=2 ($d B)"
else fail "arenas: live after is the same under MALLOC_ARENA_MAX=2" "default '$d', arena_max=2 '$m'"; fi
cmp_num "arenas --csv: one header and one row" "$(grep -vc '^#' "$L6A.d")" -eq 2
cmp_num "arenas --csv: 96 blocks kept (3 threads x 32 requests, 85 slots each)" \
	"$(l6_csv "$L6A.d" live_kept)" -eq 96

# ------------------------------------------------------------ frames --trim
./frames --tune --trim --frames 2 --size 16M >"$L6A.fr" 2>"$L6A.err"
b=$(field "$L6A.fr" 'rss before trim')
a=$(field "$L6A.fr" 'rss after trim')
if [ -n "$a" ] && [ -n "$b" ]; then
	cmp_num "frames --tune --trim: malloc_trim returns the kept 16 MiB frame (KiB dropped)" \
		"$((b - a))" -ge $((16384 * 9 / 10))
else
	fail "frames --tune --trim: rss before and after trim" "missing: '$b' '$a'"
fi
./frames --tune --trim --frames 2 --size 16M --csv >"$L6A.frc" 2>/dev/null
if [ -n "$(l6_csv "$L6A.frc" rss_before_trim_kib)" ] && [ -n "$(l6_csv "$L6A.frc" rss_after_trim_kib)" ]; then
	pass "frames --trim --csv: rss_before_trim_kib and rss_after_trim_kib filled"
else
	fail "frames --trim --csv: the trim columns" "$(head -c 300 "$L6A.frc")"
fi
./frames --frames 1 --size 1M >"$L6A.fr0" 2>/dev/null
if grep -q 'trim' "$L6A.fr0"; then fail "frames without --trim: no trim lines" "$(grep trim "$L6A.fr0")"
else pass "frames without --trim: no trim lines"; fi

full_only "make lab6, lab6-tunables and lab6-strace"

# ------------------------------------------------------------ the targets
T6L() { make --no-print-directory -s "$@"; }
T6L lab6 ROUNDS=8 MAX_THREADS=4 >"$L6A.t" 2>"$L6A.err"
cmp_num "make lab6 ROUNDS=8 MAX_THREADS=4 exits 0" "$?" -eq 0
# Two tables (the KiB, then the arenas and x live), each a row a thread count.
cmp_num "lab6: a row for 1, 2 and 4 threads in each table" "$(grep -cE '^ +[124] +[0-9]' "$L6A.t")" -eq 6
cmp_num "lab6: nine commands shown" "$(grep -c '^\$ .*\./arenas --csv' "$L6A.t")" -eq 9
n=$(awk '!/^# / { if (length > m) m = length } END { print m + 0 }' "$L6A.t")
cmp_num "lab6: output fits 80 columns (header aside)" "$n" -le 80
# The arenas columns of the second table's 4-thread row: 5 by default, 2
# under MALLOC_ARENA_MAX=2.
r=$(awk '$1 == "threads" { t++ } t == 2 && $1 == 4 { print $2, $3 }' "$L6A.t")
if [ "$r" = "5 2" ]; then pass "lab6: 4 threads: 5 arenas by default, 2 with MALLOC_ARENA_MAX=2"
else fail "lab6: 4 threads: 5 arenas by default, 2 with MALLOC_ARENA_MAX=2" "got '$r'"; fi
[ -s "$L6A.err" ] && fail "lab6: no progress on stderr when it is not a terminal" "$(head -c 200 "$L6A.err")" ||
	pass "lab6: no progress on stderr when it is not a terminal"

T6L lab6-tunables ROUNDS=8 MAX_THREADS=4 >"$L6A.tt" 2>"$L6A.err"
cmp_num "make lab6-tunables ROUNDS=8 MAX_THREADS=4 exits 0" "$?" -eq 0
r=$(awk '$1 == "default" || $1 ~ /^(glibc\.malloc\.arena_max|MALLOC_ARENA_MAX)=/ { printf "%s ", $2 }' "$L6A.tt")
if [ "$r" = "5 1 2 2 " ]; then pass "lab6-tunables: arenas 5, then 1, 2, 2 under arena_max=1/2 and MALLOC_ARENA_MAX=2"
else fail "lab6-tunables: arenas under each setting" "got '$r'"; fi
n=$(awk '!/^# / { if (length > m) m = length } END { print m + 0 }' "$L6A.tt")
cmp_num "lab6-tunables: output fits 80 columns (header aside)" "$n" -le 80

T6L lab6-strace ROUNDS=16 >"$L6A.ts" 2>"$L6A.err"
cmp_num "make lab6-strace ROUNDS=16 exits 0" "$?" -eq 0
if strace_ok; then
	# 4 thread arenas with free pages between kept blocks: malloc_trim's
	# mtrim makes at least one madvise in each.
	d=$(awk '$1 == "default" { print $5 }' "$L6A.ts")
	t=$(awk '$1 == "--trim" { print $5 }' "$L6A.ts")
	needs_solution lab6.give_memory_back "lab6-strace: --trim makes at least 4 more madvise calls" &&
	cmp_num "lab6-strace: --trim makes at least 4 more madvise calls than without ($d)" \
		"$(( ${t:-0} - ${d:-0} ))" -ge 4
else
	grep -q "skipped: " "$L6A.ts" && pass "lab6-strace: says why it skipped" ||
		fail "lab6-strace: says why it skipped" "no 'skipped:'"
fi
for c in "ROUNDS=0 tools/labs/lab6.sh" "MAX_THREADS=x tools/labs/lab6.sh" "tools/labs/lab6.sh nosuch"; do
	check_refused "$c"
done
