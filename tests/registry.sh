#!/usr/bin/env bash
# tests/registry.sh - adding a lab is one row in tools/labs/registry, its
# program and its driver: in a copy of the kit, a scratch lab (the next
# free labN, a tiny program scratchN.c, a driver tools/labs/labN.sh) is
# added with no other edit, and make, its old name and knob, make help,
# make submit, make sanitize (when clang is here), make plots, make
# reference's record.sh, .gitignore and tests/labs.sh all pick it up.
# Also: tools/lib/registry.awk reads the registry alike under every awk
# found here, and refuses a broken row.
. "$(dirname "$0")/lib.sh"
full_only "a scratch lab added through the registry"

# ------------------------------------------------ registry.awk, every awk
want=$(awk -f tools/lib/registry.awk tools/labs/registry)
for a in mawk gawk original-awk "busybox awk"; do
	command -v "${a%% *}" >/dev/null 2>&1 || { skip "registry.awk under $a" "${a%% *} is not installed"; continue; }
	got=$($a -f tools/lib/registry.awk tools/labs/registry)
	if [ -n "$got" ] && [ "$got" = "$want" ]; then pass "registry.awk under $a: the same rows"
	else fail "registry.awk under $a: the same rows" "got: $(printf '%s\n' "$got" | head -n 2)"; fi
done
# make help's drawing (tools/lib/help.awk) alike under every awk too.
want=$(awk -v HELP=1 -f tools/lib/registry.awk -f tools/lib/help.awk tools/labs/registry)
for a in mawk gawk original-awk "busybox awk"; do
	command -v "${a%% *}" >/dev/null 2>&1 || continue
	got=$($a -v HELP=1 -f tools/lib/registry.awk -f tools/lib/help.awk tools/labs/registry)
	if [ -n "$got" ] && [ "$got" = "$want" ]; then pass "help.awk under $a: the same make help"
	else fail "help.awk under $a: the same make help" "$(diff <(printf '%s\n' "$want") <(printf '%s\n' "$got") | head -n 3)"; fi
done
printf '> lab1  a target\n>text with no blank\n' >"$TMP/badhelp"
check_exit "help.awk: a \">\" line of neither form is refused" 1 \
	awk -v HELP=1 -f tools/lib/registry.awk -f tools/lib/help.awk "$TMP/badhelp"
printf 'lab1 frames lab1.sh\n' >"$TMP/short"
check_exit "registry.awk: a row of 3 fields is refused" 1 awk -f tools/lib/registry.awk "$TMP/short"
grep -q 'line 1: 3 fields' "$TMP/err" && pass "registry.awk: names the line and its fields" ||
	fail "registry.awk: names the line and its fields" "$(cat "$TMP/err")"

# ------------------------------------------------------- a copy of the kit
# The copy keeps the built programs and the flags they were built with;
# make runs with KIT_REV as they were built, so it builds only the new one
# (the copy has no .git of its own).
N=$(lab_rows | awk '{ n = substr($1, 4) + 0; if (n > m) m = n } END { print m + 1 }')
K=$TMP/kit
mkdir -p "$K/build"
tar -cf - --exclude=./build --exclude=./.git --exclude=./.run --exclude=./submissions \
	--exclude=./plots --exclude=./answers . | tar -xf - -C "$K" ||
	{ fail "a copy of the kit" "tar failed"; exit 1; }
REV=$(cat build/kit-rev 2>/dev/null || echo unknown)
cp -p build/kit-rev build/flags "$K/build/" 2>/dev/null
KM() { make --no-print-directory -C "$K" KIT_REV="$REV" "$@"; }
# git, where it is installed, so the copy's .gitignore can be asked.
command -v git >/dev/null 2>&1 && git -C "$K" init -q 2>/dev/null

cat >"$K/scratch$N.c" <<'EOF'
/* scratch lab (tests/registry.sh): malloc, touch and free --blocks
 * blocks of 64 KiB; print how many and how many bytes. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void usage(FILE *f) { fputs("usage: scratch [--blocks N] [--csv]\n", f); }

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "blocks", required_argument, 0, 'b' }, { "csv", no_argument, 0, 'c' },
		{ "help", no_argument, 0, 'h' }, { 0, 0, 0, 0 } };
	long blocks = 4, i;
	int csv = 0, c;
	size_t bytes = 0;

	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		if (c == 'b') blocks = atol(optarg);
		else if (c == 'c') csv = 1;
		else if (c == 'h') { usage(stdout); return 0; }
		else { usage(stderr); return 2; }
	}
	for (i = 0; i < blocks; i++) {
		char *p = malloc(65536);
		if (!p) return 1;
		memset(p, 1, 65536);
		__asm__ volatile("" : : "r"(p) : "memory");   /* keep the work */
		bytes += 65536;
		free(p);
	}
	if (csv) printf("blocks,bytes\n%ld,%zu\n", blocks, bytes);
	else printf("blocks: %ld\nbytes: %zu\n", blocks, bytes);
	return 0;
}
EOF
cat >"$K/tools/labs/lab$N.sh" <<EOF
#!/usr/bin/env bash
# scratch lab (tests/registry.sh): table, strace, plot.
set -u -o pipefail
cd "\$(dirname "\$0")/../.." || exit 1
. tools/lib/lib.sh
prog=lab$N
usage() { echo "usage: tools/labs/lab$N.sh table|strace|plot"; }
case \${1:-} in
table) show_cmd ./scratch$N --blocks "\${FRAMES:-4}"; ./scratch$N --blocks "\${FRAMES:-4}" ;;
strace) strace_works || { echo "\$prog: skipped: \$STRACE_WHY"; exit 0; }
	strace -c -e trace=mmap,munmap ./scratch$N ;;
plot) for n in 1 2 4; do ./scratch$N --csv --blocks \$n; done | awk 'NR == 1 || !/^blocks/' \\
		>"\$CSV_DIR/lab$N.csv" &&
	tools/plots/plot --x blocks --y bytes "\$CSV_DIR/lab$N.csv" >"\$PLOTS_DIR/plot-lab$N-blocks.svg" ;;
*) bad_usage "no mode '\${1:-}'" ;;
esac
EOF
chmod +x "$K/tools/labs/lab$N.sh"
printf 'lab%s scratch%s lab%s.sh strace no scratch blocks blocks FRAMES --blocks 2\n' "$N" "$N" "$N" \
	>>"$K/tools/labs/registry"

# ------------------------------------------------------------------ make
KM all >"$TMP/n" 2>&1
built=$(grep -o -- '-o [^ ]*' "$TMP/n" | paste -sd' ')
if [ "$built" = "-o scratch$N" ]; then pass "make builds the new program, and only it"
else fail "make builds the new program, and only it" "builds: $built"; fi
KM lab$N FRAMES=3 >"$TMP/out" 2>&1
rc=$?
if [ $rc -eq 0 ] && grep -q '^blocks: 3$' "$TMP/out" && [ -x "$K/scratch$N" ]; then
	pass "make lab$N FRAMES=3 runs its driver's table"
else
	fail "make lab$N FRAMES=3 runs its driver's table" "exit $rc: $(tail -n 3 "$TMP/out")"
fi
KM scratch FRAMES=5 >"$TMP/out" 2>&1 && grep -q '^blocks: 5$' "$TMP/out" &&
	pass "make scratch (its old name) runs the table" ||
	fail "make scratch (its old name) runs the table" "$(tail -n 3 "$TMP/out")"
KM lab$N FRAMES=0 >"$TMP/out" 2>&1
rc=$?
[ $rc -eq 2 ] && grep -q 'FRAMES wants a whole number' "$TMP/out" &&
	pass "make lab$N FRAMES=0: the FRAMES knob is checked for it too" ||
	fail "make lab$N FRAMES=0: the FRAMES knob is checked for it too" "exit $rc: $(tail -n 2 "$TMP/out")"
KM lab$N-strace >"$TMP/out" 2>&1 && grep -q 'mmap\|skipped: ' "$TMP/out" &&
	pass "make lab$N-strace runs its driver's strace" ||
	fail "make lab$N-strace runs its driver's strace" "$(tail -n 3 "$TMP/out")"
KM -n lab$N-tunables >"$TMP/out" 2>&1 && fail "no lab$N-tunables: its row has none" "make -n succeeded" ||
	pass "no lab$N-tunables: its row has none"
# make help: its targets (its old name beside the table's; no -tunables:
# its row has none), each as the command it runs (it has no ">" line),
# and its knob under its id; every line within 80 columns.
KM help >"$TMP/help" 2>&1
rc=$?
want=$(printf '%-28s%s\n' "  make lab$N (scratch)" "tools/labs/lab$N.sh table" \
	"  make lab$N-strace" "tools/labs/lab$N.sh strace")
got=$(grep -E "^  make lab$N[ -]" "$TMP/help")
if [ $rc -eq 0 ] && [ "$got" = "$want" ]; then pass "make help lists lab$N's targets from its row"
else fail "make help lists lab$N's targets from its row" "exit $rc: $got"; fi
grep -qE "^  lab$N +FRAMES\$" "$TMP/help" && pass "make help lists lab$N's knob" ||
	fail "make help lists lab$N's knob" "$(grep -A1 "^  lab$N " "$TMP/help")"
w=$(awk '{ if (length > w) w = length } END { print w + 0 }' "$TMP/help")
cmp_num "make help with lab$N fits 80 columns" "$w" -le 80

# ---------------------------------------------------------------- submit
# submit.sh checks every program the registry names (its steps are the
# grader's step table's): without scratchN it refuses, naming it.
# make submit builds it first (make -n lists that build, and only it).
mv "$K/scratch$N" "$K/scratch$N.kept"
(cd "$K" && STUDENT=reg OUT="$TMP/sub.txt" tools/submit.sh) >"$TMP/out" 2>&1
rc=$?
KM -n submit >"$TMP/plan" 2>&1
plan_rc=$?
mv "$K/scratch$N.kept" "$K/scratch$N"
[ $rc -eq 1 ] && grep -q "\./scratch$N is not built" "$TMP/out" && [ ! -e "$TMP/sub.txt" ] &&
	pass "tools/submit.sh checks scratch$N is built" ||
	fail "tools/submit.sh checks scratch$N is built" "exit $rc: $(tail -n 2 "$TMP/out")"
[ $plan_rc -eq 0 ] && [ "$(grep -c -- ' -o ' "$TMP/plan")" = 1 ] && grep -q -- "-o scratch$N " "$TMP/plan" &&
	pass "make submit builds scratch$N first" || fail "make submit builds scratch$N first" "exit $plan_rc: $(tail -n 2 "$TMP/plan")"

# -------------------------------------------------------------- sanitize
if ! command -v clang >/dev/null 2>&1; then
	skip "make sanitize SANITIZE_LABS=lab$N" "clang is not installed (apt-get install clang)"
else
	KM sanitize SANITIZE_LABS=lab$N >"$TMP/out" 2>&1
	rc=$?
	if [ $rc -eq 0 ] && grep -q "^ok .*build/asan-gcc/scratch$N --blocks 2$" "$TMP/out" &&
	   grep -q "^ok .*build/asan-clang/scratch$N --blocks 2$" "$TMP/out"; then
		pass "make sanitize SANITIZE_LABS=lab$N: its quick run under ASan, gcc and clang"
	else
		fail "make sanitize SANITIZE_LABS=lab$N: its quick run under ASan, gcc and clang" \
			"exit $rc: $(tail -n 3 "$TMP/out")"
	fi
fi

# ----------------------------------------------------------------- plots
KM plots PLOT_LABS=lab$N PLOTS_DIR="$TMP/plots" >"$TMP/out" 2>&1
rc=$?
svg=$TMP/plots/plot-lab$N-blocks.svg
if [ $rc -eq 0 ] && grep -qF "wrote $svg" "$TMP/out" && grep -q '<svg' "$svg"; then
	pass "make plots PLOT_LABS=lab$N: its driver drew the picture its row names"
else
	fail "make plots PLOT_LABS=lab$N: its driver drew the picture its row names" "exit $rc: $(tail -n 3 "$TMP/out")"
fi
if [ -x tests/bin/xmlcheck ] && [ -s "$svg" ]; then
	check_exit "plot-lab$N-blocks.svg is well-formed XML" 0 tests/bin/xmlcheck "$svg"
fi

# ---------------------------------------------------------------- record
mkdir -p "$TMP/rec"
(cd "$K" && RESULTS_DIR=$TMP/rec MAKEFLAGS="KIT_REV=$REV" tools/maint/record.sh lab$N) >"$TMP/out" 2>&1
rc=$?
files=$(ls "$TMP/rec" | paste -sd' ')
if [ $rc -eq 0 ] && [ "$files" = "lab$N-blocks.txt lab$N-strace.txt" ]; then
	pass "record.sh lab$N: its table and its strace, named by its row"
else
	fail "record.sh lab$N: its table and its strace, named by its row" "exit $rc: $files $(tail -n 2 "$TMP/out")"
fi

# ----------------------------------------------------------------- tests
(cd "$K" && TEST_LABS=lab$N bash tests/labs.sh) >"$TMP/out" 2>&1
rc=$?
if [ $rc -eq 0 ] && grep -q "lab$N: make lab$N scratch lab$N-strace: each runs" "$TMP/out" &&
   grep -q "scratch$N --help exits 0" "$TMP/out"; then
	pass "tests/labs.sh checks lab$N's row, targets and program"
else
	fail "tests/labs.sh checks lab$N's row, targets and program" "exit $rc: $(grep -v '^ok' "$TMP/out" | head -n 3)"
fi
if [ -d "$K/.git" ]; then
	grep -q "scratch$N: git ignores the built program" "$TMP/out" &&
		pass ".gitignore covers scratch$N" || fail ".gitignore covers scratch$N" "no such check passed"
else
	skip ".gitignore covers scratch$N" "git is not installed"
fi
