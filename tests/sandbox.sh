#!/usr/bin/env bash
# tests/sandbox.sh - tools/grading/sandbox, where the re-run builds and
# runs a student's code.  A region can run machine code (a page from
# mmap and a function pointer), so it can do whatever a process of its
# uid can: each attack below is such a process, run as the re-run runs a
# program (its private directory, the kit's copy read-only, the working
# directory there).  Each must fail, and the grader's files (the kit's
# grade.awk, gradescope.awk, the solutions) hash the same after as
# before.  As root: with namespaces, then as a container that refuses
# them (tests/bin/nons: the uid and the limits only); as another user:
# with a user namespace, then without (no isolation: exit 125, and the
# re-run refuses to run the code).  make test-all: a whole re-run of
# regions that loop, print and fill memory, each scoring at most its stub.
. "$(dirname "$0")/lib.sh" || exit 1

SB=$PWD/tools/grading/sandbox
make -s tools/grading/sandbox tests/bin/nons >/dev/null 2>&1 || { fail "tools/grading/sandbox builds" "make failed"; exit 0; }
check_usage_error "sandbox: no --dir" "$SB" -- true
check_usage_error "sandbox: a relative --dir" "$SB" --dir box -- true
check_usage_error "sandbox: no COMMAND" "$SB" --dir "$TMP"
check_usage_error "sandbox: --procs 0" "$SB" --dir "$TMP" --procs 0 -- true
check_usage_error "sandbox: --probe with a command" "$SB" --probe true
if [ "$(id -u)" != 0 ]; then
	skip "the sandbox's attacks" "not root: the tests switch users and uids"
	exit 0
fi

# The grader's files: hashed before and after every attack.
GRADER="tools/grading/grade.awk tools/grading/gradescope.awk $(lab_programs | sed 's/$/.c/')"
hashes() { (cd "${1:-.}" && sha256sum $GRADER 2>&1); sha256sum "$TMP/other/clone.c" 2>&1; }
mkdir -p "$TMP/other" && echo 'int x;' >"$TMP/other/clone.c"      # a classmate's clone
before=$(hashes)
# The solutions: the kit's own, world-readable, hidden by a root of its
# own; where namespaces are refused, a closed copy (run_autograder closes
# the kit: chmod 700), the uid kept out by the mode.
READ_FROM=$PWD
mkdir -p "$TMP/closed" && cp frames.c "$TMP/closed/" && chmod 700 "$TMP/closed"
# The re-run's layout: the kit's copy (W, read-only) the working
# directory, a private directory (BOX) made afresh each run.
W=$TMP/w
mkdir -p "$W" && cp frames "$W/" && chmod 711 "$TMP"
# attack NAME [OPTION...] -- COMMAND...: run as the re-run runs a program
# (as USER_AS, when set: setpriv to that uid); out, err and rc in $TMP.
# As root the attacks run as SBU (sandbox --uid), not 64999.
SBU=$(free_uid)
attack() {
	local name=$1 pre=() as=(--uid "$SBU")
	shift
	[ -z "${USER_AS:-}" ] || as=()
	rm -rf "$TMP/box" && mkdir -m 700 "$TMP/box" && { [ -z "${USER_AS:-}" ] || chown "$USER_AS" "$TMP/box"; }
	[ -n "${USER_AS:-}" ] && pre=(setpriv --reuid="$USER_AS" --regid="$USER_AS" --clear-groups)
	[ -n "${NONS:-}" ] && pre+=("$PWD/tests/bin/nons")
	[ -z "${KEYED:-}" ] || pre=(perl -e "$ADD_KEY" -- ${pre[@]+"${pre[@]}"})
	(cd "$W" && timeout -k 2 30 ${pre[@]+"${pre[@]}"} "$SB" "${as[@]}" --dir "$TMP/box" --ro "$W" "$@") \
		>"$TMP/$name.out" 2>"$TMP/$name.err"
	echo $? >"$TMP/$name.rc"
}
rc_of() { cat "$TMP/$1.rc"; }
# (a new session keyring holding the key "tok", then the rest: as root, so
# that the attack's setpriv keeps it)
ADD_KEY='my ($t, $n, $v) = ("user", "tok", "GRADER-SECRET"); syscall(250, 1, 0);
	syscall(248, $t, $n, $v, length $v, -3) > 0 or die "add_key: $!"; exec @ARGV or die "exec: $!"'

# left UID: the processes of UID still alive (a namespace's end is not
# instant: asked again for up to a second)
left() {
	local i n
	for i in 1 2 3 4 5; do
		n=$(ps -eo uid= | awk -v u="$1" '$1 == u' | wc -l)
		[ "$n" = 0 ] && break
		sleep 0.2
	done
	echo "$n"
}

# attacks TAG: every attack, in the isolation TAG names
attacks() {
	local tag=$1 u=${USER_AS:-$SBU}
	attack ok -- sh -c 'echo ok >"$TMPDIR/f" && cat "$TMPDIR/f"'
	[ "$(cat "$TMP/ok.out")" = ok ] && pass "$tag: a program runs, and writes its private directory" ||
		fail "$tag: an honest run" "exit $(rc_of ok): $(head -c 200 "$TMP/ok.err")"
	attack write -- sh -c "echo ran; echo pwned >>'$PWD/tools/grading/grade.awk' || echo pwned >>'$TMP/other/clone.c'"
	[ "$(cat "$TMP/write.out")" = ran ] && [ "$(rc_of write)" != 0 ] &&
		pass "$tag: a write to grade.awk or a classmate's clone fails: $(head -n 1 "$TMP/write.err" | sed 's/.*: //')" ||
		fail "$tag: a write to grade.awk" "exit $(rc_of write): $(head -c 200 "$TMP/write.err")"
	attack read -- sh -c "echo ran; cat '$READ_FROM/frames.c'"
	[ "$(cat "$TMP/read.out")" = ran ] && pass "$tag: the solutions cannot be read: $(head -n 1 "$TMP/read.err" | sed 's/.*: //')" ||
		fail "$tag: reading the solutions" "exit $(rc_of read), $(wc -c <"$TMP/read.out") bytes read"
	attack fill --as 64M -- bash -c 'echo ran; s=$(head -c 100000000 /dev/zero | tr "\0" x); echo ${#s}'
	[ "$(cat "$TMP/fill.out")" = ran ] && pass "$tag: 100 MB held under --as 64M fails (exit $(rc_of fill))" ||
		fail "$tag: filling memory" "it held 100 MB"
	attack loop --cpu 1 -- sh -c 'while :; do :; done'
	case $(rc_of loop) in 137|152) pass "$tag: a loop is stopped by --cpu 1 (exit $(rc_of loop))" ;;
	*) fail "$tag: a loop" "exit $(rc_of loop)" ;; esac
	attack flood -- yes pwned
	s=$(wc -c <"$TMP/flood.out")
	[ "$(rc_of flood)" = 153 ] && [ "$s" -le $((16 << 20)) ] && pass "$tag: printing forever stops at 16 MiB ($s bytes, SIGXFSZ)" ||
		fail "$tag: printing forever" "exit $(rc_of flood), $s bytes"
	attack bomb --procs 16 -- sh -c 'for i in $(seq 64); do (sleep 300 &); done'
	n=$(left "$u")
	grep -qi 'fork' "$TMP/bomb.err" && [ "$n" = 0 ] &&
		pass "$tag: a fork bomb meets --procs 16, and none of its processes outlives its run" ||
		fail "$tag: a fork bomb" "exit $(rc_of bomb), $n processes of uid $u left"
	attack daemon -- sh -c 'setsid sleep 300 </dev/null >/dev/null 2>&1 & echo started'
	n=$(left "$u")
	[ "$(cat "$TMP/daemon.out")" = started ] && [ "$n" = 0 ] && pass "$tag: a process left running is ended with its run" ||
		fail "$tag: a daemon" "$n processes of uid $u left"
	# Nothing of the caller's open: a step list as standard input, a file
	# as descriptor 7 (make check's runner once handed both on).  Inside:
	# 0 is /dev/null, 1 and 2 the run's files, and 3 ls's own directory.
	echo 'lab1.x|run|-|./frames' >"$TMP/steps" && : >"$TMP/inherited"
	attack fds -- sh -c 'ls -l /proc/self/fd | awk "NR > 1 { print \$9, \$11 }"; echo x >>/proc/self/fd/0; echo x >>/proc/self/fd/7' \
		<"$TMP/steps" 7>>"$TMP/inherited"
	fds=$(tr '\n' ' ' <"$TMP/fds.out")
	[[ $fds =~ ^"0 /dev/null 1 "[^\ ]+" 2 "[^\ ]+" 3 /proc/"[0-9]+/fd\ $ ]] && [ ! -s "$TMP/inherited" ] &&
	[ "$(cat "$TMP/steps")" = 'lab1.x|run|-|./frames' ] &&
		pass "$tag: a run has stdin /dev/null and no descriptor of the caller's (it sees: ${fds% })" ||
		fail "$tag: what a run inherits" "its descriptors: $fds; the step list: $(head -c 80 "$TMP/steps"); fd 7's file: $(wc -c <"$TMP/inherited") bytes"
	# --mem: the run's processes together, where a cgroup can be made (as
	# root): three of 60 MB each under 128M cannot all hold theirs
	if [[ $probe == *"(a cgroup)"* ]]; then
		attack mem --mem 128M -- bash -c 'for i in 1 2 3; do (s=$(head -c 60000000 /dev/zero | tr "\0" x)
			sleep 1; echo held ${#s}) & done; wait'
		n=$(grep -c '^held' "$TMP/mem.out")
		[ "$n" -lt 3 ] && pass "$tag: three processes of 60 MB under --mem 128M: $n held theirs" ||
			fail "$tag: the whole run's memory" "$n of 3 held 60 MB under --mem 128M"
	else
		skip "$tag: the whole run's memory" "no cgroup here (${probe##*; })"
	fi
	# A key in the grader's session keyring (a token a tool keeps there):
	# x86_64's add_key (248) and keyctl (250) from perl, which Debian has
	if [ "$(uname -m)" = x86_64 ] && command -v perl >/dev/null 2>&1; then
		KEYED=1 attack keys -- perl -e 'my ($t, $n) = ("user", "tok"); my $r = syscall(250, 10, -3, $t, $n, 0);
			print $r < 0 ? "none: $!\n" : "found\n"'
		grep -q '^none' "$TMP/keys.out" && pass "$tag: a key in the grader's session keyring: $(cat "$TMP/keys.out")" ||
			fail "$tag: the grader's keyring" "$(cat "$TMP/keys.out" "$TMP/keys.err" | head -n 2)"
	else
		skip "$tag: the grader's keyring" "needs perl on x86_64 (its system-call numbers)"
	fi
	SECRET_TOKEN=grader attack env -- env
	grep -q '^SECRET_TOKEN=' "$TMP/env.out" && fail "$tag: the grader's environment" "SECRET_TOKEN reached the code" ||
		pass "$tag: a variable of the grader's (SECRET_TOKEN) does not reach the code"
	after=$(hashes)
	[ "$after" = "$before" ] && pass "$tag: the grader's files and the classmate's clone hash the same after" ||
		fail "$tag: the grader's files changed" "$(diff <(echo "$before") <(echo "$after") | head -n 3)"
}

# -------------------------------------------- as root (Gradescope's image)
if ! probe=$("$SB" --probe 2>&1); then
	skip "as root, with namespaces" "$probe"
else
	pass "as root: $(printf '%s' "$probe" | cut -c1-60)..."
	attacks "root"
	attack net -- bash -c 'exec 3<>/dev/tcp/127.0.0.1/9'
	outside=$(bash -c 'exec 3<>/dev/tcp/127.0.0.1/9' 2>&1)
	grep -q 'Network is unreachable' "$TMP/net.err" && pass "root: no network (a socket to 127.0.0.1 is unreachable; outside: ${outside##*: })" ||
		fail "root: the network" "$(cat "$TMP/net.err")"
	# --tmpfs: all the run writes, together, in a tmpfs of that size and
	# 4096 files, gone with the run
	attack disk --tmpfs 8M -- sh -c 'head -c 20000000 /dev/zero >"$TMPDIR/big"; echo $?; i=0
		while [ $i -lt 6000 ] && true >"$TMPDIR/f$i" 2>/dev/null; do i=$((i + 1)); done; echo $i'
	set -- $(cat "$TMP/disk.out")
	[ "${1:-0}" != 0 ] && [ "${2:-6000}" -lt 6000 ] && [ -z "$(ls -A "$TMP/box")" ] &&
		pass "root: --tmpfs 8M: 20 MB fail to write, file $2 fails, and the run leaves nothing on the disk" ||
		fail "root: the run's disk" "20 MB: exit ${1:-?}; $2 files; the box holds $(ls -A "$TMP/box" | wc -l)"
	attack hidden -- sh -c "ls -A /root /run /home '$PWD' 2>/dev/null; ls -A '$TMP'"
	[ "$(cat "$TMP/hidden.out")" = "$(printf 'box\nw')" ] &&
		pass "root: /root, /run, /home and the kit are not there; of \$TMP, only the run's two directories" ||
		fail "root: what the code sees" "$(head -n 5 "$TMP/hidden.out")"
fi

# -------------------------------------------- as another user (no root)
NB=$(free_uid 1)      # not root: another free uid, not the system's nobody
[ "$NB" != "$SBU" ] || NB=$(free_uid 2)
if ! setpriv --reuid=$NB --regid=$NB --clear-groups test -x "$SB"; then
	skip "as another user" "uid $NB cannot run $SB (a directory above it is closed)"
	exit 0
fi
nb=(setpriv --reuid=$NB --regid=$NB --clear-groups)
userns=0
if probe=$("${nb[@]}" "$SB" --probe 2>&1); then
	pass "not root: $(printf '%s' "$probe" | cut -c1-60)..."; userns=1
else
	skip "not root, with a user namespace" "$probe"
fi
probe=$("${nb[@]}" tests/bin/nons "$SB" --probe 2>&1); rc=$?
[ $rc = 125 ] && [[ $probe == *"no isolation"* ]] && pass "not root, no user namespace: exit 125, '${probe#sandbox: }'" ||
	fail "not root, no user namespace" "exit $rc: $probe"

full_only "the attacks where namespaces are refused and without root; a whole re-run of hostile regions"
if probe=$(tests/bin/nons "$SB" --probe 2>&1); then
	pass "as root where namespaces are refused: $(printf '%s' "$probe" | cut -c1-60)..."
	READ_FROM=$TMP/closed NONS=1 attacks "root, no namespaces"
else
	fail "as root where namespaces are refused" "$probe"
fi
chmod 755 "$W"
[ $userns = 0 ] || { probe=$("${nb[@]}" "$SB" --probe 2>&1); USER_AS=$NB attacks "not root"; }

# A whole re-run of hostile regions, each around its stub: lab2.pool's
# pool_init() runs machine code (a page from mmap, a function pointer)
# that becomes sh -c, which reads the re-run's standard input to its end
# (once the step list, whose end stopped the re-run), appends a step that
# runs a command outside (once run, without root), writes a forged row
# to every descriptor above 2 (once the instructor's gradebook), reads
# the solutions, writes grade.awk, and prints the grader's key to its
# standard error (once shown to the student); tune_allocator() prints
# forever, new_frame() fills memory, give_memory_back() loops.  Each
# exercise scores at most its stub and every exercise is graded, nothing
# ran outside, the descriptor's file is empty, the grader's files hash
# the same, and no line of a solution or of the key reaches the output
# (tests/lib.sh: hostile_regions makes them).  As root, then as another
# user with a user namespace, in a copy of the kit of that user's.
needs_solution "every exercise" "a whole re-run of hostile regions" || exit 0
U=$TMP/hostile
mkdir -p "$U" && cp $(lab_programs | sed 's/$/.c/') "$U/"
# attack_cmd KIT OUT: the sh command, attacking the kit KIT (the grader's)
# and appending a step that would touch OUT/escaped
attack_cmd() {
	printf '%s' "cat <&0 >/dev/null; echo 'lab9.x|run|sh -c touch\${IFS}$2/escaped|./frames' >>/proc/self/fd/0;" \
		" bash -c 'for n in 3 4 5 6 7 8 9 10 11 12 255; do [ -e /proc/self/fd/\$n ] && echo bob,0,plagiarism >&\$n; done';" \
		" cat '$1/frames.c'; echo pwned >>'$1/tools/grading/grade.awk';" \
		" sed -n '/^# ---- KEY/,/^# ---- END KEY/p' /tmp/*/kit/tools/grading/grade.awk" \
		" $TMP/nbtmp/*/kit/tools/grading/grade.awk | grep -v -e '^#' -e '^$' | head -n 1 >&2; exit 3"
}
hostile_regions "$U" "$(attack_cmd "$PWD" "$TMP")" || { skip "a whole re-run of hostile regions" "$HOSTILE_WHY"; exit 0; }
make -s handout OUT="$TMP/ho" >/dev/null 2>&1 || { fail "make handout" "failed"; exit 0; }
mkdir -p "$TMP/stubs" && for f in $(lab_programs | sed 's/$/.c/'); do cp "$TMP/ho/$f" "$TMP/stubs/"; done
KNOBS=(FRAMES=2 SCALE=100 VARIANCE_ITERS=2000 COUNT_LARGE=200 BYTES=1M CHECK_TIMEOUT=10)
env "${KNOBS[@]}" tools/grading/recheck.sh "$TMP/stubs" >"$TMP/stubs.out" 2>&1
ex_score() { awk -v e="$2" '/^The grade/ { g = 1 } g && $1 == e { print $NF; exit }' "$1"; }
solution=$(awk '/BEGIN EXERCISE lab1.new_frame/ { p = 1; next } /END EXERCISE/ { p = 0 } p && length > 20' frames.c | head -n 1)
key=$(sed -n '/^# ---- KEY/,/^# ---- END KEY/p' tools/grading/grade.awk | grep -v -e '^#' -e '^$' | head -n 1)
[ -n "$key" ] || { fail "the grader's key" "no line of code between KEY and END KEY in grade.awk"; exit 0; }
stub_max=$(sed -n 's|^Score: [0-9]*/||p' "$TMP/stubs.out")
# hostile_rerun TAG OUT KIT ESC: the checks on a re-run's output OUT (its
# JSON OUT.json, the file its descriptor 3 was, OUT.fd3) that attacked KIT
# (hashed before as $before) and appended a step that touches ESC/escaped
hostile_rerun() {
	local tag=$1 out=$2 kit=$3 esc=$4 r a b after
	for r in lab2.pool lab1.tune_allocator lab1.new_frame lab6.give_memory_back; do
		a=$(ex_score "$out" $r) b=$(ex_score "$TMP/stubs.out" $r)
		grep -q "^  $r .* taken$" "$out" && [ -n "$a" ] && [ -n "$b" ] && [ "${a%/*}" -le "${b%/*}" ] &&
			pass "$tag: a hostile $r, taken and run, scores $a (its stub $b)" ||
			fail "$tag: a hostile $r" "$a against its stub's $b: $(grep -m 2 "$r" "$out")"
	done
	grep -q "^Score: [0-9]*/$stub_max$" "$out" && ! grep -q '(no @run record)' "$out" &&
		pass "$tag: every step ran, out of $stub_max: the step list was never the code's to read" ||
		fail "$tag: the re-run's steps" "$(grep '^Score' "$out"), $(grep -c '(no @run record)' "$out") checks with no record"
	[ ! -e "$esc/escaped" ] && pass "$tag: a step the code appended did not run" ||
		fail "$tag: an appended step ran outside the sandbox" "$(ls -l "$esc/escaped")"
	[ ! -s "$out.fd3" ] && pass "$tag: a descriptor of the grader's (3, a gradebook) got nothing" ||
		fail "$tag: the grader's descriptor 3 was written" "$(head -n 2 "$out.fd3")"
	grep -q "exited 3: sed: can't read" "$out" && pass "$tag: the machine code ran sh, and the grader's key was not there to print" ||
		fail "$tag: the key, or sh" "no \"exited 3: sed: can't read\" in the output"
	after=$(hashes "$kit")
	[ "$after" = "$before" ] && ! grep -qF -- "$solution" "$out" && ! grep -qF -- "$key" "$out" "$out.json" &&
		pass "$tag: the grader's files hash the same, and no solution line nor key line is in the output" ||
		fail "$tag: the hostile re-run reached the grader" "$(diff <(echo "$before") <(echo "$after") | head -n 3)"
}
: >"$TMP/hostile.out.fd3"
env "${KNOBS[@]}" tools/grading/recheck.sh --json "$TMP/hostile.out.json" "$U" >"$TMP/hostile.out" 2>&1 3>>"$TMP/hostile.out.fd3"
hostile_rerun "root" "$TMP/hostile.out" "$PWD" "$TMP"

# The same as another user with a user namespace: the code has the
# grader's own uid, so only what it inherits and what its root holds
# keep it from the grader.
N=$TMP/nb U2=$TMP/hostile2
mkdir -p "$N" "$TMP/nbtmp" "$U2" && tar -cf - --exclude=./.git . | tar -xf - -C "$N" &&
	cp $(lab_programs | sed 's/$/.c/') "$U2/" && chown -R $NB:$NB "$N" "$TMP/nbtmp" "$U" && chmod 755 "$TMP"
if [ $userns = 1 ] && hostile_regions "$U2" "$(attack_cmd "$N" "$TMP/nbtmp")"; then
	before=$(hashes "$N")
	: >"$TMP/nb.out.fd3" && chown -R $NB "$TMP/nb.out.fd3" "$U2"
	(cd "$N" && "${nb[@]}" env TMPDIR="$TMP/nbtmp" "${KNOBS[@]}" tools/grading/recheck.sh --json "$TMP/nbtmp/nb.json" "$U2") \
		>"$TMP/nb.out" 2>&1 3>>"$TMP/nb.out.fd3"
	cp "$TMP/nbtmp/nb.json" "$TMP/nb.out.json" 2>/dev/null
	hostile_rerun "not root" "$TMP/nb.out" "$N" "$TMP/nbtmp"
fi

# A re-run whose runs block (pool_init() runs sleep): each run is stopped
# at five times CHECK_TIMEOUT of wall time, the whole re-run at
# CHECK_WALL, and it still ends with a grade of every exercise.
B=$TMP/blocks
mkdir -p "$B" && cp "$TMP"/stubs/*.c "$B/" && hostile_regions "$B" "sleep 1000"
t0=$SECONDS
env "${KNOBS[@]}" CHECK_TIMEOUT=2 CHECK_WALL=20 tools/grading/recheck.sh "$B" >"$TMP/blocks.out" 2>&1
t=$((SECONDS - t0))
grep -q "whole run was out of time: 20 s" "$TMP/blocks.out" && grep -q "^Score: [0-9]*/$stub_max$" "$TMP/blocks.out" &&
	pass "a re-run that blocks ends in $t s (CHECK_WALL=20 of runs), every exercise graded" ||
	fail "a re-run that blocks" "$t s: $(grep -m 2 'out of time\|^Score' "$TMP/blocks.out")"

# strace's log, forged: tune_allocator() forks machine code (on its stack,
# made executable by a nested function's trampoline) that waits for the
# traced program to end, then puts an empty log where the log was once
# written, the run's private directory, BOX (every count then 0, the
# tuned want; the code runs with no environment, so no TMPDIR).
# The log is the grader's, outside the sandbox: the stub's true counts
# are graded, as the stub's own re-run grades them.
# forged OUT: the system-call checks of OUT, as the stubs' re-run has them
forged() {
	local out=$1 tag=$2 want got
	want=$(grep -E '^  [A-Z]+ +lab1\.tune-[a-z]+ +(brk|mmap|munmap)/2frames' "$TMP/stubs.out")
	got=$(grep -E '^  [A-Z]+ +lab1\.tune-[a-z]+ +(brk|mmap|munmap)/2frames' "$out")
	[ -n "$want" ] && [ "$got" = "$want" ] && grep -q 'FAIL  lab1.tune-malloc  mmap/2frames' "$out" &&
		pass "$tag: a forged strace log changes no count: $(echo "$got" | grep -c FAIL) system-call checks FAIL, as the stub's" ||
		fail "$tag: a forged strace log" "$(diff <(echo "$want") <(echo "$got") | head -n 4)"
}
FORGE="sleep 1; for f in /tmp/*/box/sc.log $TMP/nbtmp/*/box/sc.log; do rm -f \$f; true >\$f; done"
F=$TMP/forge
mkdir -p "$F" && cp "$TMP"/stubs/*.c "$F/" && machine_code "$FORGE" fork &&
	set_region "$F/frames.c" lab1.tune_allocator "static void tune_allocator(int verbose)
{
	volatile unsigned char code[] = { $MACHINE_CODE };
	int nested(void) { return verbose; }
	int (*volatile keep)(void) = nested;

	(void)keep;
	((void (*)(void))(void *)code)();
}"
env "${KNOBS[@]}" tools/grading/recheck.sh "$F" >"$TMP/forge.out" 2>&1
forged "$TMP/forge.out" root
if [ $userns = 1 ]; then
	chown -R $NB:$NB "$F"
	(cd "$N" && "${nb[@]}" env TMPDIR="$TMP/nbtmp" "${KNOBS[@]}" tools/grading/recheck.sh "$F") >"$TMP/nbforge.out" 2>&1
	forged "$TMP/nbforge.out" "not root"
fi

# Where namespaces are refused, the grade says the code ran unsealed:
# last in recheck's output and in Gradescope's.
env "${KNOBS[@]}" tests/bin/nons tools/grading/recheck.sh --json "$TMP/nons.json" "$TMP/stubs" >"$TMP/nons.out" 2>&1
grep -q '^Unsealed: isolation: uid and limits only' "$TMP/nons.out" && grep -q 'uid and limits only' "$TMP/nons.json" &&
	grep -q "^Score: [0-9]*/$stub_max$" "$TMP/nons.out" &&
	pass "root, no namespaces: graded, and said so: '$(sed -n 's/^Unsealed: //p' "$TMP/nons.out" | cut -c1-50)...'" ||
	fail "root, no namespaces: the re-run" "$(tail -n 2 "$TMP/nons.out")"

# Without root and without user namespaces the re-run refuses the code.
(cd "$N" && "${nb[@]}" env TMPDIR="$TMP/nbtmp" "$PWD/tests/bin/nons" tools/grading/recheck.sh "$U") >"$TMP/refuse.out" 2>&1; rc=$?
[ $rc = 2 ] && grep -q -- '--no-isolation-i-trust-this-code' "$TMP/refuse.out" && ! grep -q '^Score' "$TMP/refuse.out" &&
	pass "not root, no user namespace: the re-run refuses: '$(grep -m 1 -o 'no isolation here[^:]*' "$TMP/refuse.out")...'" ||
	fail "not root, no user namespace: the re-run" "exit $rc: $(tail -n 2 "$TMP/refuse.out")"
# ... and given --no-isolation-i-trust-this-code, runs it and says so.
(cd "$N" && "${nb[@]}" env TMPDIR="$TMP/nbtmp" "${KNOBS[@]}" "$PWD/tests/bin/nons" tools/grading/recheck.sh \
	--no-isolation-i-trust-this-code "$TMP/stubs") >"$TMP/trust.out" 2>&1
grep -q '^Unsealed: isolation: NONE, the code ran as' "$TMP/trust.out" && grep -q "^Score: [0-9]*/$stub_max$" "$TMP/trust.out" &&
	pass "not root, no user namespace, trusted: graded, and said so: '$(sed -n 's/^Unsealed: //p' "$TMP/trust.out" | cut -c1-40)...'" ||
	fail "not root, trusted: the re-run" "$(tail -n 2 "$TMP/trust.out")"
