#!/usr/bin/env bash
# tools/platforms/kernels.sh - `make kernels`: the kit's fault counts under Debian's
# stock kernels, booted here under qemu, with THP never, madvise and always,
# on x86-64 and on arm64 with 4, 16 and 64 KiB pages.
#
#   tools/platforms/kernels.sh [--suites LIST] [--thp "never madvise always"]
#                    [--frames N] [--jobs N] [--timeout SECONDS] [--accel A]
#   tools/platforms/kernels.sh fetch [--suites ...]   only fetch the kernels and build
#                                           their initramfs (cached)
#   tools/platforms/kernels.sh build-64k              build the 64 KiB arm64 kernel
#                                           (make kernel-64k; cached)
#   tools/platforms/kernels.sh report DIR [...]       the table again from the console
#                                           logs in DIR (no boot)
#   tools/platforms/kernels.sh guest                  what each boot runs (inside it)
#
# Why: the counts a student sees depend on the kernel (zero page on a read
# or not, the page size) and on THP, and a test cannot switch any of them on
# the machine it runs on.  A kernel booted under qemu can.
#
# The kernels (--suites): bookworm and trixie, Debian's amd64 6.1 and 6.12;
# arm64-4k and arm64-16k, trixie's stock arm64 6.12 with 4 KiB pages and
# its arm64-16k flavour (the page size of Raspberry Pi 5's default kernel
# and of Asahi Linux); arm64-64k, a 6.12 with 64 KiB pages (RHEL's
# kernel-64k, Ampere servers) that no Debian suite ships: build-64k makes
# it from trixie's linux-source-6.12, tinyconfig and
# tools/platforms/kernel-64k.config (tens of minutes on 2 CPUs).  The
# default is every one this machine can boot: the arm64 ones need
# qemu-system-aarch64, the arm64 cross compiler and cpio, the 64K one its
# cached build; each one left out is named on stderr.
#
# amd64: the guest sees this machine's root read-only (9p), with a tmpfs
# overlay on top so the kit's tree, at the same path, is writable there.
# arm64 cannot run this machine's programs: its guest is an initramfs of
# bookworm's arm64 packages (glibc 2.36, as here: bash, coreutils, mawk,
# sed, grep, make, strace, findutils, busybox), the kit's tracked files and
# its programs cross-built by make build-arm64, with two stand-ins for what
# tools/submit.sh asks of tools the guest lacks: `cc --version` answers what
# the host's aarch64-linux-gnu-gcc said, `git describe` and `git status` what
# the host's checkout said.  THP is the guest's own to set either way.
#
# Each boot (one kernel, one THP mode) runs the Lab 1 steps (the nine modes
# of make submit) and the Lab 4 rows at --frames N (default 4), reading the
# measured minor faults and the program's own prediction by column name,
# plus the zero-page probe; then a short `make submit` (tools/submit.sh on
# arm64) and tools/grade.sh on it.  The tables: a row a check, a column a
# kernel and THP mode, one table per architecture and page size (their
# predictions differ).  Times are not in them: under TCG the guest's clock
# measures the emulator; each boot's wall time goes to stderr.
#
# What is fetched: bookworm's newest linux-image-6.1.0-N-amd64 (not -cloud-:
# it has no 9p), trixie's linux-image-6.12.N+deb13-amd64, and each suite's
# busybox-static; trixie's linux-image-6.12.N+deb13-arm64 and -arm64-16k;
# bookworm's arm64 packages above, all with a private apt state
# (tools/platforms/debian.sh: this system's mirror, nothing installed).  The
# amd64 initramfs is busybox plus the modules virtio_pci, 9pnet_virtio, 9p
# and overlay need that the kernel has not built in (modules.builtin,
# modules.dep).  Cache, outside the tree:
#   ${MALLOC_LABS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/malloc-labs}/kernels/SUITE
# with the last boots' console logs in .../kernels/logs.
#
# qemu: qemu-system-x86_64 with KVM where /dev/kvm opens and a KVM guest
# starts, else TCG (-cpu max); qemu-system-aarch64 -M virt -cpu max under
# TCG; 2 GiB, 2 CPUs; as many boots at a time as this machine has CPUs
# (--jobs).  Counts are the guest kernel's own either way.  Wall time on a
# 2-CPU machine under TCG: results/kernels.txt says, boot by boot.
#
# Exit status: 0 every boot ran and every check held; 1 a boot failed, an
# "exact" prediction was off by more than the grader's fault tolerance
# (tools/grading/steps.awk), or a grade exited other
# than 0 (3 under THP always: ENV checks); 2 usage error; 3 nothing could
# run here, or a kernel asked for could not be had (no qemu, not x86-64
# Debian, a kernel could not be fetched): the reason is on stderr.
set -u -o pipefail
cd "$(dirname "$0")/../.." || exit 1
prog=kernels.sh
. tools/lib/lib.sh || exit 1
. tools/platforms/debian.sh || exit 1
CACHE=${MALLOC_LABS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/malloc-labs}/kernels

usage() {
	cat <<'EOF'
usage: tools/platforms/kernels.sh [fetch|build-64k] [--suites LIST] [--thp LIST] [--frames N]
                        [--jobs N] [--timeout S] [--accel auto|kvm|tcg]
Boots Debian's stock kernels under qemu and runs the kit's fault-count checks
and a short make submit + grade under each THP mode; a table per page size.
  --suites LIST   kernels: bookworm trixie (amd64), arm64-4k arm64-16k
                  arm64-64k (default: every one this machine can boot)
  --thp LIST      THP modes set in the guest (default "never madvise always")
  --frames N      frames per Lab 1 / Lab 4 check (default 4)
  --jobs N        boots at a time (default: the CPUs online here)
  --timeout S     seconds one boot may take (default 900)
  --accel A       amd64: kvm, tcg, or auto (KVM if a probe boot works)
  fetch           only fetch the kernels and build the initramfs (cached)
  build-64k       build the arm64 64 KiB kernel from Debian's source (cached)
  report DIR      the tables from the console logs a run left in DIR (no boot)
  guest           the checks one boot runs (run inside the guest)
Cache: $MALLOC_LABS_CACHE, else ${XDG_CACHE_HOME:-~/.cache}/malloc-labs.
Exit: 0 all held, 1 a check or boot failed, 2 usage, 3 could not run here.
EOF
}

# cannot REASON: nothing could be measured here: exit 3 (not a failed check).
cannot() {
	echo "$prog: cannot run: $*" >&2
	exit 3
}

# is_arm SUITE: an arm64 column (its own guest, not this machine's root).
is_arm() { [[ $1 == arm64-* ]]; }

# The roles, one file each (tools/platforms/kernels/): fetch (packages),
# image (initramfs, the 64K kernel), guest (its /init and checks), boot
# (qemu), report (the tables, drawn by tools/platforms/table.sh).
for f in fetch image guest boot report; do
	. "tools/platforms/kernels/$f.sh" || exit 1
done
. tools/platforms/table.sh || exit 1

# ----------------------------------------------------------------- main
SUITES= MODES="never madvise always" FRAMES=4 TIMEOUT=900 ACCEL_WANT=auto
JOBS=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)
cmd=run
case ${1:-} in
fetch | guest | build-64k) cmd=$1; shift ;;
report)
	[ $# -ge 2 ] || bad_usage "report needs a directory of console logs"
	cmd=report LOGS=$2
	shift 2 ;;
esac
while [ $# -gt 0 ]; do
	case $1 in
	-h | --help) usage; exit 0 ;;
	--suites | --thp | --frames | --timeout | --accel | --jobs)
		[ $# -ge 2 ] || bad_usage "$1 needs a value"
		case $1 in
		--suites) SUITES=$2; [ -n "$2" ] || bad_usage "--suites names no kernel" ;;
		--thp) MODES=$2 ;;
		--frames) need_count --frames "$2" 100000 && FRAMES=$2 ;;
		--timeout) need_count --timeout "$2" 86400 && TIMEOUT=$2 ;;
		--accel) ACCEL_WANT=$2 ;;
		--jobs) need_count --jobs "$2" 64 && JOBS=$2 ;;
		esac
		shift 2 ;;
	*) bad_usage "unknown argument '$1'" ;;
	esac
done
for s in $SUITES; do
	image_pattern "$s" >/dev/null || bad_usage "unknown kernel '$s' (bookworm trixie arm64-4k arm64-16k arm64-64k)"
done
for m in $MODES; do case $m in never | madvise | always) ;; *) bad_usage "unknown THP mode '$m'" ;; esac; done
case $ACCEL_WANT in auto | kvm | tcg) ;; *) bad_usage "--accel wants auto, kvm or tcg, not '$ACCEL_WANT'" ;; esac
[ -n "$MODES" ] || bad_usage "no THP mode"

if [ "$cmd" = guest ]; then
	FRAMES=${KERNELS_FRAMES:-$FRAMES}
	guest
	exit 0
fi
if [ "$cmd" = build-64k ]; then
	mkdir -p "$CACHE" || die "cannot write $CACHE"
	build_64k
	exit
fi
QEMU_ARM=${QEMU_ARM:-qemu-system-aarch64}

# The default: every kernel this machine can boot, each one left out named.
if [ -z "$SUITES" ] && [ "$cmd" = report ]; then
	SUITES=$(cat "$LOGS/suites" 2>/dev/null || echo "bookworm trixie")
elif [ -z "$SUITES" ]; then
	SUITES="bookworm trixie"
	why=$(arm_missing)
	if [ -n "$why" ]; then
		echo "$prog: no arm64 columns: $why" >&2
	else
		SUITES="$SUITES arm64-4k arm64-16k"
		if [ -f "$CACHE/arm64-64k/ready/.complete" ]; then SUITES="$SUITES arm64-64k"
		else echo "$prog: no arm64-64k column: its kernel is not built (make kernel-64k)" >&2; fi
	fi
fi

COLS=()
for s in $SUITES; do for m in $MODES; do COLS+=("$s $m"); done; done
if [ "$cmd" = report ]; then
	[ -d "$LOGS" ] || die "no directory $LOGS"
	ACCEL=$(cat "$LOGS/accel" 2>/dev/null || echo "(unknown)")
	read_logs
	show_table
	[ "$FAILED" = 0 ]
	exit
fi

# Before anything is fetched: can this machine boot them at all?  An arm64
# column this machine cannot boot is left out with its reason, as a kernel
# that cannot be fetched is (exit 3 at the end).
[ "$(uname -m)" = x86_64 ] || cannot "the kernels run under this machine's x86-64 qemu; this machine is $(uname -m)"
QEMU=${QEMU:-qemu-system-x86_64}
declare -A FETCHED
missing=0 have=
for s in $SUITES; do
	if is_arm "$s"; then
		why=$(arm_missing)
	else
		why=
		command -v "$QEMU" >/dev/null 2>&1 || why="qemu-system-x86_64 is not installed (apt-get install qemu-system-x86)"
	fi
	if [ -n "$why" ]; then
		echo "$prog: $s: $why" >&2
		missing=1
		for m in $MODES; do COLWHY[$s $m]="no qemu"; done
	else
		have="$have $s"
	fi
done
[ -n "$have" ] || cannot "no kernel asked for can boot here (above)"

mkdir -p "$CACHE" || die "cannot write $CACHE"
for s in $have; do
	(fetch "$s")
	rc=$?
	if [ "$rc" = 0 ]; then
		FETCHED[$s]=1
		REL[$s]=$(cat "$CACHE/$s/ready/release")
	elif [ "$rc" = 3 ]; then
		echo "$prog: $s: could not fetch its kernel (above)" >&2
		missing=1
	else
		echo "$prog: $s: fetched, but could not build its initramfs (above)" >&2
		FAILED=1
	fi
done
if [ "$cmd" = fetch ]; then
	[ "$FAILED" = 0 ] || exit 1
	exit $((missing * 3))
fi
for p in $(lab_programs); do             # tools/labs/registry
	[ -x "./$p" ] || die "./$p is not built; run make (make kernels builds them)"
done
[ ${#FETCHED[@]} -gt 0 ] || { [ "$FAILED" = 0 ] && cannot "no kernel could be fetched (see above)"; exit 1; }

LOGS=$CACHE/logs
mkdir -p "$LOGS" || die "cannot write $LOGS"
rm -f "$LOGS"/*.console "$LOGS"/*.why "$LOGS"/*.submission.txt "$LOGS"/*.secs
echo "$SUITES" >"$LOGS/suites"
for s in $SUITES; do [ -n "${FETCHED[$s]:-}" ] && ! is_arm "$s" && { pick_accel "$s"; break; }; done
# The arm64 guests' kit: the labs cross-built (the compiler lines on stderr).
for s in $SUITES; do
	[ -n "${FETCHED[$s]:-}" ] && is_arm "$s" || continue
	make --no-print-directory build-arm64 >&2 || die "make build-arm64 failed: the arm64 columns need it"
	kit_archive "$LOGS/kit.cpio"
	break
done

# The boots, JOBS at a time (each qemu is mostly one busy host thread
# under TCG); each leaves its console log and, when it failed, a .why file.
echo "$ACCEL" >"$LOGS/accel"
for s in $SUITES; do
	for m in $MODES; do
		[ -n "${FETCHED[$s]:-}" ] || { COLWHY[$s $m]="no kernel"; continue; }
		while [ "$(jobs -rp | wc -l)" -ge "$JOBS" ]; do wait -n; done
		(
			t0=$SECONDS
			rm -f "$LOGS/$s-$m.why"      # (an earlier run's, which the table would read as this one's)
			boot "$s" "$m" "$ACCEL" 0 "$LOGS/$s-$m.console" || echo "$WHY" >"$LOGS/$s-$m.why"
			# Wall time, for planning (CI's budget): stderr, never the table.
			[ -t 2 ] && printf '\r\033[K' >&2
			echo "$prog: $s, THP $m: $((SECONDS - t0)) s" >&2
		) &
	done
done
started=$SECONDS
while [ "$(jobs -rp | wc -l)" -gt 0 ]; do
	[ -t 2 ] && printf '\r\033[K%s: %d of %d boots done (%d s)' "$prog" \
		"$(( ${#COLS[@]} - $(jobs -rp | wc -l) ))" "${#COLS[@]}" $((SECONDS - started)) >&2
	sleep 2
done
wait
[ -t 2 ] && printf '\r\033[K' >&2
read_logs
# Each boot's submission, as make submit wrote it in the guest.
for col in "${COLS[@]}"; do
	log=$LOGS/${col/ /-}.console
	[ -f "$log" ] && tr -d '\r' <"$log" | sed -n 's/^ML|sub|//p' >"${log%.console}.submission.txt"
done
show_table
[ "$FAILED" = 0 ] || exit 1
[ "$missing" = 0 ] || cannot "a kernel could not be fetched (see above)"
exit 0
