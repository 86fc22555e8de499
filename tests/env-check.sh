#!/usr/bin/env bash
# tests/env-check.sh - the environment check (tools/include/env.h) against the
# authority: what the running glibc's own loader parsed.
#
# `ld.so --list-tunables` (glibc 2.33+) prints every tunable's value after
# reading GLIBC_TUNABLES and the MALLOC_* aliases, so for each case the
# value env.h says is in force must be the loader's, and a setting env.h
# says is ignored must leave the loader's value unset (one malloc's setter
# refuses is stored all the same: tests/bin/setters measures what malloc
# kept).  Unset reads 0,
# except top_pad from 2.38 (its default, 0x20000).  The mmap_threshold cap
# of glibc <= 2.34 lives in malloc, not the loader, and 2.31 has no
# --list-tunables: those versions get the human-message checks only.
. "$(dirname "$0")/lib.sh" || exit 1

# env_cases: one GLIBC_TUNABLES value a line; "ALIAS=v;" prefixes add
# MALLOC_* variables.  Each one is something a student has typed.
env_cases() {
	cat <<'EOC'
glibc.malloc.mmap_threshold=256M
glibc.malloc.perturb=257
glibc.malloc.mmap_threshold=010:glibc.malloc.top_pad=-1
glibc.malloc.mmap_max=0:junk:glibc.malloc.perturb=170
glibc.malloc.mmap_max=0:
glibc.malloc.mmap_treshold=5:glibc.malloc.trim_threshold=1048576
glibc.malloc.mmap_max=99999999999
MALLOC_PERTURB_=7;glibc.malloc.perturb=300
MALLOC_MMAP_THRESHOLD_=256M;
MALLOC_MMAP_MAX_=5;glibc.malloc.mmap_max=0
glibc.malloc.arena_max=0:glibc.malloc.trim_threshold=08
glibc.malloc.tcache_count=3:glibc.malloc.hugetlb=1
glibc.malloc.perturb=170:
glibc.malloc.perturb=170:junk
glibc.malloc.perturb=170:glibc.malloc.top_pad=1=2
glibc.malloc.perturb=08:glibc.malloc.trim_threshold=0x10000
glibc.malloc.top_pad=:glibc.malloc.perturb=3
glibc.malloc.perturb=5:glibc.malloc.top_pad=0x
glibc.malloc.tcache_max=5000:glibc.malloc.tcache_count=70000:glibc.malloc.mxfast=200
EOC
}

# env_check_loader LABEL PREFIX...: run every case under the loader PREFIX
# (empty: the system's) and compare.
env_check_loader() {
	local label=$1 loader ver line envs tun bad=0 n=0 why=
	shift
	loader=${1:-$(ls /lib64/ld-linux-x86-64.so.2 /lib/ld-linux-aarch64.so.1 2>/dev/null | head -n 1)}
	[ -n "$loader" ] || { skip "env $label: the loader's view" "no ld.so found"; return; }
	if ! "$loader" --list-tunables >/dev/null 2>&1; then
		skip "env $label: items match the loader's --list-tunables" \
			"this loader has no --list-tunables (glibc < 2.33)"
		return
	fi
	ver=$("$@" tests/bin/env_items | sed -n 's/.* glibc=//p')
	while IFS= read -r line; do
		envs=()
		while [[ $line == MALLOC_*=*\;* ]]; do envs+=("${line%%;*}"); line=${line#*;}; done
		tun=$line
		n=$((n + 1))
		env "${envs[@]}" ${tun:+GLIBC_TUNABLES=$tun} "$@" tests/bin/env_items >"$TMP/ei" 2>/dev/null
		env "${envs[@]}" ${tun:+GLIBC_TUNABLES=$tun} "$loader" --list-tunables >"$TMP/lt" 2>/dev/null
		local name value fate got want
		while read -r name value fate; do
			[ "$name" = policy ] && continue
			got=$(awk -F': ' -v n="$name" '$1 == n { split($2, a, " "); print a[1] }' "$TMP/lt")
			[ -n "$got" ] || continue           # not a tunable of this glibc
			[[ $got == 0x* ]] || got=$(printf '0x%x' "$got")
			case $fate in
			applied|misread|unmodelled) want=$value ;;
			overridden) continue ;;             # the tunable's own item says
			refused) want=$value ;;             # stored; malloc's setter refuses it
			*)      # ignored: the loader must show the unset value, unless
				# an alias of the same tunable applied
				grep -q "^$name .* applied\$\|^$name .* misread\$" "$TMP/ei" && continue
				want=0x0
				[ "${name#glibc.malloc.}" = top_pad ] && [ "${ver#2.}" -ge 38 ] 2>/dev/null && want=0x20000 ;;
			esac
			if [ "$got" != "$want" ]; then
				bad=$((bad + 1)); why="$why [${envs[*]} $tun: $name kit $fate $want, loader $got]"
			fi
		done <"$TMP/ei"
	done < <(env_cases)
	if [ $bad -eq 0 ]; then
		pass "env $label (glibc $ver): $n cases, every item agrees with the loader's --list-tunables"
	else
		fail "env $label (glibc $ver): items vs the loader" "$why"
	fi
}

env_check_loader "system glibc"
# Other glibc releases, when tools/platforms/glibc.sh has them cached (.ci/run and
# `make matrix` fetch them; tests never touch the network).
for suite in bullseye trixie sid; do
	cache=${MALLOC_LABS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/malloc-labs}/glibc/$suite
	if [ -x tools/platforms/glibc.sh ] && [ -d "$cache/root" ] && p=$(tools/platforms/glibc.sh prefix "$suite" 2>/dev/null) &&
	   [ -n "$p" ]; then
		# shellcheck disable=SC2086
		env_check_loader "$suite" $p
	else
		skip "env $suite: items match its loader" "glibc for $suite is not cached (make matrix fetches it)"
	fi
done

# The words a student reads, on the system glibc.
envmsg() { # NAME PATTERN VAR=value...
	local name=$1 pat=$2
	shift 2
	env "$@" ./frames --env >"$TMP/envmsg" 2>&1
	if grep -q -- "$pat" "$TMP/envmsg"; then pass "env says: $name"
	else fail "env says: $name" "no /$pat/ in: $(tail -n 3 "$TMP/envmsg" | tr '\n' '|')"; fi
}
ver=$(tests/bin/env_items | sed -n 's/.* glibc=//p')
envmsg "a misspelt name is ignored, and the likely name" \
	'^# warning: glibc.malloc.mmap_treshold=1: no such tunable.*(mmap_threshold?)' \
	GLIBC_TUNABLES=glibc.malloc.mmap_treshold=1
envmsg "an inherited MALLOC_MMAP_MAX_=0 is in force" '^# set: MALLOC_MMAP_MAX_=0: main arena mmaps no block' \
	MALLOC_MMAP_MAX_=0
# What that line claims, and what it leaves out on purpose (tests/mmapmax.c
# says why, from malloc.c): under mmap_max=0 the main thread's 1 MiB block
# comes from the brk heap, and a second thread's 100 MiB block (more than
# a thread heap holds) is still mapped on its own.
if tests/bin/mmapmax >"$TMP/mmapmax" 2>&1 &&
   [ "$(tr '\n' '|' <"$TMP/mmapmax")" = "main: brk|thread: outside brk|" ]; then
	pass "env: mmap_max=0 keeps the main arena off mmap, not a thread's big block"
else
	fail "env: mmap_max=0 keeps the main arena off mmap, not a thread's big block" \
		"tests/bin/mmapmax printed: $(tr '\n' '|' <"$TMP/mmapmax")"
fi
envmsg "perturb=257 is out of range" '^# warning: glibc.malloc.perturb=257: out of range' \
	GLIBC_TUNABLES=glibc.malloc.perturb=257
case $ver in
2.3[0-8]|2.2*)
	envmsg "256M is read as 256 on glibc $ver" "^# warning: glibc.malloc.mmap_threshold=256M: glibc $ver reads '256M' as 256" \
		GLIBC_TUNABLES=glibc.malloc.mmap_threshold=256M ;;
*)
	envmsg "256M is rejected on glibc $ver" "^# warning: glibc.malloc.mmap_threshold=256M: not a number" \
		GLIBC_TUNABLES=glibc.malloc.mmap_threshold=256M ;;
esac
# A value in the tunable's range that malloc's setter refuses
# (tools/include/tunables.h, env_setter_max): the header says so, with the
# bound, and tests/bin/setters measures what malloc did: a refused value
# leaves its line as without it, a kept one is "set" and in force.  The
# bounds, malloc.c's at the running glibc: tcache_max 1032 up to 2.41
# (2.42's large bins keep up to 4 MiB - 24), tcache_count 65535, mxfast 160
# up to 2.42 (2.43 has no fastbins: nothing to measure).
tests/bin/setters >"$TMP/setters0" 2>&1
setter() { # SETTING WORDS MEASURED (a line's pattern, or "default")
	local name=$1 words=$2 want=$3 got title="setters: $1 in force (measured)"
	envmsg "$name: $words" "^# [a-z]*: glibc.malloc.$name: $words" GLIBC_TUNABLES=glibc.malloc.$name
	GLIBC_TUNABLES=glibc.malloc.$name tests/bin/setters >"$TMP/setters" 2>&1
	got=$(grep "^${name%%=*}:" "$TMP/setters" | tr '\n' '|')
	if [ "$want" = default ]; then
		title="setters: under $name malloc keeps its default (measured)"
		want=$(grep "^${name%%=*}:" "$TMP/setters0" | tr '\n' '|')
		[ "$got" = "$want" ]
	else
		grep -q -- "^$want\$" "$TMP/setters"
	fi && pass "$title" || fail "$title" "wanted ${want%|}; tests/bin/setters printed: $got"
}
case $ver in
2.3[1-9]|2.4[01])
	setter tcache_max=5000 "above 1032: glibc $ver refuses it" default ;;
*)
	setter tcache_max=5000 "= 5000" "tcache_max: a freed 2000-byte block is cached" ;;
esac
setter tcache_max=100 "= 100" "tcache_max: a freed 500-byte block is uncached"
setter tcache_count=70000 "above 65535: glibc $ver refuses it" default
setter tcache_count=3 "= 3" "tcache_count: 3 of 20 freed 100-byte blocks cached"
case $ver in
2.3[1-9]|2.4[0-2])
	setter mxfast=200 "above 160: glibc $ver refuses it" default
	setter mxfast=160 "= 160" "mxfast: [1-9][0-9]* of 20 freed 150-byte blocks in a fastbin" ;;
*)
	skip "setters: mxfast" "glibc $ver has no fastbins" ;;
esac
envmsg "another allocator is named" "^# warning: LD_PRELOAD: malloc() comes from libc_malloc_debug" \
	LD_PRELOAD=libc_malloc_debug.so.0
envmsg "the zero-page probe is reported" '^# read fault: .*([12] a page)'
# Lines fit a projector, even with a long GLIBC_TUNABLES.
GLIBC_TUNABLES=glibc.malloc.mmap_threshold=268435456:glibc.malloc.trim_threshold=536870912:glibc.malloc.top_pad=0:glibc.malloc.mmap_max=0 \
	./frames --env >"$TMP/envw" 2>&1
cmp_num "env header width with four tunables (columns)" "$(awk '{ if (length($0) > m) m = length($0) } END { print m + 0 }' "$TMP/envw")" -le 100
