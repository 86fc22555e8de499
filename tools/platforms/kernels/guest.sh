# tools/platforms/kernels/guest.sh - what each boot of make kernels runs: /init (write_init),
# then `tools/platforms/kernels.sh guest` (guest: the checks, make submit
# and its grade), which prints its results as ML| lines on the console.
# Sourced by tools/platforms/kernels.sh (its main, options and the
# variables they set: CACHE, FRAMES, JOBS, TIMEOUT ...); functions and
# their data only, nothing runs.

# The checks: label|environment (- for none)|frames arguments.  Lab 1's nine
# modes as make submit runs them, then Lab 4's rows around the 32 MiB cap.
CHECKS="L1 default-malloc|-|--alloc malloc
L1 default-calloc|-|--alloc calloc
L1 mmap-max-0|GLIBC_TUNABLES=glibc.malloc.mmap_max=0|--alloc malloc
L1 no-trim|GLIBC_TUNABLES=glibc.malloc.mmap_max=0:glibc.malloc.trim_threshold=4294967295|--alloc malloc
L1 tune-malloc|-|--tune --alloc malloc
L1 tune-calloc|-|--tune --alloc calloc
L1 tune-memset|-|--tune --alloc memset
L1 perturb=170|GLIBC_TUNABLES=glibc.malloc.perturb=170|--alloc malloc
L1 once|-|--alloc once
L4 30M memset|-|--alloc memset --size 30M
L4 32M memset|-|--alloc memset --size 32M
L4 34M memset|-|--alloc memset --size 34M"

# make submit's knobs in the guest: every graded run, at a size TCG
# finishes in about a minute.
# COUNT_LARGE=200: the smallest at which the grader checks Lab 3's ratio.
SUBMIT_KNOBS="FRAMES=2 SCALE=50 VARIANCE_ITERS=2000 COUNT_LARGE=200 BYTES=1M"

# guest: run in the booted kernel, in the kit's directory.  Every result is
# one "ML|..." line on stdout (the serial console) for the host to parse:
#   ML|kernel|RELEASE   ML|thp|SETTINGS   ML|probe|READ_FAULTS_PER_PAGE
#   ML|row|LABEL|MEASURED|PREDICTED|KIND  (or ML|row|LABEL|failed|REASON)
#   ML|submit|EXIT   ML|grade|SCORE|EXIT   ML|gradefail|LINE
#   ML|sub|LINE (the submission itself, for the host's log directory)
guest() {
	local t label envs args rf='' m p k rc
	t=$(mktemp -d) || die "mktemp failed"
	echo "ML|kernel|$(uname -r)"
	while IFS='|' read -r label envs args; do
		[ "$envs" = - ] && envs=
		# shellcheck disable=SC2086
		if ! env $envs ./frames --csv --frames "$FRAMES" $args >"$t/out" 2>"$t/err"; then
			echo "ML|row|$label|failed|$(head -n 1 "$t/err" | cut -c1-60)"
			continue
		fi
		m=$(tools/lib/csvget minor_faults "$t/out") && p=$(tools/lib/csvget predicted_faults "$t/out") &&
			k=$(tools/lib/csvget prediction "$t/out") || { echo "ML|row|$label|failed|CSV"; continue; }
		if [ -z "$rf" ]; then
			rf=$(tools/lib/csvget read_faults_per_page "$t/out")
			echo "ML|thp|$(tools/lib/csvget thp "$t/out")"
			echo "ML|probe|$rf"
		fi
		echo "ML|row|$label|$m|$p|$k"
	done <<<"$CHECKS"
	# submit takes [A-Za-z0-9@._-] in a name: trixie's release has a +.
	# The arm64 guest has no compiler: its programs are built already, so
	# it runs what make submit would, tools/submit.sh.
	local who
	who="kernels-$(uname -r | tr -c 'A-Za-z0-9@._\n-' _)-p$(getconf PAGESIZE)"
	if [ -n "${KERNELS_PREBUILT:-}" ]; then
		# shellcheck disable=SC2086
		env $SUBMIT_KNOBS STUDENT="$who" OUT="$t/sub.txt" tools/submit.sh >"$t/submit.out" 2>&1
	else
		# shellcheck disable=SC2086
		env $SUBMIT_KNOBS STUDENT="$who" OUT="$t/sub.txt" \
			make --no-print-directory -s submit >"$t/submit.out" 2>&1
	fi
	rc=$?
	echo "ML|submit|$rc"
	[ "$rc" = 0 ] || sed 's/^/ML|submiterr|/' "$t/submit.out" | tail -n 5
	[ -f "$t/sub.txt" ] || return 0
	tools/grade.sh "$t/sub.txt" >"$t/grade.out" 2>&1
	rc=$?
	echo "ML|grade|$(sed -n 's/^Score: //p' "$t/grade.out")|$rc"
	grep '^FAIL' "$t/grade.out" | tr -s ' ' | sed 's/^/ML|gradefail|/'
	sed 's/^/ML|sub|/' "$t/sub.txt"
}

# /init of every boot: make the root the checks run in, set THP, run
# `tools/platforms/kernels.sh guest` chrooted there, power off.  amd64: this
# machine's root (9p, read-only) under a tmpfs overlay; arm64: the
# initramfs itself, userland and kit.  /job (written per boot) sets ML_KIT,
# ML_THP, ML_FRAMES, ML_PROBE, ML_PREBUILT.
write_init() {
	cat <<'INIT'
#!/bin/busybox sh
mkdir -p /bb /proc /sys /dev
/bin/busybox --install -s /bb
export PATH=/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin:/bb
mount -t devtmpfs dev /dev
exec </dev/console >/dev/console 2>&1
mount -t proc proc /proc
mount -t sysfs sys /sys
. /job
fail() { echo "ML|boot-failed|$*"; poweroff -f; sleep 10; }
INIT
	if [ "$1" = amd64 ]; then
		cat <<'INIT'
for m in $(cat /modules.load); do insmod "/lib/modules/$m" || fail "insmod $m"; done
mkdir -p /lower /rw /newroot
mount -t 9p -o trans=virtio,version=9p2000.L,ro,msize=262144 host /lower || fail "mount -t 9p"
mount -t tmpfs -o mode=755 rw /rw && mkdir /rw/upper /rw/work || fail "tmpfs"
mount -t overlay -o lowerdir=/lower,upperdir=/rw/upper,workdir=/rw/work overlay /newroot ||
	fail "mount -t overlay"
r=/newroot
# No tmpfs over /tmp: the kit may itself live under /tmp (a CI clone), and
# the overlay already makes /tmp writable.
mount -t proc proc $r/proc && mount -t sysfs sys $r/sys && mount -t devtmpfs dev $r/dev ||
	fail "mounts in the new root"
INIT
	else
		echo 'r='
	fi
	cat <<'INIT'
mkdir -p $r/dev/pts $r/dev/shm && mount -t devpts pts $r/dev/pts && mount -t tmpfs shm $r/dev/shm
# What a distribution's udev would make: scripts read /dev/stdin.
ln -sf /proc/self/fd $r/dev/fd; ln -sf fd/0 $r/dev/stdin; ln -sf fd/1 $r/dev/stdout; ln -sf fd/2 $r/dev/stderr
echo "$ML_THP" >/sys/kernel/mm/transparent_hugepage/enabled || fail "THP $ML_THP"
echo "ML|begin"
rc=0
if [ "$ML_PROBE" != 1 ]; then
	chroot ${r:-/} /usr/bin/env -i PATH=/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin:/bb HOME=/root \
		LANG=C KERNELS_FRAMES="$ML_FRAMES" KERNELS_PREBUILT="$ML_PREBUILT" \
		/bin/sh -c 'cd "$1" && exec tools/platforms/kernels.sh guest' sh "$ML_KIT"
	rc=$?
fi
echo "ML|end|$rc"
poweroff -f
sleep 10
INIT
}
