#!/usr/bin/env bash
# tests/leftover.sh - allocator settings left in the shell (issue 22, item 3).
# A lab run whose "untuned" or "default" runs would silently carry a
# GLIBC_TUNABLES, MALLOC_* or LD_PRELOAD from the student's shell refuses
# (exit 2, one line naming the variables, nothing run); ALLOW_ENV=1 runs it
# with a "# warning:" line for each setting, from the lab and from the
# program; a setting the lab makes on purpose stays a "# set:" line.
. "$(dirname "$0")/lib.sh" || exit 1
full_only "settings left in the shell, at every lab target"
unset MALLOC_LABS_INHERITED ALLOW_ENV
LEFT=GLIBC_TUNABLES=glibc.malloc.mmap_threshold=1

# Every lab target, as make runs it: refused before its first run.
targets=(run lab1 lab1-tunables lab1-strace step1 step5 lab2 lab2-tunables lab2-strace
	variance-hist variance-history variance-threads variance-mlock lab3 lab3-tunables
	lab3-strace lab4 lab4-tunables lab4-strace gotcha lab5 lab5-tunables lab5-strace lab6
	lab6-tunables lab6-strace demo-strace plots)
bad=
for t in "${targets[@]}"; do
	env "$LEFT" make --no-print-directory -s "$t" PLOTS_DIR="$TMP/plots" RUN_DIR="$TMP/run" \
		>"$TMP/out" 2>"$TMP/err"
	rc=$?
	# make adds its own "*** [...] Error 2" line after the script's.
	if [ $rc -ne 2 ] || [ -s "$TMP/out" ] || ! grep -q "^[a-z0-9.-]*: unset GLIBC_TUNABLES (or ALLOW_ENV=1): it changes " "$TMP/err"; then
		bad="$bad $t(exit $rc: $(head -n 1 "$TMP/err" | cut -c1-80))"
	fi
done
if [ -z "$bad" ]; then
	pass "${#targets[@]} lab targets refuse a GLIBC_TUNABLES left in the shell: exit 2, the reason, nothing run"
else
	fail "lab targets refuse a leftover setting" "$bad"
fi
[ ! -e "$TMP/plots" ] && [ ! -e "$TMP/run" ] && pass "nothing written by a refused lab" ||
	fail "nothing written by a refused lab" "$(ls "$TMP/plots" "$TMP/run" 2>&1)"

# A driver alone: one line, exit 2, for MALLOC_* and LD_PRELOAD too.
check_refused "MALLOC_ARENA_MAX=2 tools/labs/lab6.sh"
check_refused "MALLOC_TOP_PAD_=0 tools/labs/lab4.sh"
check_refused "LD_PRELOAD=libc_malloc_debug.so.0 tools/labs/lab5.sh"
grep -q 'unset LD_PRELOAD (or ALLOW_ENV=1): it changes' "$TMP/err" && pass "the refusal names LD_PRELOAD" ||
	fail "the refusal names LD_PRELOAD" "$(cat "$TMP/err")"
# The kit's own MALLOC_LABS_* is not a setting; nor is make submit's refusal
# set off by the list a lab exports.
MALLOC_LABS_X=1 bash -c '. tools/lib/lib.sh; inherited_settings' >"$TMP/inh"
[ ! -s "$TMP/inh" ] && pass "MALLOC_LABS_* is the kit's, not an allocator setting" ||
	fail "MALLOC_LABS_* is the kit's" "$(cat "$TMP/inh")"

# ALLOW_ENV=1: the lab runs, a warning for each setting from the lab, and
# the program marks the leftover (shell) and says it reaches the untuned runs.
env "$LEFT" MALLOC_ARENA_MAX=1 ALLOW_ENV=1 SCALE=1000 tools/labs/lab4.sh tunables >"$TMP/allow" 2>&1
rc=$?
n=$(grep -c '^# warning: left in your shell: ' "$TMP/allow")
if [ $rc -eq 0 ] && [ "$n" -eq 2 ] && grep -q '^# warning: glibc.malloc.mmap_threshold=1 (shell): ' "$TMP/allow" &&
   grep -q '^# warning: MALLOC_ARENA_MAX=1 (shell): ' "$TMP/allow" &&
   grep -q '^# warning: (shell): left in your shell, so in force in every run' "$TMP/allow"; then
	pass "ALLOW_ENV=1 make lab4-tunables: runs, a warning a leftover from the lab and from ./frames"
else
	fail "ALLOW_ENV=1 lab4 tunables" "exit $rc, $n lab warnings: $(grep '^#' "$TMP/allow" | head -n 12)"
fi
# The lab's own settings in the same run are on purpose: "# set:", never (shell).
if grep -q '^# set: glibc.malloc.mmap_threshold=268435456: ' "$TMP/allow" &&
   ! grep -q '268435456.*(shell)' "$TMP/allow"; then
	pass "a setting the lab makes on purpose stays '# set:' beside a leftover"
else
	fail "the lab's own setting stays '# set:'" "$(grep 268435456 "$TMP/allow" | head -n 4)"
fi
cmp_num "ALLOW_ENV=1 lab4 tunables: widest line (columns)" \
	"$(awk '{ if (length($0) > m) m = length($0) } END { print m + 0 }' "$TMP/allow")" -le 100

# A program run by hand is not told, and says "# set:" as before.
env "$LEFT" ./frames --env >"$TMP/hand" 2>&1
grep -q '^# set: glibc.malloc.mmap_threshold=1: ' "$TMP/hand" && ! grep -q '(shell)' "$TMP/hand" &&
	pass "./frames by hand: the setting is '# set:' (it cannot tell where it came from)" ||
	fail "./frames by hand" "$(grep '^#' "$TMP/hand" | tail -n 3)"

# LD_PRELOAD: env_preloaded_allocator() names the library (glibc's own
# malloc-debug library is a preload every glibc >= 2.34 has).
if [ -z "$(ldconfig -p 2>/dev/null | awk '$1 == "libc_malloc_debug.so.0"')" ]; then
	skip "LD_PRELOAD names the allocator" "no libc_malloc_debug.so.0 (glibc < 2.34)"
else
	LD_PRELOAD=libc_malloc_debug.so.0 ./arenas --env >"$TMP/pre" 2>&1
	grep -q "^# warning: LD_PRELOAD: malloc() comes from libc_malloc_debug.so.0, not libc" "$TMP/pre" &&
		pass "LD_PRELOAD: the header names the preloaded allocator" ||
		fail "LD_PRELOAD names the allocator" "$(grep '^#' "$TMP/pre" | tail -n 3)"
fi
