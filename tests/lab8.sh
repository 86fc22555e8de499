#!/usr/bin/env bash
# tests/lab8.sh - Lab 8 (./policies, tools/labs/lab8.sh): a command the
# kit did not write, run under each malloc policy.
#
# What is deterministic and asserted here:
#  - the worked example (./policies --pack): its faults under the defaults
#    and under the pin lie within PACK_TOL of what policies predicts from
#    glibc's rules (start-up measured, the loop modelled), and the pin's
#    prediction is a fraction of the defaults'
#  - the advice follows its rule, which rests on counted faults: the pin,
#    with its settings, for the packer; for a compressor (gzip: no policy
#    cuts its faults) "the defaults are as good" and no setting,
#    three times out of three at the default runs; none from 2 runs; the
#    rounds rotate (the defaults first in round 1, last in round 2)
#  - each row's setting reaches the child: ./frames --env, run under every
#    row with --keep, prints the tunables that row set (and the preloaded
#    library: a stand-in built here, found through ALLOC_LIBDIR); a
#    setting left in policies' own environment reaches no row
#  - a static glibc program: the LD_PRELOAD rows are skipped and say why,
#    the tunables rows run (and the pin changes its output); a program
#    without libc.so.6 and a setuid one: one line, no table
#  - tests/bin/uninit reads memory it never wrote: the pin row's output
#    differs and is a finding, the defaults' and arenas2's are not; under
#    strace the defaults make one more munmap (its 1 MiB block's own map)
#  - a failing command: its status and stderr's last line, exit 1, no
#    advice; a timeout kills the run
#  - arguments reach the command untouched, stdin is replayed to every run,
#    make lab8 CMD='...' splits CMD as a shell does and expands nothing
#  - bad input: one line and the usage, exit 2
# Never a time.
. "$(dirname "$0")/lib.sh" || exit 1

P=./policies
PK=(--no-strace --runs 1)       # where neither the calls nor the advice matter
# How far a fault count may stray from its prediction: 1% of it plus 64
# pages (the kernel's and the loader's own, which vary by a few pages).
PACK_TOL_PCT=1 PACK_TOL_PAGES=64

# prediction_line FILE ROW: "PREDICTED MEASURED" from the packer's lines.
prediction_line() {
	awk -v r="$2" '$1 == r && $2 == "predicted" { print $3, $5; exit }' "$1"
}

# ------------------------------------------------------ the worked example
"$P" "${PK[@]}" --runs 3 -- "$P" --pack --blocks 12 >"$TMP/pack" 2>"$TMP/pack.err"
rc=$?
cmp_num "./policies --runs 3 -- ./policies --pack --blocks 12: exit status" "$rc" -eq 0
if grep -q '\[always\]' /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null; then
	skip "the packer's faults against the model" "THP always: heap faults are bounds"
else
	for row in defaults pin; do
		read -r want got <<<"$(prediction_line "$TMP/pack" "$row")"
		slack=$(( ${want:-0} * PACK_TOL_PCT / 100 + PACK_TOL_PAGES ))
		within "packer, $row: faults against the prediction" "${got:-none}" "${want:-0}" "$slack"
	done
fi
read -r d_want _ <<<"$(prediction_line "$TMP/pack" defaults)"
read -r p_want _ <<<"$(prediction_line "$TMP/pack" pin)"
cmp_num "packer: the pin predicts under half the defaults' faults" "$(( ${p_want:-0} * 2 ))" -lt "${d_want:-0}"
n_same=$(awk '/^(defaults|pin|arenas2|hugetlb1) / && $NF == "=" { n++ } END { print n + 0 }' "$TMP/pack")
cmp_num "packer: its output is the same under every glibc row" "$n_same" -eq 4

# ------------------------------------------------------------ the advice
# after_rule FILE: what FILE says from the advice's rule on.
after_rule() { sed -n '/^rule: /,$p' "$1"; }
pin_set="GLIBC_TUNABLES=glibc.malloc.mmap_threshold=268435456:"
after_rule "$TMP/pack" >"$TMP/pack.advice"
grep -q '^advice: pin\b' "$TMP/pack.advice" && grep -qF "$pin_set" "$TMP/pack.advice" &&
	grep -qF 'mallopt(M_MMAP_THRESHOLD, 268435456);' "$TMP/pack.advice" &&
	pass "packer: the advice is the pin (fewer faults in every run), with its settings" ||
	fail "packer: the advice is the pin, with its settings" "$(head -c 600 "$TMP/pack.advice")"
# A compressor allocates little and churns nothing: no policy cuts its
# faults, so no policy may be advised, however the wall times fall.
if command -v gzip >/dev/null 2>&1; then
	seq 1 20000 >"$TMP/gz.in"
	n_good=0 why=
	for i in 1 2 3; do
		"$P" --no-strace -- gzip -c "$TMP/gz.in" >"$TMP/gz$i" 2>/dev/null
		after_rule "$TMP/gz$i" >"$TMP/gz$i.advice"
		if grep -q "^runs: 5 a policy" "$TMP/gz$i" &&
		   grep -q '^advice: the defaults are as good' "$TMP/gz$i.advice" &&
		   ! grep -qE 'GLIBC_TUNABLES|LD_PRELOAD|MALLOC_|mallopt|rebuild' "$TMP/gz$i.advice"; then
			n_good=$((n_good + 1))
		else
			why="run $i: $(grep -e '^runs' -e '^advice' -A1 "$TMP/gz$i" | head -n 4)"
		fi
	done
	[ "$n_good" = 3 ] &&
		pass "gzip, 5 runs a policy (the default): 'the defaults are as good', no setting, 3 of 3" ||
		fail "gzip: 'the defaults are as good', no setting, 3 of 3" "$n_good of 3; $why"
else
	skip "gzip under every policy: no advice" "gzip is not installed"
fi

# ------------------------------------------- each setting reaches the child
mkdir -p "$TMP/lib" "$TMP/keep"
FAKE=$TMP/lib/libjemalloc.so.2
if printf 'int policies_stand_in;\n' | ${CC:-cc} -shared -fPIC -o "$FAKE" -x c - 2>"$TMP/cc.err"; then
	ALLOC_LIBDIR=$TMP/lib GLIBC_TUNABLES=glibc.malloc.perturb=1 "$P" "${PK[@]}" --keep "$TMP/keep" \
		-- ./frames --env >"$TMP/env" 2>&1
	k=$TMP/keep
	grep -q '^# GLIBC_TUNABLES=(unset)' "$k/defaults.1.out" && ! grep -q '^# LD_PRELOAD' "$k/defaults.1.out" &&
		pass "defaults: the child sees no GLIBC_TUNABLES, no LD_PRELOAD (policies' own dropped)" ||
		fail "defaults: the child sees no setting" "$(grep -e GLIBC -e LD_PRE "$k/defaults.1.out")"
	grep -q 'not passed on.*GLIBC_TUNABLES=glibc.malloc.perturb=1' "$TMP/env" &&
		pass "a setting in policies' environment is named as not passed on" ||
		fail "a setting in policies' environment is named" "$(head -n 12 "$TMP/env")"
	for want in "pin|# set: glibc.malloc.mmap_threshold=268435456:" \
		    "pin|# set: glibc.malloc.trim_threshold=536870912:" \
		    "arenas2|# set: glibc.malloc.arena_max=2:" "hugetlb1|# set: glibc.malloc.hugetlb=1:" \
		    "jemalloc|# LD_PRELOAD=$FAKE"; do
		row=${want%%|*} line=${want#*|}
		grep -qF -- "$line" "$k/$row.1.out" && pass "$row: the child prints '$line'" ||
			fail "$row: the child prints '$line'" "$(grep -e '^# set' -e LD_PRE "$k/$row.1.out")"
	done
else
	skip "each setting reaches the child" "no shared library can be built: $(head -n 1 "$TMP/cc.err")"
fi

# ------------------------------------------------------------ not glibc's
printf '#include <stdio.h>\nint main(void) { puts("hi"); return 0; }\n' >"$TMP/hi.c"
if ${CC:-cc} -static -o "$TMP/uninit-static" tests/uninit.c 2>"$TMP/cc.err"; then
	ALLOC_LIBDIR=$TMP/lib "$P" "${PK[@]}" -- "$TMP/uninit-static" >"$TMP/static" 2>&1
	grep -q '^skipped: jemalloc: static' "$TMP/static" &&
		pass "static glibc: the LD_PRELOAD row is skipped, saying why" ||
		fail "static glibc: the LD_PRELOAD row is skipped" "$(grep -e '^skipped' -e '^jemalloc' "$TMP/static")"
	grep -q '^pin .* 0 !$' "$TMP/static" &&
		pass "static glibc: the pin row runs and its tunables change the output" ||
		fail "static glibc: the pin row runs" "$(grep -e '^pin' -e '^program' -A1 "$TMP/static")"
else
	skip "a static glibc program" "${CC:-cc} -static cannot link here: $(head -n 1 "$TMP/cc.err")"
fi
# no_table NAME PATTERN FILE: policies reads FILE, prints the one line
# PATTERN says why no policy applies, and no table.
no_table() {
	check_exit "$1: exit 0" 0 "$P" "${PK[@]}" -- "$3"
	grep -q "$2" "$TMP/out" && ! grep -q '^policy' "$TMP/out" &&
		pass "$1: one line, no table" || fail "$1: one line, no table" "$(tail -n 3 "$TMP/out")"
}
# Linked to the loader but not to libc.so.6: nothing links malloc in.
if ${CC:-cc} -nostdlib -nostartfiles -o "$TMP/nolibc" -x c - -Wl,--no-as-needed -l:libm.so.6 \
	2>"$TMP/cc.err" <<'EOF'
void _start(void) { __asm__ volatile("mov $60, %eax\n xor %edi, %edi\n syscall"); }
EOF
then
	no_table "a program without libc.so.6" 'not libc.so.6' "$TMP/nolibc"
else
	skip "a program without libc.so.6" "it cannot be linked here (x86-64 only)"
fi
if command -v musl-gcc >/dev/null 2>&1 && musl-gcc -o "$TMP/musl" "$TMP/hi.c" 2>/dev/null; then
	no_table "a musl program" "not glibc's malloc" "$TMP/musl"
else
	skip "a musl program" "musl-gcc is not installed (apt-get install musl-tools)"
fi
# AT_SECURE comes with a change of user: a setuid file of another owner
# (only root can make one here), not one of your own (the kernel's rule,
# tools/kit/policies.c's set_id_switches; each checked against AT_SECURE itself).
secure_of() { "$1" --print-at-secure 2>/dev/null || echo "?"; }
cat >"$TMP/sec.c" <<'EOF'
#include <stdio.h>
#include <string.h>
#include <sys/auxv.h>
int main(int argc, char **argv)
{
	if (argc == 2 && !strcmp(argv[1], "--print-at-secure"))
		printf("%lu\n", getauxval(AT_SECURE));
	else
		puts("hi");
	return 0;
}
EOF
if ${CC:-cc} -o "$TMP/own" "$TMP/sec.c" 2>"$TMP/cc.err" && chmod u+s "$TMP/own"; then
	if [ "$(secure_of "$TMP/own")" = 0 ]; then
		check_exit "a setuid program of your own: exit 0" 0 "$P" "${PK[@]}" -- "$TMP/own"
		! grep -q 'AT_SECURE' "$TMP/out" && grep -q '^policy' "$TMP/out" &&
			pass "a setuid program of your own (AT_SECURE 0): its rows run" ||
			fail "a setuid program of your own (AT_SECURE 0): its rows run" "$(tail -n 3 "$TMP/out")"
	else
		skip "a setuid program of your own" "it starts with AT_SECURE $(secure_of "$TMP/own") here"
	fi
	cp "$TMP/own" "$TMP/setuid"
	if chown nobody "$TMP/setuid" 2>/dev/null && chmod u+s "$TMP/setuid" &&
	   [ "$(secure_of "$TMP/setuid")" = 1 ]; then
		no_table "a setuid program of another user (AT_SECURE 1)" 'setuid: AT_SECURE' "$TMP/setuid"
	else
		skip "a setuid program of another user" "chown nobody needs root, or it did not start with AT_SECURE 1"
	fi
else
	fail "a setuid test program builds" "$(head -c 300 "$TMP/cc.err")"
fi

# --------------------------------------------- memory read before written
check_exit "uninit under every policy: exit 0" 0 "$P" -- tests/bin/uninit
cp "$TMP/out" "$TMP/uninit"
grep -q '^pin .* !$' "$TMP/uninit" && grep -q "^finding: pin's output differs" "$TMP/uninit" &&
	pass "uninit: the pin's output differs, flagged as a finding" ||
	fail "uninit: the pin's output is flagged" "$(sed -n '/^policy/,/^(out/p' "$TMP/uninit")"
grep -q '^defaults .* =$' "$TMP/uninit" && grep -q '^arenas2 .* =$' "$TMP/uninit" &&
	! grep -q "^finding: arenas2" "$TMP/uninit" &&
	pass "uninit: the defaults and arenas2 agree (no finding)" ||
	fail "uninit: the defaults and arenas2 agree" "$(sed -n '/^policy/,/^(out/p' "$TMP/uninit")"
if strace_ok; then
	munmaps=$(awk '/^policy +brk/ { on = 1; next } on && ($1 == "defaults" || $1 == "pin") { print $4 }' \
		"$TMP/uninit" | paste -sd' ')
	read -r m_def m_pin <<<"$munmaps"
	cmp_num "uninit under strace: the defaults munmap once more than the pin" \
		"$(( ${m_def:-0} - ${m_pin:-0} ))" -eq 1
else
	skip "uninit under strace: munmap counts" "$STRACE_WHY"
fi

# -------------------------------------------------------- a failing command
check_exit "a command that fails: exit 1" 1 "$P" "${PK[@]}" -- sh -c 'echo first >&2; echo oops >&2; exit 3'
grep -q "^failed: defaults, run 1: exit 3; stderr's last line: oops" "$TMP/out" && ! grep -q '^advice:' "$TMP/out" &&
	pass "a failing command: its status and stderr's last line, no advice" ||
	fail "a failing command: status and last line" "$(grep -e '^failed' -e '^advice' "$TMP/out")"

# ------------------------------------------------- arguments and the input
mkdir -p "$TMP/args" "$TMP/stdin"
"$P" "${PK[@]}" --keep "$TMP/args" -- printf '[%s]\n' 'a b' "c'd" '' '$HOME *' >/dev/null 2>&1
printf '[a b]\n[c'"'"'d]\n[]\n[$HOME *]\n' >"$TMP/args.want"
cmp -s "$TMP/args.want" "$TMP/args/defaults.1.out" && cmp -s "$TMP/args.want" "$TMP/args/pin.1.out" &&
	pass "arguments with blanks, quotes and \$ reach the command untouched" ||
	fail "arguments reach the command untouched" "$(cat "$TMP/args/defaults.1.out")"
printf 'one\ntwo\n' >"$TMP/in"
"$P" "${PK[@]}" --runs 2 --keep "$TMP/stdin" -- cat <"$TMP/in" >"$TMP/cat" 2>&1
grep -q '^advice: none: 2 runs a policy cannot measure the noise' "$TMP/cat" &&
	! after_rule "$TMP/cat" | grep -qE 'GLIBC_TUNABLES|LD_PRELOAD|mallopt' &&
	pass "2 runs a policy: no advice, saying why" ||
	fail "2 runs a policy: no advice" "$(grep -A1 '^advice' "$TMP/cat")"
# Each run appends its row's setting to one file, in run order: round 2
# starts one row on, so the defaults (no setting) run first, then last.
"$P" "${PK[@]}" --runs 2 -- sh -c 'echo "${GLIBC_TUNABLES:-}${LD_PRELOAD:-}" >>"$0"' "$TMP/order" \
	>/dev/null 2>&1
order=$(awk '$0 == "" { printf "%d ", NR } END { print NR }' "$TMP/order")
n_rows=$(( $(grep -c . "$TMP/order") / 2 + 1 ))
[ "$order" = "1 $((2 * n_rows)) $((2 * n_rows))" ] &&
	pass "the rounds rotate: the defaults run first in round 1, last in round 2 ($n_rows rows)" ||
	fail "the rounds rotate" "the defaults' runs (line numbers), then the runs: $order"
n_in=0 n_out=0
for f in "$TMP"/stdin/*.out; do n_out=$((n_out + 1)); cmp -s "$TMP/in" "$f" && n_in=$((n_in + 1)); done
# (4 glibc rows, and one a preloaded allocator installed here, 2 runs each)
cmp_num "stdin is replayed to every run ($n_out runs)" "$n_in" -eq "$n_out"
cmp_num "... every row ran twice" "$n_out" -ge 8

# ------------------------------------------------------------- bad input
check_usage_error "no command: exit 2 and usage" "$P"
check_usage_error "a command not found: exit 2 and usage" "$P" -- no-such-command-here
check_usage_error "--runs 0: exit 2 and usage" "$P" --runs 0 -- true
check_usage_error "an unknown option: exit 2 and usage" "$P" --no-such-option -- true
CMD='echo "open' tools/labs/lab8.sh >"$TMP/out" 2>"$TMP/err"
rc=$?
[ "$rc" = 2 ] && grep -q '^lab8: CMD has an unclosed "' "$TMP/err" && [ ! -s "$TMP/out" ] &&
	pass "lab8.sh: CMD with an unclosed quote: one line, exit 2, nothing ran" ||
	fail "lab8.sh: CMD with an unclosed quote" "exit $rc: $(head -n 2 "$TMP/err")"

# --------------------------------------------------------------- python3
if command -v python3 >/dev/null 2>&1 && python3 -c 1 >/dev/null 2>&1; then
	check_exit "python3 under every policy: exit 0" 0 "$P" "${PK[@]}" -- python3 -c 'print(sum(range(10)))'
	n=$(awk '/^(defaults|pin|arenas2|hugetlb1) / && $(NF - 1) == 0 && $NF == "=" { n++ } END { print n + 0 }' "$TMP/out")
	cmp_num "python3: four glibc rows, each exit 0 and the same output" "$n" -eq 4
else
	skip "python3 under every policy" "python3 is not installed"
fi

full_only "make lab8 and CMD, --timeout, --csv"
# ------------------------------------------------------------ make lab8
make --no-print-directory -s lab8 REPEATS=1 CMD="printf '[%s]\n' 'a b' \"\$HOME\" \\*" >"$TMP/make" 2>&1
grep -qF "command: printf '[%s]\n' 'a b' '\$HOME' '*'" "$TMP/make" &&
	pass "make lab8 CMD=...: split as a shell splits, nothing expanded" ||
	fail "make lab8 CMD=...: split as a shell splits" "$(grep -e command -e Error "$TMP/make")"
make --no-print-directory -s lab8 REPEATS=1 >"$TMP/make" 2>&1
rc=$?
cmp_num "make lab8: the worked example, exit 0" "$rc" -eq 0
grep -q '^  pin  *predicted' "$TMP/make" && pass "make lab8: the packer's predictions are printed" ||
	fail "make lab8: the packer's predictions" "$(tail -n 5 "$TMP/make")"
widest=$(awk '{ if (length > w) w = length } END { print w + 0 }' "$TMP/make")
cmp_num "make lab8: fits 80 columns" "$widest" -le 80
brief_in_table "README's Lab 8 question and Look at name what make lab8 prints" 8 "$TMP/make"

check_exit "a run past --timeout: exit 1" 1 "$P" "${PK[@]}" --timeout 1 -- sleep 30
grep -q '^failed: defaults, run 1: killed after --timeout' "$TMP/out" &&
	pass "a run past --timeout is killed and said so" || fail "--timeout" "$(grep failed "$TMP/out")"
check_exit "--csv: exit 0" 0 "$P" "${PK[@]}" --csv -- true
n=$(tools/lib/csvget policy "$TMP/out" 2>/dev/null | wc -l)
cmp_num "--csv: one row a policy, the skipped ones too" "$n" -eq 7
