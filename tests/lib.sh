# tests/lib.sh - the kit's whole test framework: sourced by tests/run.sh.
# Each check ends in exactly one of pass, fail or skip.  Nothing here
# times anything: tests assert counts and exit codes, never wall time.

PASSED=0 FAILED=0 SKIPPED=0
TMP=${TMP:-$(mktemp -d)}
[ -n "$TMP" ] && [ -d "$TMP" ] || { echo "tests/lib.sh: no temporary directory (mktemp -d failed: set TMPDIR)" >&2; exit 1; }

pass() { PASSED=$((PASSED + 1)); printf 'ok      %s\n' "$1"; }
fail() { FAILED=$((FAILED + 1)); printf 'FAIL    %s\n        %s\n' "$1" "$2"; }
skip() { SKIPPED=$((SKIPPED + 1)); printf 'skip    %s (%s)\n' "$1" "$2"; }

# field FILE LABEL: the first word after "LABEL:" on a "  label: value" line.
field() {
	awk -v l="$2" '
		{ line = $0; sub(/^ +/, "", line) }
		index(line, l ":") == 1 {
			v = substr(line, length(l) + 2); sub(/^ +/, "", v); sub(/ .*/, "", v)
			print v; exit
		}' "$1"
}

# check_exit NAME WANT CMD...: CMD must exit with status WANT.
check_exit() {
	local name=$1 want=$2 got
	shift 2
	"$@" >"$TMP/out" 2>"$TMP/err"
	got=$?
	if [ "$got" -eq "$want" ]; then pass "$name"
	else fail "$name" "exit $got, want $want: $(head -c 300 "$TMP/err")"; fi
}

# check_usage_error NAME CMD...: exit 2, a one-line reason, then the usage
# on stderr, and nothing on stdout.
check_usage_error() {
	local name=$1 got
	shift
	"$@" >"$TMP/out" 2>"$TMP/err"
	got=$?
	if [ "$got" -ne 2 ]; then fail "$name" "exit $got, want 2"
	elif ! grep -qi '^usage' "$TMP/err"; then fail "$name" "no usage on stderr"
	elif [ -s "$TMP/out" ]; then fail "$name" "wrote to stdout"
	else pass "$name"; fi
}

# near NAME GOT WANT PCT: |GOT - WANT| <= PCT% of WANT (and GOT is a number).
near() {
	local name=$1 got=$2 want=$3 pct=$4
	if awk -v g="$got" -v w="$want" -v p="$pct" 'BEGIN {
		if (g !~ /^-?[0-9.]+$/) exit 1
		d = g - w; if (d < 0) d = -d
		exit !(d <= w * p / 100) }'; then
		pass "$name ($got vs $want, ±$pct%)"
	else
		fail "$name" "got '$got', want $want ±$pct%"
	fi
}

# cmp_num NAME GOT OP WANT: a plain numeric comparison (-eq -ge -le -gt -lt).
cmp_num() {
	local name=$1 got=$2 op=$3 want=$4
	if [ -n "$got" ] && [ "$got" "$op" "$want" ] 2>/dev/null; then
		pass "$name ($got $op $want)"
	else
		fail "$name" "got '$got', want $op $want"
	fi
}

# strace_ok: strace is installed and allowed to trace here.
strace_ok() {
	command -v strace >/dev/null 2>&1 || { STRACE_WHY="strace is not installed"; return 1; }
	strace -o /dev/null true >/dev/null 2>&1 || { STRACE_WHY="strace cannot trace here (ptrace denied)"; return 1; }
	return 0
}

# syscall_count FILE NAME: the calls column of `strace -c` output for NAME.
syscall_count() {
	awk -v s="$2" '$NF == s { print $4; found = 1 }
		END { if (!found) print 0 }' "$1" | head -n 1
}
