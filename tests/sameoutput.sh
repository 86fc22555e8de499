#!/usr/bin/env bash
# tests/sameoutput.sh - tools/maint/same-output.sh holds a build of the lab
# programs to a revision's: in a clone of this tree (its working tree
# committed there, so HEAD is this tree whatever is uncommitted here),
# HEAD against the unchanged tree is the same output (exit 0: the masks
# hide everything that differs from run to run), and a label a student
# reads, changed by sed, is caught (exit 1, naming the command and the
# line).  Bad usage, an unknown revision and a kit without git exit 2.
# Those two full runs (four builds, the list four times) are make
# test-all's; a kit without git (a ZIP download) skips them.
. "$(dirname "$0")/lib.sh"
SO=tools/maint/same-output.sh

# refused NAME CMD...: CMD exits 2, with one line of reason and the usage
# on stderr and nothing on stdout.
refused() {
	local name=$1
	shift
	"$@" >"$TMP/out" 2>"$TMP/err"
	local rc=$?
	if [ "$rc" -eq 2 ] && [ ! -s "$TMP/out" ] && sed -n 2p "$TMP/err" | grep -q '^usage: '; then
		pass "$name: exit 2, the reason, then the usage"
	else
		fail "$name: exit 2, the reason, then the usage" "exit $rc; stderr: $(head -n 2 "$TMP/err")"
	fi
}

# A kit as a ZIP download holds it has no git to take a revision from.
kit_copy "$TMP/zip" || { fail "a copy of the kit without .git" "kit_copy failed"; exit 0; }
refused "same-output.sh in a kit without .git" "$TMP/zip/$SO"
if ! command -v git >/dev/null 2>&1 || ! [ "$(git rev-parse --show-toplevel 2>/dev/null)" -ef . ]; then
	skip "same-output.sh against a revision" "no git checkout here (a ZIP download, or git absent)"
	exit 0
fi
refused "same-output.sh --bogus" "$SO" --bogus
refused "same-output.sh HEAD HEAD" "$SO" HEAD HEAD
refused "same-output.sh no-such-revision" "$SO" no-such-revision
full_only "same-output.sh's two full runs (four builds)"

# A clone whose HEAD is this working tree.
C=$TMP/kit
if ! { git clone -q --shared . "$C" && kit_copy "$C" && git -C "$C" add -A &&
	git -C "$C" -c user.name=t -c user.email=t@example.org commit -q --allow-empty -m tree; } \
	>"$TMP/clone.log" 2>&1; then
	fail "a clone of this tree, committed" "$(tail -n 3 "$TMP/clone.log")"
	exit 0
fi

"$C/$SO" HEAD >"$TMP/same" 2>"$TMP/same.err"
rc=$?
if [ "$rc" -eq 0 ] && grep -q '^same output: [1-9][0-9]* commands' "$TMP/same"; then
	pass "HEAD against the unchanged tree: $(cat "$TMP/same")"
else
	fail "HEAD against the unchanged tree: the same output (exit 0)" \
		"exit $rc: $(head -n 5 "$TMP/same" "$TMP/same.err")"
fi

# A label every frames report prints, renamed: a student would see it.
# It is printed by Lab 1's instruments (tools/kit/frames.c).
P=tools/kit/frames.c
sed -i 's/"  sampled pixels:  /"  sampled pixel:   /' "$C/$P"
if cmp -s "$P" "$C/$P"; then
	fail "the planted change is made" "$P has no '  sampled pixels:  ' label to rename"
	exit 0
fi
"$C/$SO" HEAD >"$TMP/differ" 2>"$TMP/differ.err"
rc=$?
if [ "$rc" -eq 1 ] && grep -q '^\$ \./frames ' "$TMP/differ" &&
	grep -q '^  > *sampled pixel: ' "$TMP/differ" && grep -q '^[0-9]* of [0-9]* commands differ' "$TMP/differ"; then
	pass "a renamed label is caught: exit 1, $(tail -n 1 "$TMP/differ"), each named"
else
	fail "a renamed label is caught: exit 1, the command and the line named" \
		"exit $rc: $(head -n 5 "$TMP/differ" "$TMP/differ.err")"
fi
# Nothing printed wider than 80 columns.
w=$(cat "$TMP/same" "$TMP/differ" "$TMP/differ.err" |
	awk '{ if (length > m) m = length } END { print m + 0 }')
cmp_num "same-output.sh's lines fit 80 columns" "$w" -le 80
