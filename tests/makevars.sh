#!/usr/bin/env bash
# tests/makevars.sh - what is typed after `make TARGET` reaches the script
# behind it as typed, and stays data.  GNU Make stops exporting a
# command-line variable the Makefile overrides (4.3 and 4.4 alike), so the
# tests that call tools/submit.sh directly could not see `make submit
# STUDENT=ada` hand in under login@host.  Here every door is make itself.
# Most checks give one knob a value the script refuses: the refusal, which
# quotes the value back, proves it arrived unchanged and that nothing ran.
# One real `make submit` runs at the small knobs a pre-commit hook uses and
# must write the file with that student's line.  Nothing is timed.
. "$(dirname "$0")/lib.sh" || exit 1

MK=(make --no-print-directory -s)

# mk_refused NAME WANT_RE TARGET VAR=VALUE...: make exits 2, stderr matches
# WANT_RE (grep -E), and $TMP/PWNED (the file any injected command would
# make) does not exist.
mk_refused() {
	local name=$1 want=$2 rc
	shift 2
	rm -f "$TMP/PWNED"
	"${MK[@]}" "$@" >"$TMP/out" 2>"$TMP/err"; rc=$?
	if [ "$rc" -eq 2 ] && grep -Eq -- "$want" "$TMP/err" && [ ! -e "$TMP/PWNED" ]; then
		pass "$name"
	else
		fail "$name" "exit $rc (want 2), PWNED: $([ -e "$TMP/PWNED" ] && echo made || echo absent); stderr: $(head -c 300 "$TMP/err")"
	fi
}

# mk_plans NAME ENV TARGET LINE: `make -n TARGET`, with ENV (words) in its
# environment and no other knob there, prints LINE (runs of blanks as one).
mk_plans() {
	local name=$1 e=$2 t=$3 line=$4 knobs=(-u FRAMES -u VARIANCE_ITERS -u BYTES -u ROUNDS)
	# shellcheck disable=SC2086 # the environment, target and knob are words
	if env "${knobs[@]}" $e "${MK[@]}" -n $t 2>/dev/null | tr -s ' ' | grep -qxF -- "$line"; then
		pass "$name"
	else
		fail "$name" "$(env "${knobs[@]}" $e "${MK[@]}" -n $t 2>&1 | tail -n 2)"
	fi
}

# make test is the quick tier; make test-all, and any file named with T=,
# every check (tests/lib.sh: full_only).  T's words reach tests/run.sh as
# names, each quoted: an injected command is a name run.sh refuses.
mk_plans "make test: tests/run.sh in the quick tier" "" test "TEST_TIER=quick tests/run.sh"
mk_plans "make test-all: tests/run.sh in the all tier" "" test-all "TEST_TIER=all tests/run.sh"
mk_plans "make test T=lab5: tests/run.sh in the all tier" "" "test T=lab5" \
	"TEST_TIER=all tests/run.sh 'lab5'"
# make run is the walkthrough short at its own frames (tools/labs/knobs,
# read by lab1.sh) unless FRAMES is given, on the command line or from the
# environment; make lab1 is all of it, likewise.  Make passes only the
# knobs given: their defaults are the driver's lines of tools/labs/knobs.
# make plots passes only the knobs given.
for c in "|run|" "|run FRAMES=7|FRAMES='7' " "FRAMES=7|run|FRAMES='7' "; do
	IFS='|' read -r e t knob <<<"$c"
	mk_plans "${e:+$e }make $t: lab1.sh short${knob:+ at $knob}" "$e" "$t" \
		"${knob}tools/labs/lab1.sh short"
done
mk_plans "make lab1: lab1.sh table, no knob given" "" lab1 "tools/labs/lab1.sh table"
mk_plans "make lab1 RUN_DIR=x: lab1.sh table with it" "" "lab1 RUN_DIR=x" "RUN_DIR='x' tools/labs/lab1.sh table"
for c in "|plots|" "|plots ROUNDS=5 FRAMES=3|FRAMES='3' ROUNDS='5'" "BYTES=2M|plots|BYTES='2M'"; do
	IFS='|' read -r e t knobs <<<"$c"
	mk_plans "${e:+$e }make $t: plots.sh${knobs:+ with $knobs}" "$e" "$t" \
		"PLOTS_DIR='plots' ${knobs:+$knobs }tools/plots/plots.sh"
done
# A built kit is up to date: make -n lists no build, as make would do none
# (build/kit-rev and build/flags change only with the revision and flags).
if "${MK[@]}" all >"$TMP/out" 2>&1 && "${MK[@]}" -n all >"$TMP/out" 2>&1 && [ ! -s "$TMP/out" ]; then
	pass "make -n all after make: nothing to build, nothing listed"
else
	fail "make -n all after make: nothing to build, nothing listed" "$(head -n 3 "$TMP/out")"
fi
# A new compiler or new flags rebuild the labs (build/flags): make -n lists
# each lab's build at OPT=-O0 (beside the kit's units it links, compiled
# with -c), and writes nothing, so make -n all still lists none after it.
"${MK[@]}" -n all OPT=-O0 >"$TMP/out" 2>&1; rc=$?
n=$(grep -- ' -O0 .* -o ' "$TMP/out" | grep -vc -- ' -c -o ')
if [ "$rc" -eq 0 ] && [ "$n" -eq "$(lab_programs | wc -l)" ] &&
   "${MK[@]}" -n all >"$TMP/out2" 2>&1 && [ ! -s "$TMP/out2" ]; then
	pass "make -n all OPT=-O0 after make: every lab's build listed ($n), nothing written"
else
	fail "make -n all OPT=-O0 after make: every lab's build listed" \
		"exit $rc, $n builds listed; then: $(head -n 3 "$TMP/out2")"
fi
mk_refused "make test T='lab5; touch ...': a name run.sh refuses, nothing ran" \
	"no test file tests/lab5;\.sh" test T="lab5; touch $TMP/PWNED"

# Each of make submit's knobs, from the command line, reaches tools/submit.sh.
mk_refused "make submit FRAMES=0 reaches submit.sh" "FRAMES must be at least 1, not '0'" submit FRAMES=0
mk_refused "make submit SCALE=x reaches submit.sh" "SCALE wants a whole number .*'x'" submit SCALE=x
mk_refused "make submit VARIANCE_ITERS=1 reaches submit.sh" "VARIANCE_ITERS must be at least 2" submit VARIANCE_ITERS=1
mk_refused "make submit COUNT_LARGE=07 reaches submit.sh" "COUNT_LARGE wants .*'07'" submit COUNT_LARGE=07
mk_refused "make submit BYTES=1Q reaches submit.sh" "BYTES wants a size like 16M, not '1Q'" submit BYTES=1Q
mk_refused "make submit STUDENT='a b' reaches submit.sh" "STUDENT may hold .*'a b'" submit 'STUDENT=a b'
touch "$TMP/exists.txt"
mk_refused "make submit OUT=an existing file reaches submit.sh" "exists" submit STUDENT=mv OUT="$TMP/exists.txt"
mk_refused "make submit ANSWERS=a missing sheet reaches submit.sh" "cannot read ANSWERS='$TMP/nosheet.txt'" \
	submit STUDENT=mv ANSWERS="$TMP/nosheet.txt"

# Values are data: a $(shell ...) or a ; in a value is text, at every door.
inj="\$(shell touch $TMP/PWNED)"
mk_refused "make submit STUDENT='\$(shell touch ...)': refused as a name, nothing ran" \
	"STUDENT must start with a letter or digit, not '\\\$\\(shell touch" submit STUDENT="$inj"
mk_refused "make grade FILE='a;touch PWNED': a file that is not there, nothing ran" \
	"cannot read 'a;touch $TMP/PWNED'" grade FILE="a;touch $TMP/PWNED"
mk_refused "make grade FORMAT='\$(shell touch ...)': refused as a format, nothing ran" \
	"--format wants .*shell touch" grade FILE=/dev/null FORMAT="$inj"
mk_refused "make lab1 FRAMES='\$(shell touch ...)': refused as a knob, nothing ran" \
	"FRAMES wants a whole number" lab1 FRAMES="$inj"
mk_refused "make lab5 BYTES='1M;touch PWNED': refused as a size, nothing ran" \
	"BYTES wants a size" lab5 BYTES="1M;touch $TMP/PWNED"
mk_refused "make lab3 COUNT_LARGE=\"1';touch PWNED;'\": a quote in a value stays in it" \
	"COUNT_LARGE wants a whole number" lab3 COUNT_LARGE="1';touch $TMP/PWNED;'"
mk_refused "make plots FRAMES='1;touch PWNED': refused as a knob, nothing ran" \
	"FRAMES wants a whole number" plots FRAMES="1;touch $TMP/PWNED" PLOTS_DIR="$TMP/plots"
mk_refused "make run FRAMES='1;touch PWNED': refused as a knob, nothing ran" \
	"FRAMES wants a whole number" run FRAMES="1;touch $TMP/PWNED"

# A lab that does not exist: one line naming the labs and make help, exit 2.
for t in lab9 lab2-nosuch; do
	"${MK[@]}" "$t" >"$TMP/out" 2>"$TMP/err"; rc=$?
	if [ "$rc" -eq 2 ] && [ "$(wc -l <"$TMP/err")" -eq 1 ] && grep -q 'lab1 .*lab6.*make help' "$TMP/err" &&
	   [ "$(wc -L <"$TMP/err")" -le 100 ]; then
		pass "make $t: one line naming the labs and make help, exit 2"
	else
		fail "make $t: one line naming the labs" "exit $rc: $(head -c 300 "$TMP/err")"
	fi
done

# A variable make does not know, typed after it (a misspelt knob was
# ignored: make lab1 FRAME=5 ran all 100 frames): one line naming the
# nearest knob, exit 2, before anything is built or run (nothing on
# stdout, where make echoes a build and a lab prints).  Not -s: as typed.
for c in "lab1 FRAME=5|FRAME: no such knob; did you mean FRAMES?" \
	 "lab5 bytes=1M|bytes: no such knob; did you mean BYTES?" \
	 "lab2 ITERS=2000|ITERS: no such knob; did you mean VARIANCE_ITERS?" \
	 "submit STUDNET=ada|STUDNET: no such knob; did you mean STUDENT?" \
	 "lab1 XYZZY=1|XYZZY: no such knob (make help lists them)"; do
	IFS='|' read -r t want <<<"$c"
	# shellcheck disable=SC2086 # the target and the variable are words
	make --no-print-directory $t >"$TMP/out" 2>"$TMP/err"; rc=$?
	if [ "$rc" -eq 2 ] && [ ! -s "$TMP/out" ] && [ "$(wc -l <"$TMP/err")" -eq 1 ] &&
	   grep -qF -- "*** $want" "$TMP/err" && [ "$(wc -L <"$TMP/err")" -le 80 ]; then
		pass "make $t: refused in one line, \"$want\", nothing ran"
	else
		fail "make $t: refused in one line naming the nearest knob" \
			"exit $rc; stderr: $(head -c 300 "$TMP/err"); stdout: $(head -c 200 "$TMP/out")"
	fi
done

# The same name in the environment is only warned of, and the target goes
# on: the environment holds every other program's variables too.  Those
# (a compiler's, a time zone, a pager) get no warning.
env_plans() {
	local name=$1 want=$2 rc
	shift 2
	env -u FRAMES "$@" "${MK[@]}" -n lab1 >"$TMP/out" 2>"$TMP/err"; rc=$?
	if [ "$rc" -eq 0 ] && grep -q 'tools/labs/lab1.sh table$' "$TMP/out" &&
	   { { [ -z "$want" ] && [ ! -s "$TMP/err" ]; } ||
	     { [ "$(wc -l <"$TMP/err")" -eq 1 ] && grep -qF -- "$want" "$TMP/err"; }; }; then
		pass "$name"
	else
		fail "$name" "exit $rc; stderr: $(head -c 300 "$TMP/err")"
	fi
}
env_plans "FRAME=5 make -n lab1: one warning naming FRAMES, and lab1 planned" \
	"warning: FRAME (environment) is no knob; did you mean FRAMES?" FRAME=5
env_plans "CXX, LDFLAGS, TZ, PAGER in the environment: no warning, lab1 planned" "" \
	CXX=g++ LDFLAGS=-s TZ=UTC PAGER=less

# Every variable README and its docs/ pages type after make is one make
# knows (but the typo they show refused): all at once after make help,
# which runs nothing.
typos=$(cat README.md docs/*.md | grep -oE '[A-Z][A-Z0-9_]*: no such knob' | cut -d: -f1)
mapfile -t names < <(cat README.md docs/*.md | grep -oE '\bmake( +[-a-z0-9.]+)*( +[A-Z][A-Z0-9_]*=("[^"]*"|[^ `]*))+' |
	grep -oE ' [A-Z][A-Z0-9_]*=' | tr -d ' =' | sort -u | grep -vxF "${typos:-NONE}")
"${MK[@]}" -n help "${names[@]/%/=1}" >"$TMP/out" 2>"$TMP/err"; rc=$?
if [ "${#names[@]}" -ge 10 ] && [ "$rc" -eq 0 ] && [ ! -s "$TMP/err" ]; then
	pass "every variable README and docs/ type after make is known: ${names[*]}"
else
	fail "every variable README and docs/ type after make is known" "exit $rc: $(head -c 300 "$TMP/err") (names: ${names[*]})"
fi

# A minimal VM's host name is "(none)": make submit's default name must
# still pass its own check.  A GLIBC_TUNABLES makes submit.sh stop at the
# check after the name's, so nothing runs.
if [ "$(id -u)" -eq 0 ] && command -v unshare >/dev/null 2>&1 && unshare --uts true 2>/dev/null; then
	GLIBC_TUNABLES=glibc.malloc.tcache_count=0 unshare --uts bash -c \
		'printf "(none)" >/proc/sys/kernel/hostname && exec make --no-print-directory -s submit' >"$TMP/out" 2>"$TMP/err"; rc=$?
	if [ "$rc" -eq 2 ] && grep -q 'the environment sets GLIBC_TUNABLES' "$TMP/err"; then
		pass "make submit on a host named (none): the default name is accepted"
	else
		fail "make submit on a host named (none)" "exit $rc: $(head -c 300 "$TMP/err")"
	fi
else
	skip "make submit on a host named (none)" "needs root and unshare --uts to rename the host"
fi

full_only "make CC=clang OPT=-O0 after make, and the pre-commit hook's make submit"

# README's `make CC=clang OPT=-O0` after make: every lab rebuilt by clang,
# each program's # built: line naming it, then nothing left to build.  In
# a copy of the kit holding this tree's programs and build/ stamps (made
# with KIT_REV as they were built: the copy has no .git), so the programs
# the other tests run are not rebuilt under them.
if ! command -v clang >/dev/null 2>&1; then
	skip "make CC=clang OPT=-O0 after make" "clang is not installed (apt-get install clang)"
else
	K=$TMP/kit
	kit_copy "$K" && mkdir -p "$K/build" && cp -p build/kit-rev build/flags "$K/build/" &&
		(mapfile -t progs < <(lab_programs) && cp -p "${progs[@]}" "$K/")
	KM=(make --no-print-directory -s KIT_REV="$(cat build/kit-rev)")
	(cd "$K" && "${KM[@]}" && "${KM[@]}" CC=clang OPT=-O0) >"$TMP/out" 2>&1; rc=$?
	n=0
	for p in $(lab_programs); do
		"$K/$p" --env 2>/dev/null | grep -q '^# built: clang .*unoptimised' && n=$((n + 1))
	done
	if [ "$rc" -eq 0 ] && [ "$n" -eq "$(lab_programs | wc -l)" ] &&
	   (cd "$K" && "${KM[@]}" -n all CC=clang OPT=-O0) >"$TMP/out2" 2>&1 && [ ! -s "$TMP/out2" ]; then
		pass "make CC=clang OPT=-O0 after make: $n labs rebuilt, each # built: clang, then none to build"
	else
		fail "make CC=clang OPT=-O0 after make: the labs rebuilt by clang" \
			"exit $rc, $n programs say clang; $(tail -n 3 "$TMP/out") $(head -n 2 "$TMP/out2" 2>/dev/null)"
	fi
fi

# The pre-commit hook's command, exactly: small knobs still make a file.
"${MK[@]}" submit STUDENT=hookcheck OUT="$TMP/h.txt" FRAMES=1 SCALE=100 VARIANCE_ITERS=2000 \
	COUNT_LARGE=200 BYTES=1M >"$TMP/out" 2>"$TMP/err"; rc=$?
if [ "$rc" -eq 0 ] && grep -qx 'student: hookcheck' "$TMP/h.txt" 2>/dev/null &&
   grep -qx 'frames: 1' "$TMP/h.txt" && grep -qx "submission: $TMP/h.txt" "$TMP/out"; then
	pass "make -s submit STUDENT=hookcheck OUT=... FRAMES=1 ...: the file, at those knobs, for hookcheck"
else
	fail "make -s submit STUDENT=hookcheck OUT=..." "exit $rc: $(tail -n 3 "$TMP/err")"
fi
