#!/usr/bin/env bash
# tests/labs.sh - what every lab in tools/labs/registry must have, checked
# row by row, so a new row is checked with no edit here: its driver, its
# make targets (and old names) running that driver, make help naming it,
# its program's --help and option errors, its quick run, and git ignoring
# the built program.  The lab-specific checks are in tests/labN.sh.
# TEST_LABS="lab1 lab4": only those rows (tests/registry.sh uses it).
. "$(dirname "$0")/lib.sh"

# shellcheck disable=SC2086
rows=$(lab_rows ${TEST_LABS:-}) || { fail "tools/labs/registry is read" "lab_rows failed"; exit 1; }
pass "tools/labs/registry is read ($(printf '%s\n' "$rows" | wc -l) labs)"

# The registry itself: ids unique and labN, every "more" a known mode.
dups=$(printf '%s\n' "$rows" | awk '{ print $1 }' | sort | uniq -d | paste -sd' ')
bad=$(printf '%s\n' "$rows" | awk '$1 !~ /^lab[0-9]+$/ || $4 !~ /^(-|((tunables|strace),?)+)$/ ||
	$5 !~ /^(yes|no)$/ { printf " %s", $1 }')
if [ -z "$dups$bad" ]; then pass "registry: ids unique, labN, more and threads well-formed"
else fail "registry: ids unique, labN, more and threads well-formed" "repeated: $dups; bad rows:$bad"; fi

make --no-print-directory -s help >"$TMP/help" 2>&1
in_git=0
git rev-parse --is-inside-work-tree >/dev/null 2>&1 && in_git=1
seen=' '
while read -r id program driver more threads old plots rec knobs quick; do
	# The driver, and the command each target runs (make -n: nothing runs).
	if [ -x "tools/labs/$driver" ]; then pass "$id: tools/labs/$driver is there"
	else fail "$id: tools/labs/$driver is there" "missing or not executable"; fi
	check_refused "tools/labs/$driver no-such-mode"
	# One make -n for all its names: each prints its driver's line, in order.
	names=() want=
	for m in table ${more//,/ }; do
		[ "$m" != - ] || continue
		t=$id; [ "$m" = table ] || t=$id-$m
		names+=("$t")
		for o in ${old//,/ }; do
			case $m:$o in -:* | *:- | table:*-tunables | table:*-strace) continue ;;
			table:* | *:*-"$m") names+=("$o") ;; esac
		done
	done
	for n in "${names[@]}"; do
		m=table
		case $n in *-tunables) m=tunables ;; *-strace) m=strace ;; esac
		want="$want tools/labs/$driver $m;"
	done
	make --no-print-directory -n "${names[@]}" >"$TMP/n" 2>&1
	got=$(grep -o "tools/labs/[^ ]* [a-z]*\$" "$TMP/n" | sed 's/^/ /; s/$/;/' | tr -d '\n')
	if [ "$got" = "$want" ]; then pass "$id: make ${names[*]}: each runs its driver's mode"
	else fail "$id: make ${names[*]}: each runs its driver's mode" "want$want, got$got"; fi
	if grep -qw -- "$id" "$TMP/help"; then pass "$id: make help names it"
	else fail "$id: make help names it" "$(tail -n 2 "$TMP/help")"; fi
	# The program: once, however many labs run it.
	[[ $seen == *" $program "* ]] && continue
	seen="$seen$program "
	check_exit "$program --help exits 0" 0 "./$program" --help
	widest=$(awk '{ if (length > w) w = length } END { print w + 0 }' "$TMP/out")
	cmp_num "$program --help fits 100 columns" "$widest" -le 100
	check_usage_error "$program --no-such-option: exit 2 and usage" "./$program" --no-such-option
	read -r -a args <<<"$quick"
	check_exit "$program's quick run ($quick) exits 0" 0 "./$program" "${args[@]}"
	if [ "$in_git" = 1 ]; then
		if git check-ignore -q "$program"; then pass "$program: git ignores the built program"
		else fail "$program: git ignores the built program" ".gitignore does not cover it"; fi
	else
		skip "$program: git ignores the built program" "not a git checkout"
	fi
done <<<"$rows"
