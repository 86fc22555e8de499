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
hashes() { sha256sum $GRADER "$TMP/other/clone.c" 2>&1; }
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
	(cd "$W" && timeout -k 2 30 ${pre[@]+"${pre[@]}"} "$SB" "${as[@]}" --dir "$TMP/box" --ro "$W" "$@") \
		>"$TMP/$name.out" 2>"$TMP/$name.err"
	echo $? >"$TMP/$name.rc"
}
rc_of() { cat "$TMP/$1.rc"; }
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
[ $userns = 0 ] || USER_AS=$NB attacks "not root"

# A whole re-run of hostile regions, each around its stub: lab2.pool's
# pool_init() runs machine code (a page from mmap, a function pointer)
# that becomes sh -c, which reads the solutions and writes the grader's
# grade.awk; tune_allocator() prints forever, new_frame() fills memory,
# give_memory_back() loops.  Each exercise scores at most its stub, the
# sh ran (its complaint is the run's last line), the grader's files hash
# the same, and no line of a solution reaches the output (tests/lib.sh:
# hostile_regions makes them).
needs_solution "every exercise" "a whole re-run of hostile regions" || exit 0
U=$TMP/hostile
mkdir -p "$U" && cp $(lab_programs | sed 's/$/.c/') "$U/"
hostile_regions "$U" "cat '$PWD/frames.c'; echo pwned >>'$PWD/tools/grading/grade.awk'" ||
	{ skip "a whole re-run of hostile regions" "$HOSTILE_WHY"; exit 0; }
make -s handout OUT="$TMP/ho" >/dev/null 2>&1 || { fail "make handout" "failed"; exit 0; }
mkdir -p "$TMP/stubs" && for f in $(lab_programs | sed 's/$/.c/'); do cp "$TMP/ho/$f" "$TMP/stubs/"; done
KNOBS=(FRAMES=2 SCALE=100 VARIANCE_ITERS=2000 COUNT_LARGE=200 BYTES=1M CHECK_TIMEOUT=10)
env "${KNOBS[@]}" tools/grading/recheck.sh "$TMP/stubs" >"$TMP/stubs.out" 2>&1
env "${KNOBS[@]}" tools/grading/recheck.sh "$U" >"$TMP/hostile.out" 2>&1
ex_score() { awk -v e="$2" '/^The grade/ { g = 1 } g && $1 == e { print $NF; exit }' "$1"; }
for r in lab2.pool lab1.tune_allocator lab1.new_frame lab6.give_memory_back; do
	a=$(ex_score "$TMP/hostile.out" $r) b=$(ex_score "$TMP/stubs.out" $r)
	grep -q "^  $r .* taken$" "$TMP/hostile.out" && [ -n "$a" ] && [ -n "$b" ] && [ "${a%/*}" -le "${b%/*}" ] &&
		pass "a hostile $r, taken and run, scores $a (its stub $b)" ||
		fail "a hostile $r" "$a against its stub's $b: $(grep -m 2 "$r" "$TMP/hostile.out")"
done
grep -q 'cannot create' "$TMP/hostile.out" && pass "the machine code ran sh: '$(grep -m 1 -o 'cannot create[^:]*' "$TMP/hostile.out")'" ||
	fail "the machine code ran" "no complaint of sh's in the output"
solution=$(awk '/BEGIN EXERCISE lab1.new_frame/ { p = 1; next } /END EXERCISE/ { p = 0 } p && length > 20' frames.c | head -n 1)
after=$(hashes)
[ "$after" = "$before" ] && ! grep -qF -- "$solution" "$TMP/hostile.out" &&
	pass "after the hostile re-run the grader's files hash the same, and no solution line is in its output" ||
	fail "the hostile re-run reached the grader" "$(diff <(echo "$before") <(echo "$after") | head -n 3)"

# Without root and without user namespaces the re-run refuses the code.
N=$TMP/nb
mkdir -p "$N" "$TMP/nbtmp" && tar -cf - --exclude=./.git . | tar -xf - -C "$N" &&
	chown -R $NB:$NB "$N" "$TMP/nbtmp" && chmod 755 "$TMP"
(cd "$N" && "${nb[@]}" env TMPDIR="$TMP/nbtmp" "$PWD/tests/bin/nons" tools/grading/recheck.sh "$U") >"$TMP/refuse.out" 2>&1; rc=$?
[ $rc = 2 ] && grep -q -- '--no-isolation-i-trust-this-code' "$TMP/refuse.out" && ! grep -q '^Score' "$TMP/refuse.out" &&
	pass "not root, no user namespace: the re-run refuses: '$(grep -m 1 -o 'no isolation here[^:]*' "$TMP/refuse.out")...'" ||
	fail "not root, no user namespace: the re-run" "exit $rc: $(tail -n 2 "$TMP/refuse.out")"
