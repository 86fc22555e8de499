#!/usr/bin/env bash
# tests/registry.sh - adding a lab is one row in tools/labs/registry, its
# program and its driver: in a copy of the kit, a scratch lab (the next
# free labN, a tiny program scratchN.c, a driver tools/labs/labN.sh) is
# added with no other edit, and make, its old name and knob, make help,
# make submit, make sanitize (when clang is here), make plots, make
# reference's record.sh, .gitignore and tests/labs.sh all pick it up;
# graded (two rows of tools/grading/steps, and no other edit, see the
# end), make submit records it and tools/grade.sh grades it, while the
# shipped files grade as before.
# Its knobs are its lines in tools/labs/knobs: a knob another lab has too
# (ROUNDS, Lab 6's) takes the scratch lab's default and range, never the
# other's.  make refuses a knob out of its lab's range in one line before
# anything runs (make lab1 FRAMES=0, make lab7 FRAMES=0); no driver holds
# a knob's default or range of its own.
# Also: tools/lib/registry.awk reads the registry alike under every awk
# found here, and refuses a broken row; tools/lib/knobs.awk reads a lab's
# knobs alike.
. "$(dirname "$0")/lib.sh"
full_only "a scratch lab added through the registry"

# ------------------------------------------------ registry.awk, every awk
RK=(tools/labs/registry tools/labs/knobs)
want=$(awk -v SEP='|' -f tools/lib/registry.awk "${RK[@]}")
# A lab's knobs, as a driver gets them: defaults, and a refusal.
kwant=$(awk -v KEYS='lab2-tunables lab2' -f tools/lib/knobs.awk tools/labs/knobs;
	BYTES=17G awk -v KEYS=lab5 -f tools/lib/knobs.awk tools/labs/knobs; echo "exit $?")
for a in mawk gawk original-awk "busybox awk"; do
	command -v "${a%% *}" >/dev/null 2>&1 || { skip "registry.awk under $a" "${a%% *} is not installed"; continue; }
	got=$($a -v SEP='|' -f tools/lib/registry.awk "${RK[@]}")
	if [ -n "$got" ] && [ "$got" = "$want" ]; then pass "registry.awk under $a: the same rows"
	else fail "registry.awk under $a: the same rows" "got: $(printf '%s\n' "$got" | head -n 2)"; fi
	got=$($a -v KEYS='lab2-tunables lab2' -f tools/lib/knobs.awk tools/labs/knobs;
	      BYTES=17G $a -v KEYS=lab5 -f tools/lib/knobs.awk tools/labs/knobs; echo "exit $?")
	if [ "$got" = "$kwant" ]; then pass "knobs.awk under $a: the same defaults and refusal"
	else fail "knobs.awk under $a: the same defaults and refusal" "got: $(printf '%s' "$got" | paste -sd'|')"; fi
done
# Each lab's knobs, as the table has them (not as another lab has them).
printf '%s\n' "$kwant" | grep -qx 'VARIANCE_ITERS 200000' && printf '%s\n' "$kwant" | grep -qx 'RUN_DIR .run' &&
	printf '%s\n' "$kwant" | grep -qx "BYTES wants a size (a number, then K, M or G) from 1 to 16G, not '17G'" &&
	pass "knobs.awk: lab2-tunables' defaults, lab5's BYTES=17G refused with its range" ||
	fail "knobs.awk: lab2-tunables' defaults, lab5's BYTES=17G refused with its range" "$kwant"
printf 'lab1 FRAMES 100 1..1000000 frames\nlab99 FRAMES 1 1..2 frames\nlab1 SIZE 1 1-2 bytes\n' >"$TMP/knobs"
check_exit "registry.awk: a knob line of no lab, or with no range, is refused" 1 \
	awk -f tools/lib/registry.awk tools/labs/registry "$TMP/knobs"
grep -q 'line 2: no lab lab99' "$TMP/err" && grep -q 'line 3: want LAB KNOB DEFAULT MIN..MAX' "$TMP/err" &&
	pass "registry.awk: names the knob lines" || fail "registry.awk: names the knob lines" "$(cat "$TMP/err")"

# The defaults and ranges are the table's alone: no driver (tools/labs/
# lab*.sh) gives a knob a default (\${NAME:-...}, NAME=\${...}), checks
# one (knob, need_number, need_count, [[ $NAME =~ ]]) or compares it with
# its default ("$NAME" = DEFAULT) itself: lab_knobs gives it both, and
# lab_default the default a driver leaves out of a program's arguments.
# A knob whose line has no default ("-") is worked out by its driver, as
# the line's meaning says.  The check is tried first on a driver written
# the old way, which it must catch.
own_knob_rules() {   # own_knob_rules FILE...: the lines that break the rule
	local n d re
	while read -r n d; do
		re="\\\$\\{$n:?[-=]|^[[:space:]]*$n=\\\$\\{|(knob|need_number|need_count) $n |\\[\\[ \\\$$n =~"
		grep -HnE "$re|\"\\\$$n\" = \"?$d([\" ]|\$)" "$@"
	done < <(awk '!/^[ \t]*#/ && NF >= 4 && $3 != "-" { print $2, $3 }' tools/labs/knobs | sort -u)
	grep -HnE '^[[:space:]]*(knob|need_number|need_count) [A-Z]' "$@"
}
printf 'FRAMES=${FRAMES:-100}\n[ "$FRAMES" = 100 ] && N=\nknob SCALE 1 1 1000000\n' >"$TMP/olddriver.sh"
n=$(own_knob_rules "$TMP/olddriver.sh" | sort -u | wc -l)
cmp_num "the check finds a driver's own default, range and tie to a program's default" "$n" -eq 3
if own_knob_rules tools/labs/lab*.sh >"$TMP/own"; then
	fail "no driver holds a knob's default or range (tools/labs/knobs does)" "$(head -n 3 "$TMP/own")"
else
	pass "no driver holds a knob's default or range (tools/labs/knobs does)"
fi
# Lab 1's FRAMES default is ./frames' own, Lab 3's LIVE ./threads' own:
# lab1.sh and lab3.sh leave the argument out at it (lab_default).
for c in "lab1 FRAMES frames --frames" "lab3 LIVE threads --live"; do
	read -r l n p o <<<"$c"
	own=$(./$p --help | sed -n "s/.*$o [A-Z]* .*(default \([0-9]*\)).*/\1/p")
	tab=$(. tools/lib/lib.sh && lab_default "$l" "$n")
	[ -n "$own" ] && [ "$own" = "$tab" ] &&
		pass "$l's $n default in tools/labs/knobs is ./$p's own ($own)" ||
		fail "$l's $n default in tools/labs/knobs is ./$p's own" "./$p: '$own', the table: '$tab'"
done
# make help's drawing (tools/lib/help.awk) alike under every awk too.
want=$(awk -v HELP=1 -f tools/lib/registry.awk -f tools/lib/help.awk tools/labs/registry tools/labs/knobs)
for a in mawk gawk original-awk "busybox awk"; do
	command -v "${a%% *}" >/dev/null 2>&1 || continue
	got=$($a -v HELP=1 -f tools/lib/registry.awk -f tools/lib/help.awk tools/labs/registry tools/labs/knobs)
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
# The copy keeps the built programs, the kit's units they link and the
# flags they were built with; make runs with KIT_REV as they were built,
# so it builds only the new one (the copy has no .git of its own).  All
# of it goes through tar, which keeps whole seconds of each time: a
# program copied so, beside its unit's object copied to the nanosecond,
# would look older than the object made the same second before it.
N=$(lab_rows | awk '{ n = substr($1, 4) + 0; if (n > m) m = n } END { print m + 1 }')
K=$TMP/kit
mkdir -p "$K/build"
tar -cf - --exclude=./build --exclude=./.git --exclude=./.run --exclude=./submissions \
	--exclude=./plots --exclude=./answers . | tar -xf - -C "$K" ||
	{ fail "a copy of the kit" "tar failed"; exit 1; }
REV=$(cat build/kit-rev 2>/dev/null || echo unknown)
tar -cf - build/kit-rev build/flags build/kit 2>/dev/null | tar -xf - -C "$K"
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
table) lab_knobs lab$N; echo "rounds: \$ROUNDS"
	show_cmd ./scratch$N --blocks "\$FRAMES"; ./scratch$N --blocks "\$FRAMES" ;;
strace) strace_works || { echo "\$prog: skipped: \$STRACE_WHY"; exit 0; }
	strace -c -e trace=mmap,munmap ./scratch$N ;;
plot) for n in 1 2 4; do ./scratch$N --csv --blocks \$n; done | awk 'NR == 1 || !/^blocks/' \\
		>"\$CSV_DIR/lab$N.csv" &&
	tools/plots/plot --x blocks --y bytes "\$CSV_DIR/lab$N.csv" >"\$PLOTS_DIR/plot-lab$N-blocks.svg" ;;
*) bad_usage "no mode '\${1:-}'" ;;
esac
EOF
chmod +x "$K/tools/labs/lab$N.sh"
printf 'lab%s scratch%s lab%s.sh strace no scratch blocks blocks --blocks 2\n' "$N" "$N" "$N" \
	>>"$K/tools/labs/registry"
printf 'lab%s FRAMES 4 1..1000 blocks a run\nlab%s ROUNDS 7 1..100 rounds\n' "$N" "$N" >>"$K/tools/labs/knobs"

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
# km_says NAME RC RE MAKE-ARGS...: make in the copy exits RC and prints a
# line that matches RE (grep -E).
km_says() {
	local name=$1 want=$2 re=$3 rc
	shift 3
	KM "$@" >"$TMP/out" 2>&1
	rc=$?
	if [ $rc -eq "$want" ] && grep -Eq -- "$re" "$TMP/out"; then pass "$name"
	else fail "$name" "exit $rc: $(grep -v '^#' "$TMP/out" | tail -n 3)"; fi
}
km_says "make lab$N FRAMES=0: the FRAMES knob is checked for it, in its range" 2 \
	'FRAMES wants a whole number from 1 to 1000,' lab$N FRAMES=0
# ROUNDS is Lab 6's knob too (default 256, up to 1000000): the scratch lab
# has its own line, so its own default and range.
km_says "make lab$N: its own ROUNDS default (7, not Lab 6's 256)" 0 '^rounds: 7$' lab$N
grep -qx 'blocks: 4' "$TMP/out" && pass "make lab$N: its own FRAMES default (4)" ||
	fail "make lab$N: its own FRAMES default (4)" "$(grep '^blocks' "$TMP/out")"
km_says "make lab$N ROUNDS=256: refused in its range (1 to 100), not Lab 6's" 2 \
	"ROUNDS wants a whole number from 1 to 100, not '256'" lab$N ROUNDS=256
(cd "$K" && ROUNDS= tools/labs/lab$N.sh table) >"$TMP/out" 2>&1 && grep -qx 'rounds: 7' "$TMP/out" &&
	pass "tools/labs/lab$N.sh run by hand: the same defaults" ||
	fail "tools/labs/lab$N.sh run by hand: the same defaults" "$(head -n 3 "$TMP/out")"

# make lab1 FRAMES=0 and make lab7 FRAMES=0: one line from make with the
# range of that lab's line, exit 2, before anything runs: with a new OPT
# make would rebuild the labs first (build/flags), and builds nothing.
for l in lab1 lab7; do
	range=$(awk -v l=$l '$1 == l && $2 == "FRAMES" { sub(/\.\./, " to ", $4); print $4 }' tools/labs/knobs)
	cp "$K/build/flags" "$TMP/flags"
	KM $l FRAMES=0 OPT=-O0 >"$TMP/out" 2>"$TMP/err"
	rc=$?
	if [ $rc -eq 2 ] && [ ! -s "$TMP/out" ] && [ "$(wc -l <"$TMP/err")" -eq 1 ] &&
	   grep -q "^Makefile:[0-9]*: \*\*\* FRAMES wants a whole number from $range, not '0'" "$TMP/err" &&
	   cmp -s "$TMP/flags" "$K/build/flags"; then
		pass "make $l FRAMES=0: refused by make in one line (from $range), nothing built or run"
	else
		fail "make $l FRAMES=0: refused by make in one line (from $range)" \
			"exit $rc; stdout: $(head -c 200 "$TMP/out"); stderr: $(head -c 300 "$TMP/err")"
	fi
done
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
grep -qE "^  lab$N +FRAMES=4 +blocks a run\$" "$TMP/help" && pass "make help lists lab$N's knob, its default and meaning" ||
	fail "make help lists lab$N's knob, its default and meaning" "$(grep -A1 "^  lab$N " "$TMP/help")"
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

# ------------------------------------------------- a graded scratch lab (issue 38)
# The scratch lab above, graded: in a clone of this checkout (its history,
# so the fixtures' kit revisions are known and dated) it is added as
# above -- its program and driver, its registry row and its knobs lines --
# with two rows of tools/grading/steps, dated now in their since column,
# that hold its CSV row with the checkers a row configures (equals, range:
# grade.awk is not edited), and committed.  Every fixture and the
# reference grade as they do here, byte for byte in the gradebook CSV and
# in exit status (their kits are older: both steps SKIP, named); a
# submission made by the changed kit records the steps and is graded on
# them out of a maximum 5 higher; the record of a scratch program made to
# print a wrong value FAILs its step, and so does a record deleted.
# What the lab edits by hand is counted: its own files and those lines;
# it regenerates tools/lib/kit-sources (every new or changed *.c does) and
# the Classroom workflow (run.sh workflow: a group a graded lab).
if ! command -v git >/dev/null 2>&1 || ! git rev-parse --git-dir >/dev/null 2>&1; then
	skip "a graded scratch lab: the fixtures grade as before" "not a git checkout (or no git): no history to date kits by"
	exit 0
fi
C=$TMP/since
git clone -q --shared . "$C" && kit_copy "$C" ||
	{ fail "a graded scratch lab: a clone of the checkout" "git clone failed"; exit 0; }
cp "$K/scratch$N.c" "$C/" && cp -p "$K/tools/labs/lab$N.sh" "$C/tools/labs/" &&
	tail -n 1 "$K/tools/labs/registry" >>"$C/tools/labs/registry" &&
	tail -n 2 "$K/tools/labs/knobs" >>"$C/tools/labs/knobs"
since=$(date -u +%Y-%m-%dT%H:%M:%SZ)
max_before=$(awk -v KIND=maximum -f tools/grading/steps.awk tools/grading/steps | awk '$1 == "submission" { print $2 }')
bytes=$((3 * 65536))
{
	printf 'lab%s.bytes  | run | L%s 3 blocks, bytes | default | ./scratch%s --csv --blocks 3 | equals:bytes:%s | - | 3 bytes=2 *=1 | - | %s\n' \
		"$N" "$N" "$N" "$bytes" "$since"
	printf 'lab%s.blocks | run | L%s FRAMES blocks | default | ./scratch%s --csv --blocks $FRAMES | range:blocks:1:1000 | - | 2 *=1 | - | %s\n' \
		"$N" "$N" "$N" "$since"
} >>"$C/tools/grading/steps"
# The files the kit generates from its sources and its step table.
(cd "$C" && tools/lib/kitversion --sources >tools/lib/kit-sources &&
	tools/grading/classroom/run.sh workflow >"$TMP/wf.yml" && cp "$TMP/wf.yml" tools/grading/classroom/malloc-labs.yml) ||
	fail "a graded scratch lab: its generated files" "kitversion or run.sh workflow failed"
git -C "$C" add -A && git -C "$C" -c user.name=tests -c user.email=tests@localhost commit -qm 'a graded scratch lab' ||
	{ fail "a graded scratch lab: its commit" "git commit failed"; exit 0; }
# what it changed: files added or edited by hand, and regenerated
edited=$(git -C "$C" diff --name-only HEAD~1 HEAD | grep -vxE 'tools/lib/kit-sources|tools/grading/classroom/malloc-labs.yml' | paste -sd' ')
want="scratch$N.c tools/grading/steps tools/labs/knobs tools/labs/lab$N.sh tools/labs/registry"
[ "$edited" = "$want" ] && [ "$(git -C "$C" diff --numstat HEAD~1 HEAD -- tools/labs tools/grading/steps | awk '{ n += $1 } END { print n }')" = \
	"$(($(wc -l <"$C/tools/labs/lab$N.sh") + 5))" ] &&
	pass "a graded scratch lab: 5 files by hand (program, driver, a registry row, knobs, steps)" ||
	fail "a graded scratch lab edits by hand its own files and rows" "$edited"
max_after=$(cd "$C" && awk -v KIND=maximum -f tools/grading/steps.awk tools/grading/steps | awk '$1 == "submission" { print $2 }')
cmp_num "the maximum rises by its rows' points (5, from $max_before)" "$max_after" -eq $((max_before + 5))
# GitHub Classroom's workflow gets a group for it, out of its 5 points
# (the reference, older, SKIPs its steps: the groups are the table's).
git -C "$C" diff HEAD~1 HEAD -- tools/grading/classroom/malloc-labs.yml >"$TMP/wf.diff"
grep -qx "+      - name: lab$N" "$TMP/wf.diff" && grep -qx '+          max-score: 5' "$TMP/wf.diff" &&
	[ "$(grep -c '^[-+] ' "$TMP/wf.diff")" -le 13 ] &&
	pass "a graded scratch lab: the Classroom workflow, regenerated, has its group (5 points)" ||
	fail "a graded scratch lab: the Classroom workflow has its group" "$(grep '^[-+] ' "$TMP/wf.diff" | head -n 4)"
(cd "$C" && make --no-print-directory help) 2>&1 | grep -qE "^  make lab$N \(scratch\) " &&
	pass "a graded scratch lab: make help lists it" || fail "a graded scratch lab: make help lists it" "no lab$N line"
diff_files=
for f in results/reference-submission.txt tests/fixtures/*/submission-*.txt ../shared/fixtures/*/submission-*.txt; do
	[ -f "$f" ] || continue
	p=$(cd "$(dirname "$f")" && pwd)/$(basename "$f")
	tools/grade.sh --csv "$p" >"$TMP/before.csv" 2>/dev/null; rc_before=$?
	(cd "$C" && tools/grade.sh --csv "$p") >"$TMP/after.csv" 2>/dev/null; rc_after=$?
	(cd "$C" && tools/grade.sh "$p") >"$TMP/after.rep" 2>/dev/null
	if [ $rc_before != $rc_after ] || ! cmp -s "$TMP/before.csv" "$TMP/after.csv" ||
	   ! grep -q "^SKIP  lab$N\.bytes  *since " "$TMP/after.rep" || ! grep -q "^SKIP  lab$N\.blocks  *since " "$TMP/after.rep"; then
		diff_files="$diff_files $f (exit $rc_before -> $rc_after)"
	fi
	n_files=$((${n_files:-0} + 1))
done
if [ -z "$diff_files" ] && [ "${n_files:-0}" -ge 2 ]; then
	pass "a graded scratch lab: $n_files files (fixtures, reference) grade as before, its steps SKIP"
else
	fail "a graded scratch lab: the fixtures grade as before" "differ:${diff_files:- no files}"
fi
make --no-print-directory -s -C "$C" all >"$TMP/out" 2>&1 &&
	(cd "$C" && make --no-print-directory -s submit STUDENT=tester OUT="$TMP/fresh.txt" $SHARED_KNOBS) >>"$TMP/out" 2>&1
rc=$?
grep -qx "@run lab$N.bytes" "$TMP/fresh.txt" && grep -qx "@run lab$N.blocks" "$TMP/fresh.txt" &&
	pass "a graded scratch lab: make submit records its steps" ||
	fail "a graded scratch lab: make submit records its steps" "submit $rc: $(tail -n 2 "$TMP/out")"
(cd "$C" && tools/grade.sh "$TMP/fresh.txt") >"$TMP/fresh.rep" 2>&1
rc_grade=$?
frames=$(printf '%s\n' $SHARED_KNOBS | sed -n 's/^FRAMES=//p')
if [ $rc -eq 0 ] && [ $rc_grade -eq 0 ] && grep -Eq "^PASS  lab$N\.bytes  *bytes  *$bytes  *$bytes  *exact  *2/2\$" "$TMP/fresh.rep" &&
   grep -Eq "^PASS  lab$N\.blocks  *blocks  *$frames  *1\.\.1000  *range  *1/1\$" "$TMP/fresh.rep" &&
   grep -q "^Score: $max_after/$max_after\$" "$TMP/fresh.rep"; then
	pass "a graded scratch lab: a submission of the changed kit PASSes its steps (Score: $max_after/$max_after)"
else
	fail "a graded scratch lab: a submission of the changed kit" "submit $rc, grade $rc_grade: $(grep -E "lab$N|^Score" "$TMP/fresh.rep" | tr '\n' '|') $(tail -n 2 "$TMP/out")"
fi
# The program made to print a wrong value (a byte more): its row, as it
# prints it, in place of the record's.
sed 's/bytes += 65536;/bytes += 65536 + (i == 0);/' "$C/scratch$N.c" >"$TMP/bad.c" &&
	${CC:-cc} -std=gnu11 -O2 -o "$TMP/bad" "$TMP/bad.c" &&
	row=$("$TMP/bad" --csv --blocks 3 | sed -n 2p) && [ "$row" = "3,$((bytes + 1))" ] &&
	awk -v id="lab$N.bytes" -v row="$row" '$0 == "@run " id { r = 1 } r && /^csv: [0-9]/ { $0 = "csv: " row; r = 0 } 1' \
		"$TMP/fresh.txt" >"$TMP/fresh-bad.txt"
(cd "$C" && tools/grade.sh "$TMP/fresh-bad.txt") >"$TMP/fresh.rep" 2>&1
rc=$?
if [ $rc -eq 1 ] && grep -Eq "^FAIL  lab$N\.bytes  *bytes  *$((bytes + 1))  *$bytes  *exact  *0/2\$" "$TMP/fresh.rep" &&
   grep -q "^Score: $((max_after - 2))/$max_after\$" "$TMP/fresh.rep"; then
	pass "a graded scratch lab: its program printing a wrong value FAILs the step (Score: $((max_after - 2))/$max_after)"
else
	fail "a graded scratch lab: its program printing a wrong value" "exit $rc: $(grep -E "lab$N|^Score" "$TMP/fresh.rep" | tr '\n' '|')"
fi
sed "/^@run lab$N\.bytes\$/,/^@end\$/d" "$TMP/fresh.txt" >"$TMP/fresh-del.txt"
(cd "$C" && tools/grade.sh "$TMP/fresh-del.txt") >"$TMP/fresh.rep" 2>&1
rc=$?
if [ $rc -eq 1 ] && grep -q "^FAIL  lab$N\.bytes  *bytes  *missing " "$TMP/fresh.rep"; then
	pass "a graded scratch lab: its record deleted FAILs it (deleting gains nothing)"
else
	fail "a graded scratch lab: its record deleted" "exit $rc: $(grep -E "lab$N|^Score" "$TMP/fresh.rep" | tr '\n' '|')"
fi
