#!/usr/bin/env bash
# tests/kernels.sh - tools/platforms/kernels.sh (make kernels) without booting
# anything: make test stays quick.  The boots themselves (minutes under TCG)
# run from .ci/run.  Checked here: usage errors, the reason given when qemu
# is missing, and the table built from recorded console logs
# (tests/fixtures/kernels/: the ML| lines of real boots, see its README),
# whose marks and exit status follow from the recorded counts; and, in
# the quick tier too, the arm64 guests' kit: every lab's program, predict.
. "$(dirname "$0")/lib.sh" || exit 1

# The arm64 guests run make submit and its grade on the kit image.sh
# stages: it must hold the registry's programs and the grader's predict,
# each from make build-arm64's directory (stand-ins here, and one file that
# is no lab's, which stays out), and stop, naming it, when one was not built.
mapfile -t want < <(lab_programs)
want+=(tools/grading/predict)
mkdir -p "$TMP/arm64/tools/grading"
for p in "${want[@]}" notalab; do echo "stand-in $p" >"$TMP/arm64/$p"; done
stage() { (. tools/platforms/kernels/image.sh && prog=kernels && kit_stage "$1" "$TMP/arm64") >/dev/null 2>"$TMP/stage.err"; }
if stage "$TMP/st"; then
	got=$(cd "$TMP/st/kit" && grep -l '^stand-in ' -- * tools/grading/* 2>/dev/null | sort | paste -sd' ')
	[ "$got" = "$(printf '%s\n' "${want[@]}" | sort | paste -sd' ')" ] &&
		pass "the arm64 guests' kit: the registry's $((${#want[@]} - 1)) programs and predict" ||
		fail "the arm64 guests' kit carries the registry's programs" "want '${want[*]}', got '$got'"
else
	fail "image.sh stages the arm64 guests' kit" "$(tail -n 2 "$TMP/stage.err")"
fi
last=${want[-2]}         # the registry's last program
rm "$TMP/arm64/$last"
if ! stage "$TMP/st2" && grep -q "no $TMP/arm64/$last (make build-arm64)" "$TMP/stage.err"; then
	pass "a program make build-arm64 did not build stops the image, named: $last"
else
	fail "a program not built stops the image, named" "$(tail -n 2 "$TMP/stage.err")"
fi

full_only "make kernels' table and report"

check_usage_error "kernels.sh with an unknown option: usage, exit 2" tools/platforms/kernels.sh --bogus
check_usage_error "kernels.sh with an unknown suite: usage, exit 2" tools/platforms/kernels.sh --suites sid
check_usage_error "kernels.sh with an unknown arm64 page size: usage, exit 2" tools/platforms/kernels.sh --suites arm64-8k
check_usage_error "kernels.sh with an unknown THP mode: usage, exit 2" tools/platforms/kernels.sh --thp sometimes
check_exit "kernels.sh --frames 0: exit 2" 2 tools/platforms/kernels.sh --frames 0

check_exit "kernels.sh --help: exit 0" 0 tools/platforms/kernels.sh --help
# No qemu by that name: nothing can run here, exit 3 with the package to
# install (CI reads 3 as "skipped", not "failed").
# Nothing is fetched then (a test never downloads).
l9k_noqemu() { # LABEL PACKAGE ARGS...: exit 3 naming PACKAGE, nothing fetched
	local label=$1 pkg=$2
	shift 2
	MALLOC_LABS_CACHE=$TMP/l9k-cache "$@" >"$TMP/l9k.out" 2>"$TMP/l9k.err"
	rc=$?
	if [ "$rc" = 3 ] && grep -q "apt-get install $pkg" "$TMP/l9k.err" && [ ! -e "$TMP/l9k-cache" ]; then
		pass "$label"
	else
		fail "$label" "exit $rc: $(head -c 300 "$TMP/l9k.err")"
	fi
}
l9k_noqemu "kernels.sh without qemu: says so, exit 3" qemu-system-x86 \
	env QEMU="$TMP/no-such-qemu" tools/platforms/kernels.sh --suites "bookworm trixie"
l9k_noqemu "kernels.sh arm64 without qemu-system-aarch64: says so, exit 3" qemu-system-arm \
	env QEMU_ARM="$TMP/no-such-qemu" tools/platforms/kernels.sh --suites "arm64-4k arm64-16k"
# kernels.sh and the parts it sources by role (tools/platforms/kernels/),
# and the table drawing it shares with matrix.sh, each parse.
for f in tools/platforms/kernels.sh tools/platforms/kernels/*.sh tools/platforms/table.sh \
	 tools/platforms/matrix.sh; do
	check_exit "bash -n $f" 0 bash -n "$f"
done
# tools/platforms/table.sh: the lead fields by TABLE_LEAD, then each cell's
# words by TABLE_CELL, and a line's cells gone from the next.
got=$(. tools/platforms/table.sh && TABLE_LEAD='%-4s%3s' TABLE_CELL='%4s%-2s' &&
	table_cell 12 '*' && table_cell x '' && table_line L1 7 && table_line L2 -)
want=$(printf '%s\n' 'L1    7  12*    x  ' 'L2    -')
if [ "$got" = "$want" ]; then pass "table.sh: a line, its lead and its cells, then the next"
else fail "table.sh: a line, its lead and its cells, then the next" "got: $(printf '%s' "$got" | tr '\n' '|')"; fi

# make kernels boots with TCG wherever KVM does not work.
if ! command -v qemu-system-x86_64 >/dev/null 2>&1; then
	skip "make kernels can boot here" "qemu-system-x86_64 is not installed (apt-get install qemu-system-x86)"
elif qemu-system-x86_64 -accel help 2>/dev/null | grep -qx tcg; then
	pass "make kernels can boot here: qemu-system-x86_64 has TCG"
else
	fail "make kernels can boot here" "qemu-system-x86_64 -accel help lists no tcg"
fi

# The table from recorded logs: one boot per THP mode of bookworm's 6.1.
# Recorded with the model of 682cf71: tuned calloc 35 faults under its
# prediction, mmap_max=0 11 under (4 frames), both "exact": marked and exit 1.
L9K=tests/fixtures/kernels
tools/platforms/kernels.sh report "$L9K" --suites bookworm >"$TMP/l9k.table" 2>"$TMP/l9k.err"
rc=$?
cmp_num "kernels.sh report: exit 1 (exact predictions missed)" "$rc" -eq 1
marked=$(awk '/^L[14] / && /\*/ { printf "%s %s;", $1, $2 }' "$TMP/l9k.table")
if [ "$marked" = "L1 mmap-max-0;L1 tune-calloc;" ]; then
	pass "kernels.sh report: * on mmap-max-0 and tune-calloc only"
else
	fail "kernels.sh report: * on mmap-max-0 and tune-calloc only" "marked: '$marked'"
fi
n=$(awk '/^L1 default-malloc/ { print gsub(/~/, "") }' "$TMP/l9k.table")
cmp_num "kernels.sh report: THP always's prediction is a bound (~)" "$n" -eq 1
w=$(awk '{ if (length > m) m = length } END { print m + 0 }' "$TMP/l9k.table")
cmp_num "kernels.sh report: fits 100 columns" "$w" -le 100
if grep -qE '[0-9]+\.[0-9]+ ?s\b|seconds' "$TMP/l9k.table"; then
	fail "kernels.sh report: prints no times" "$(grep -E 's\b' "$TMP/l9k.table" | head -n 1)"
else
	pass "kernels.sh report: prints no times"
fi
