# tests/lib.sh - the kit's test framework.  Every tests/NAME.sh sources it
# first (`. "$(dirname "$0")/lib.sh"`), so a file runs the same alone
# (bash tests/NAME.sh, make test T=NAME) as in the suite (tests/run.sh):
# in its own shell, from the kit's top directory, with its own temporary
# directory $TMP.  Each check ends in exactly one of pass, fail or skip.
# Nothing here times anything: tests assert counts and exit codes, never
# wall time.
#
# At exit the file prints "N passed, M failed, K skipped" and exits 1 if a
# check failed (or the file itself stopped with a non-zero status).  $TMP is removed when nothing failed; otherwise it is
# kept and named, and $TMP/failures/NNN.txt holds each failed check's name,
# its whole reason and every file the check wrote under $TMP.  When
# TESTS_COUNTS names a file (tests/run.sh does), "PASSED FAILED SKIPPED TMP"
# is written there (TMP "-" when it was removed).

cd "$(dirname "${BASH_SOURCE[0]}")/.." || exit 1
. tools/lib/lib.sh
# Every make a check runs is typed at a clean shell: nothing of the make
# that ran the tests reaches it (make test T=NAME exports T and passes its
# flags on in MAKEFLAGS).
unset MAKEFLAGS MFLAGS MAKELEVEL MAKEOVERRIDES T
prog=$0
TEST_FILE=$0
PASSED=0 FAILED=0 SKIPPED=0
# Every check writes under $TMP: without one they would write into the
# current directory, so refuse to start.
if ! TMP=$(mktemp -d) || [ ! -d "$TMP" ] || [ ! -w "$TMP" ]; then
	echo "$TEST_FILE: mktemp -d failed (TMPDIR=${TMPDIR:-unset}): set TMPDIR to a writable directory" >&2
	exit 1
fi
# $TMP/.mark is touched when a check ends: the files no older than it are
# the ones the current check wrote, its evidence should it fail.
: >"$TMP/.mark"

# TEST_AWK=NAME (gawk, busybox, mawk, or a path): this file, and every
# script it runs, finds that program first on PATH as `awk` (busybox picks
# its applet by that name), so the kit is tested under the awk a student's
# system has (make test T="grade lab5" TEST_AWK=gawk).  Unset: the
# system's own.
if [ -n "${TEST_AWK:-}" ]; then
	if ! TEST_AWK_BIN=$(command -v "$TEST_AWK"); then
		echo "$TEST_FILE: TEST_AWK=$TEST_AWK is not installed" >&2
		exit 1
	fi
	mkdir -p "$TMP/awk-bin" && ln -sf "$TEST_AWK_BIN" "$TMP/awk-bin/awk" || exit 1
	PATH=$TMP/awk-bin:$PATH
fi

# tests_finish: the EXIT trap: the counts, then $TMP removed or kept.
tests_finish() {
	local rc=$? kept=-
	if [ "$rc" -ne 0 ] && [ "$FAILED" -eq 0 ]; then
		fail "$TEST_FILE ran to its end" "it stopped with exit status $rc"
	fi
	if [ "$FAILED" -eq 0 ]; then
		rm -rf "$TMP"
	else
		kept=$TMP
		echo "kept: $TMP (failures/NNN.txt: each failed check's whole output)"
	fi
	[ -z "${TESTS_COUNTS:-}" ] || echo "$PASSED $FAILED $SKIPPED $kept" >"$TESTS_COUNTS"
	echo "$PASSED passed, $FAILED failed, $SKIPPED skipped"
	trap - EXIT
	[ "$FAILED" -eq 0 ] && exit 0
	exit 1
}
trap tests_finish EXIT

# say STATUS TEXT: "STATUS  TEXT" in lines of at most 100 columns, a long
# text folded at a blank and carried on under itself (never cut).
say() {
	# Bash alone (no awk a check): a run reports hundreds of checks, and a
	# process costs milliseconds on a VM.
	local IFS=$' \t\n' text line w word words
	while IFS= read -r text; do
		printf -v line '%-8s' "$1"
		w=8
		read -r -a words <<<"$text"
		for word in ${words[@]+"${words[@]}"}; do
			if [ "$w" -gt 8 ] && [ $((w + 1 + ${#word})) -gt 100 ]; then
				printf '%s\n' "$line"
				line='        ' w=8
			fi
			[ "$w" -gt 8 ] && line+=" " w=$((w + 1))
			line+=$word w=$((w + ${#word}))
		done
		printf '%s\n' "$line"
	done <<<"$2"
}
pass() { PASSED=$((PASSED + 1)); say ok "$1"; : >"$TMP/.mark"; }
skip() { SKIPPED=$((SKIPPED + 1)); say skip "$1 ($2)"; : >"$TMP/.mark"; }

# fail NAME WHY: prints NAME and the first 4 lines of WHY (each cut to 200
# columns); the whole of WHY and of every file under $TMP written since the
# last check ended (and in that same clock tick) go to
# $TMP/failures/NNN.txt, named on the last line.
fail() {
	local name=$1 why=${2:-} rec f
	FAILED=$((FAILED + 1))
	mkdir -p "$TMP/failures"
	rec=$TMP/failures/$(printf '%03d' "$FAILED").txt
	{
		printf 'check: %s\nreason:\n%s\n' "$name" "$why"
		# Not find -newer: file times move in clock ticks, so a file the
		# check wrote can carry the mark's own time.
		find "$TMP" -path "$TMP/failures" -prune -o -type f ! -name .mark -printf '%T@ %p\n' |
			awk -v t="$(find "$TMP/.mark" -printf '%T@')" '$1 >= t { sub(/^[^ ]* /, ""); print }' |
			sort | while IFS= read -r f; do
				if [ ! -s "$f" ] || grep -Iq . "$f"; then
					printf '\n=== %s\n' "$f"; cat "$f"
				else
					printf '\n=== %s (binary, not shown)\n' "$f"
				fi
			done
	} >"$rec" 2>&1
	say FAIL "$name"
	printf '%s\n' "$why" | head -n 4 | cut -c1-200 | sed 's/^/        /'
	printf '        (all of it: %s)\n' "$rec"
	: >"$TMP/.mark"
}

# field FILE LABEL: the first word after "LABEL:" on a "  label: value" line.
field() {
	awk -v l="$2" '
		{ line = $0; sub(/^ +/, "", line) }
		index(line, l ":") == 1 {
			v = substr(line, length(l) + 2); sub(/^ +/, "", v); sub(/ .*/, "", v)
			print v; exit
		}' "$1"
}

# check_exit NAME WANT CMD...: CMD must exit with status WANT.  Its stdout
# and stderr are left in $TMP/out and $TMP/err for the checks after it.
check_exit() {
	local name=$1 want=$2 got
	shift 2
	"$@" >"$TMP/out" 2>"$TMP/err"
	got=$?
	if [ "$got" -eq "$want" ]; then pass "$name"
	else fail "$name" "exit $got, want $want: $(cat "$TMP/err")"; fi
}

# check_refused "VAR=value... SCRIPT ARGS": a script given a bad knob or
# argument exits 2 with a one-line reason on stderr (then its usage, if
# any: tools/lib/lib.sh's bad_usage), before running anything.
check_refused() {
	# shellcheck disable=SC2086
	env $1 >"$TMP/out" 2>"$TMP/err"
	local rc=$?
	if [ "$rc" -eq 2 ] && [ -s "$TMP/err" ] && [ ! -s "$TMP/out" ] &&
	   { [ "$(wc -l <"$TMP/err")" -eq 1 ] || sed -n 2p "$TMP/err" | grep -q '^usage'; }; then
		pass "$1: exit 2, one line, nothing ran"
	else
		fail "$1: exit 2, one line, nothing ran" "exit $rc: $(head -c 300 "$TMP/err")"
	fi
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

# How far a fault count may stray from its model: the grader's rule too
# (fault_tolerance() in tools/grading/steps.awk), so tests and grader agree.
FAULT_TOL=$(awk -v KIND=tolerance -f tools/grading/steps.awk)

# within NAME GOT WANT SLACK: GOT is a whole number and |GOT - WANT| <= SLACK.
within() {
	local name=$1 got=$2 want=$3 slack=$4
	if [[ $got =~ ^[0-9]+$ ]] && [ $((got > want ? got - want : want - got)) -le "$slack" ]; then
		pass "$name ($got vs $want, within $slack)"
	else
		fail "$name" "got '$got', want $want +- $slack"
	fi
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

# strace_ok: strace is installed and allowed to trace here; else the reason
# is in STRACE_WHY (tools/lib/lib.sh: strace_works).
strace_ok() { strace_works; }

# syscall_count FILE NAME: the calls column of `strace -c` output for NAME,
# 0 when it has no such row (tools/lib/lib.sh: strace_calls).
syscall_count() { strace_calls "$1" "$2"; }

# pty_ok: script(1) (util-linux) is installed and can make a pseudo
# terminal here (a chroot without /dev/pts cannot); else the reason is in
# PTY_WHY, for the skip of each check that needs a terminal.
pty_ok() {
	PTY_WHY=
	if ! command -v script >/dev/null 2>&1; then
		PTY_WHY="script (util-linux) is not installed"
	elif ! script -qec true /dev/null </dev/null >/dev/null 2>&1; then
		PTY_WHY="script cannot make a pseudo-terminal here (no /dev/pts?)"
	else
		return 0
	fi
	return 1
}

# THP_ARG: "--no-thp" where transparent huge pages are "always" (the fault
# predictions count base pages), else empty: for each ./frames run whose
# faults a check predicts.
THP_ARG=
if grep -q '\[always\]' /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null; then
	THP_ARG=--no-thp
fi

# kit_sources PROG: the kit's units PROG is built from (tools/kit/*.c, but
# other labs' own), for a test that builds it by hand with flags of its
# own (-D...); kit_links LAB: what make links a lab with (its own unit's
# object, if it has one, and the kit's library), as its one command does.
kit_sources() {
	local f n
	for f in tools/kit/*.c; do
		n=${f##*/}; n=${n%.c}
		[ "$n" != "$1" ] && lab_programs | grep -qxF "$n" && continue
		echo "$f"
	done
}
kit_links() {
	[ -e "tools/kit/$1.c" ] && echo "build/kit/$1.o"
	echo build/kit/libkit.a
}

# Two tiers.  TEST_TIER=quick (make test): each lab's counts against its
# model, the parsers, bad input, the grader on one honest submission: what
# says this machine and this build work, in a minute or two.  TEST_TIER=all
# (make test-all, CI; the default, and whenever a file is named with T=):
# every check, the doors README and docs/ tell people to type among them.
# full_only WHAT: in the quick tier the rest of this file is make
# test-all's: one skip line says what is left, and the file ends here.
TEST_TIER=${TEST_TIER:-all}
case $TEST_TIER in quick | all) ;; *) echo "$TEST_FILE: TEST_TIER is quick or all, not '$TEST_TIER'" >&2; exit 1 ;; esac
# needs_solution REGION WHAT: true in the kit, whose exercise regions hold
# its solutions.  In a handout (make handout marks it tools/lib/handout)
# REGION holds its stub: WHAT is skipped by name and false returned, and
# make check grades REGION there instead.  HANDOUT: 1 in a handout.
HANDOUT=0
[ -e tools/lib/handout ] && HANDOUT=1
needs_solution() {
	[ "$HANDOUT" = 1 ] || return 0
	skip "$2" "needs $1's solution: a handout holds the stub; make check grades it"
	return 1
}

# exercise_steps: "STEP EXERCISE" for each step of tools/grading/steps
# that grades an exercise (its seventh column names it), one a line.
exercise_steps() {
	awk -F'|' '!/^[ \t]*(#|$)/ { s = $1; e = $7; gsub(/[ \t]/, "", s); gsub(/[ \t]/, "", e)
		if (e != "-") print s, e }' tools/grading/steps
}

# graded_clean NAME RC REPORT: tools/grade.sh graded a submission made
# here clean: exit status 0.  In a handout the stubs fail the steps that
# grade an exercise, and only those: exit 0 or 1, no other step FAILs.
graded_clean() {
	if [ "$HANDOUT" = 0 ]; then cmp_num "$1 (exit status)" "$2" -eq 0; return; fi
	local others
	others=$(exercise_steps | awk 'NR == FNR { ex[$1] = 1; next }
		$1 ~ /^(FAIL|ENV|INTEGRITY)$/ && !($2 in ex) { print $1, $2, $3 }' - "$3" | sort -u | head -n 5)
	if { [ "$2" = 0 ] || [ "$2" = 1 ]; } && [ -z "$others" ]; then
		pass "$1 (a handout: no step but an exercise's fails)"
	else fail "$1" "exit $2; outside the exercises' steps: $others"; fi
}

full_only() {
	[ "$TEST_TIER" = quick ] || return 0
	skip "$1" "make test-all runs it"
	exit 0
}

# docs_in WHAT DIR: DIR (a copy of the kit) holds README.md, FURTHER.md
# and every docs/ page of this kit, each as it is here.
docs_in() {
	local f miss=
	for f in README.md FURTHER.md docs/*.md; do cmp -s "$f" "$2/$f" || miss="$miss $f"; done
	if [ -z "$miss" ]; then pass "$1 holds README, FURTHER.md and the docs/ pages: $(ls docs/*.md | wc -l) of them"
	else fail "$1 holds README, FURTHER.md and the docs/ pages" "missing or not as here:$miss"; fi
}

# brief_terms N: each *italic* and `code` span of Lab N's **Look at** and
# **Answer:** paragraphs in README: the names a student looks for in the
# lab's table, so a test can hold each to the table the lab prints.
brief_terms() {
	awk -v n="$1" '$0 ~ "^### Lab " n " " { on = 1; next } /^##/ { on = 0 }
		on && /^\*\*(Look at|Answer:)\*\*/ { p = 1 } /^$/ { p = 0 }
		on && p { t = $0; gsub(/\*\*[^*]*\*\*/, "", t)
			while (match(t, /`[^`]+`|\*[^*]+\*/)) {
				print substr(t, RSTART + 1, RLENGTH - 2); t = substr(t, RSTART + RLENGTH) } }' README.md
}
# brief_in_table NAME N TABLE: every term of Lab N's brief is in TABLE.
brief_in_table() {
	local t miss=
	while IFS= read -r t; do grep -qF -- "$t" "$3" || miss="$miss '$t'"; done < <(brief_terms "$2")
	if [ -z "$miss" ] && [ -n "$(brief_terms "$2")" ]; then pass "$1: $(brief_terms "$2" | tr '\n' '|')"
	else fail "$1" "README's Lab $2 brief names what its table does not show:${miss:- no terms}"; fi
}

# shared_submission: SUB, the path of one honest submission, made through
# make as a student types it (make -s submit STUDENT=tester OUT=... at the
# small knobs below), with a TMPDIR whose path holds a blank (strace's log
# is there: tests/submission.sh).  Under tests/run.sh every file that asks gets the
# same one, made once (TESTS_SHARED is the run's directory; the first file
# holds a lock while the others wait); alone, a file makes its own.  Read
# it or copy it, never edit it.  Status 1, with the reason in SUB_WHY,
# when make submit failed.
SHARED_KNOBS="FRAMES=2 SCALE=50 VARIANCE_ITERS=2000 COUNT_LARGE=200 BYTES=1M"
shared_submission() {
	local dir=${TESTS_SHARED:-$TMP} rc
	SUB=$dir/sub.txt SUB_WHY=
	(
		if command -v flock >/dev/null 2>&1; then
			exec 9>"$dir/sub.lock" && flock 9 || exit 1
		else    # busybox-only systems may lack flock: a directory is a lock too
			until mkdir "$dir/sub.lockdir" 2>/dev/null; do sleep 1; done
			trap 'rmdir "$dir/sub.lockdir"' EXIT
		fi
		[ -s "$dir/sub.rc" ] && exit 0
		mkdir -p "$dir/tmp dir" || exit 1
		# shellcheck disable=SC2086 # the knobs are words
		TMPDIR="$dir/tmp dir" make --no-print-directory -s submit STUDENT=tester OUT="$SUB" $SHARED_KNOBS \
			>"$dir/sub.out" 2>"$dir/sub.err"
		echo $? >"$dir/sub.rc"
	)
	rc=$(cat "$dir/sub.rc" 2>/dev/null)
	[ "$rc" = 0 ] && [ -s "$SUB" ] && return 0
	SUB_WHY="make submit $SHARED_KNOBS: exit ${rc:-none}: $(tail -c 300 "$dir/sub.err" 2>/dev/null)"
	return 1
}

# hostile_upload DIR FROM: an upload made to trip a grader that reads its file
# names as lines or follows its links: FROM's frames.c under a directory
# whose name holds a newline and "0 ." (read as lines, the kit's own
# frames.c, its solutions), FROM's malloc_variance.c under a name with a
# leading dash, blanks and quotes; threads.c a symlink to the kit's and a
# directory link to the kit; yes.c a device (/dev/zero's; a FIFO unless
# root); arenas.c a FIFO, 4 directories down and under a hidden one.  Only
# FROM's two files are the student's; the rest is no file of theirs.  Run
# from the kit's top directory (tests/recheck.sh, tests/gradescope.sh).
hostile_upload() {
	local nl="$1/x
0 ." dash="$1/-d 'q\" s"
	mkdir -p "$nl" "$dash" "$1/a/b/c" "$1/.h" && cp "$2/frames.c" "$nl/" && cp "$2/malloc_variance.c" "$dash/" &&
		ln -s "$PWD/threads.c" "$1/threads.c" && ln -s "$PWD" "$1/in" && mkfifo "$1/arenas.c" &&
		cp arenas.c "$1/a/b/c/" && cp arenas.c "$1/.h/" || return 1
	mknod "$1/yes.c" c 1 5 2>/dev/null || mkfifo "$1/yes.c"
}

# ------------------------------------------- Gradescope's contract, emulated
# gradescope_ready: the zip of make autograder built, and $TMP/bin a PATH
# holding every command of this machine but git (Gradescope's image has
# none), for new_root and grade_upload.  Status 1 when zip, unzip or
# tests/bin/jsoncheck is missing (a skip), 2 when the zip or the PATH
# could not be made (a failure); the reason in GS_WHY.
gradescope_ready() {
	local d
	GS_WHY=
	if ! command -v zip >/dev/null 2>&1 || ! command -v unzip >/dev/null 2>&1; then
		GS_WHY="zip and unzip are not installed (apt-get install zip unzip)"; return 1
	fi
	[ -x tests/bin/jsoncheck ] || { GS_WHY="tests/bin/jsoncheck is not built (make test builds it)"; return 1; }
	make --no-print-directory autograder >"$TMP/zip.out" 2>&1 ||
		{ GS_WHY="make autograder: $(tail -n 3 "$TMP/zip.out")"; return 2; }
	mkdir -p "$TMP/bin"
	for d in /usr/local/bin /usr/bin /bin /usr/sbin /sbin; do
		[ -d "$d" ] && cp -s -n "$d"/* "$TMP/bin/" 2>/dev/null
	done
	rm -f "$TMP/bin"/git*
	if [ ! -e "$TMP/bin/awk" ] || [ -e "$TMP/bin/git" ]; then
		GS_WHY="a PATH without git: $(ls "$TMP/bin" | head -n 3)"; return 2
	fi
}
# new_root NAME: $TMP/NAME, the zip unpacked in its source/, an empty
# submission/.  grade_upload NAME [VAR=value...]: setup.sh, then
# run_autograder with those variables (GRADE=file, RERUN=1, the knobs),
# each must exit 0 (else a failed check); leaves results/results.json.
new_root() { rm -rf "${TMP:?}/$1"; mkdir -p "$TMP/$1/source" "$TMP/$1/submission" &&
	(cd "$TMP/$1/source" && unzip -q "$OLDPWD/build/autograder.zip"); }
grade_upload() {
	local r=$TMP/$1
	env -i PATH="$TMP/bin" HOME="$TMP/home" AUTOGRADER_ROOT="$r" bash "$r/source/setup.sh" \
		>"$r/setup.out" 2>&1 || { fail "$1: setup.sh" "$(tail -n 2 "$r/setup.out")"; return 1; }
	env -i PATH="$TMP/bin" HOME="$TMP/home" AUTOGRADER_ROOT="$r" "${@:2}" "$r/source/run_autograder" \
		>"$r/run.out" 2>&1 || { fail "$1: run_autograder exits 0" "exit $?: $(tail -n 2 "$r/run.out")"; return 1; }
}
# json_ok NAME WHAT: results.json of NAME valid, with Gradescope's fields.
json_ok() {
	local j=$TMP/$1/results/results.json f
	if [ ! -s "$j" ]; then fail "$2: results.json" "none written: $(cat "$TMP/$1/run.out")"; return 1; fi
	if ! tests/bin/jsoncheck "$j" >"$TMP/$1/shape" 2>&1; then
		fail "$2: results.json is valid UTF-8 JSON" "$(tail -n 1 "$TMP/$1/shape")"; return 1
	fi
	for f in "score number" "execution_time number" "visibility string" "stdout_visibility string" \
		 "output string" "tests array"; do
		grep -qx "$f" "$TMP/$1/shape" || { fail "$2: results.json has $f" "$(sort -u "$TMP/$1/shape")"; return 1; }
	done
	if grep -q '^tests\[\]' "$TMP/$1/shape" && ! grep -qx 'tests\[\].visibility string' "$TMP/$1/shape"; then
		fail "$2: each test has a visibility" "$(sort -u "$TMP/$1/shape")"; return 1
	fi
	pass "$2: results.json valid UTF-8 JSON, score, execution_time, visibility, stdout_visibility"
}
score_of() { sed -n 's/^  "score": \([0-9]*\),$/\1/p' "$TMP/$1/results/results.json"; }

# ------------------------------------------------------- hostile regions
# set_region FILE NAME TEXT: FILE's exercise region NAME holds TEXT, the
# rest of FILE as it was (tools/lib/exercise.awk's splice).
set_region() {
	printf '/* BEGIN EXERCISE %s */\n%s\n/* END EXERCISE %s */\n' "$2" "$3" "$2" >"$TMP/region.c" &&
		awk -v DO=splice -v FROM="$TMP/region.c" -v ONLY="$2" -f tools/lib/exercise.awk "$1" >"$TMP/spliced.c" &&
		mv "$TMP/spliced.c" "$1"
}
# hostile_regions DIR CMD: DIR's lab programs (copies of the kit's) with
# four regions made hostile, each around its stub: lab2.pool's pool_init()
# runs machine code (a page from mmap, a function pointer) that becomes
# /bin/sh -c CMD (CMD holds no double quote or backslash);
# tune_allocator() prints forever, new_frame() fills memory,
# give_memory_back() loops.  Status 1, the reason in HOSTILE_WHY, where
# the machine code cannot be made (it needs as and objcopy, on x86_64).
hostile_regions() {
	machine_code "$2" || return 1
	set_region "$1/malloc_variance.c" lab2.pool "$(awk -v b="$MACHINE_CODE" '{ print }
		/^static int pool_init/ { getline; print; print_call(b) }'"$CALL_AWK" tools/exercises/lab2.pool.c)" &&
	set_region "$1/frames.c" lab1.tune_allocator \
		"$(sed 's/^{$/{\n\tfor (;;)\n\t\tputs("flood");/' tools/exercises/lab1.tune_allocator.c)" &&
	set_region "$1/frames.c" lab1.new_frame \
		"$(sed 's/^{$/{\n\tfor (char *m; (m = malloc(1 << 20)); )\n\t\tmemset(m, 1, 1 << 20);/' tools/exercises/lab1.new_frame.c)" &&
	set_region "$1/arenas.c" lab6.give_memory_back \
		"$(sed 's/^{$/{\n\tfor (;;)\n\t\t;/' tools/exercises/lab6.give_memory_back.c)"
}

# machine_code CMD [fork]: MACHINE_CODE, the bytes (a C initialiser list)
# of x86_64 code that runs /bin/sh -c CMD (no double quote or backslash in
# it): in the calling process, or with "fork" in a child, the caller going
# on.  Status 1, the reason in HOSTILE_WHY, where it cannot be made.
# CALL_AWK: print_call(BYTES), the C lines that copy them to a page from
# mmap and call it.
machine_code() {
	HOSTILE_WHY=
	if ! command -v as >/dev/null 2>&1 || ! command -v objcopy >/dev/null 2>&1 || [ "$(uname -m)" != x86_64 ]; then
		HOSTILE_WHY="needs as and objcopy on x86_64"; return 1
	fi
	{ printf '\t.intel_syntax noprefix\n'
	  [ "${2:-}" != fork ] || printf '\tmov eax, 57\n\tsyscall\n\ttest eax, eax\n\tjz child\n\tret\nchild:\n'
	  cat <<ASM
	lea rdi, [rip + path]
	lea rax, [rip + dashc]
	lea rdx, [rip + cmd]
	push 0
	push rdx
	push rax
	push rdi
	mov rsi, rsp
	xor edx, edx
	mov eax, 59
	syscall
	mov edi, 1
	mov eax, 60
	syscall
path:	.asciz "/bin/sh"
dashc:	.asciz "-c"
cmd:	.asciz "$1"
ASM
	} >"$TMP/sh.s"
	as --64 -o "$TMP/sh.o" "$TMP/sh.s" && objcopy -O binary -j .text "$TMP/sh.o" "$TMP/sh.bin" ||
		{ HOSTILE_WHY="as or objcopy failed on the machine code"; return 1; }
	MACHINE_CODE=$(od -An -tu1 -v "$TMP/sh.bin" | tr -s ' \n' '  ' | sed 's/^ //; s/ $//; s/ /, /g')
}
CALL_AWK='
	function print_call(b) {
		print "\tstatic const unsigned char code[] = { " b " };"
		print "\tunsigned char *x = mmap(NULL, 4096, PROT_READ | PROT_WRITE | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);"
		print "\tif (x != MAP_FAILED) {"
		print "\t\tfor (size_t i = 0; i < sizeof(code); i++)"
		print "\t\t\tx[i] = code[i];"
		print "\t\t((void (*)(void))(void *)x)();"
		print "\t}" }'

# free_uid [K]: a uid no account, group or process has, one this run's
# alone (K: another of them): test files re-run code as the sandbox's
# 64999 at the same time, a process limit counts a uid's processes
# wherever they run, the sandbox without namespaces ends all of its uid,
# and tests/sandbox.sh counts what is left of its own.
free_uid() {
	local u=$((61000 + ($$ + ${1:-0}) % 3000))
	while getent passwd $u >/dev/null || getent group $u >/dev/null ||
	      ps -eo uid= | grep -qx " *$u"; do
		u=$((u + 1))
	done
	echo $u
}
