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
# "exact" prediction was off by more than 2 faults, or a grade exited other
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

# ------------------------------------------------------------- fetching
# is_arm SUITE: an arm64 column (its own guest, not this machine's root).
is_arm() { [[ $1 == arm64-* ]]; }

# The image package's name: the newest in the suite's index that matches.
image_pattern() {
	case $1 in
	bookworm) echo '^linux-image-6\.1\.0-[0-9]+-amd64$' ;;
	trixie) echo '^linux-image-6\.12\.[0-9]+\+deb13-amd64$' ;;
	arm64-4k) echo '^linux-image-6\.12\.[0-9]+\+deb13-arm64$' ;;
	arm64-16k) echo '^linux-image-6\.12\.[0-9]+\+deb13-arm64-16k$' ;;
	arm64-64k) echo 'built by build-64k' ;;
	*) return 1 ;;
	esac
}

# The modules the guest needs: a virtio PCI transport, 9p over it, and
# overlayfs.  The package ships no modules.dep (depmod writes it on
# install), so each module's own "depends=" (its .modinfo) gives the rest.
ROOT_MODULES="virtio_pci 9pnet_virtio 9p overlay"
declare -A MODPATH BUILTIN SEEN

# add_module NAME OUTDIR: NAME's dependencies, then NAME, unpacked into
# OUTDIR and named in OUTDIR/modules.load (the order /init loads them);
# nothing for a module the kernel has built in (modules.builtin).
add_module() {
	local n=$1 out=$2 d
	[ -n "${SEEN[$n]:-}" ] && return 0
	SEEN[$n]=1
	[ -n "${BUILTIN[$n]:-}" ] && return 0
	[ -n "${MODPATH[$n]:-}" ] || die "the kernel has no module $n, built in or not"
	unpack_module "${MODPATH[$n]}" "$out/lib/modules/$n.ko" || die "could not unpack ${MODPATH[$n]}"
	for d in $(tr '\0' '\n' <"$out/lib/modules/$n.ko" | sed -n 's/^depends=//p' | tr ',' ' '); do
		add_module "${d//-/_}" "$out"
	done
	echo "$n.ko" >>"$out/modules.load"
}

# modname PATH: REPLY = the module's name as the kernel spells it (- as _).
modname() {
	REPLY=${1##*/}
	REPLY=${REPLY%%.ko*}
	REPLY=${REPLY//-/_}
}

# unpack_module FILE OUT: a module as busybox's insmod takes it (plain ELF).
unpack_module() {
	case $1 in
	*.ko) cp "$1" "$2" ;;
	*.ko.xz) "$BUSYBOX" unxz -c "$1" >"$2" ;;
	*.ko.gz) gzip -dc "$1" >"$2" ;;
	*.ko.zst) command -v zstd >/dev/null 2>&1 || die "$1 is zstd-compressed: install zstd"
		zstd -qdc "$1" >"$2" ;;
	*) die "unknown module format: $1" ;;
	esac
}

# fetch SUITE: the kernel, its release and the base initramfs (busybox and
# the modules, no /init: that comes with each boot) in $CACHE/SUITE.  Run
# in a subshell: it exits 3 when the packages cannot be had, 1 when they
# were had and something else failed.
fetch() {
	local suite=$1 dir=$CACHE/$1 pat pkg tmp x moddir rel m
	[ -f "$dir/ready/.complete" ] && { is_arm "$suite" && fetch_arm_root; return 0; }
	if is_arm "$suite"; then
		[ "$suite" = arm64-64k ] && { echo "$prog: arm64-64k: not built yet: make kernel-64k" >&2; exit 3; }
		fetch_arm_root
		fetch_arm "$suite"
		return
	fi
	pat=$(image_pattern "$suite") || die "no kernel known for suite '$suite'"
	# Exit 3 when the network part fails (offline, no mirror), 1 after it.
	(apt_setup "$suite" "$dir") || exit 3
	pkg=$(pcache "$dir" pkgnames linux-image- | grep -E "$pat" | sort -V | tail -n 1)
	[ -n "$pkg" ] || { echo "$prog: no package matching $pat in $suite's index" >&2; exit 3; }
	echo "$prog: $suite: fetching $pkg and busybox-static" >&2
	rm -rf "$dir/debs"
	(download "$dir" "$pkg" busybox-static) || exit 3
	tmp=$dir/ready.part
	x=$dir/unpacked
	rm -rf "$tmp" "$x" "$dir/ready"
	mkdir -p "$tmp/initrd/bin" "$tmp/initrd/lib/modules" "$x"
	for m in "$dir"/debs/*.deb; do
		dpkg-deb -x "$m" "$x" || die "dpkg-deb could not unpack $m"
	done
	# bin/ (bookworm) or usr/bin/ (trixie)
	m=$(find "$x" -path '*bin/busybox' | head -n 1)
	[ -n "$m" ] && cp "$m" "$tmp/initrd/bin/busybox" || die "no busybox in $suite's busybox-static"
	BUSYBOX=$tmp/initrd/bin/busybox
	cp "$x"/boot/vmlinuz-* "$tmp/vmlinuz" || die "no boot/vmlinuz-* in $pkg"
	moddir=$(dirname "$(find "$x" -name modules.builtin | head -n 1)")
	rel=$(basename "$moddir")
	[ -f "$moddir/modules.builtin" ] || die "no modules.builtin in $pkg"
	while read -r m; do modname "$m"; BUILTIN[$REPLY]=1; done <"$moddir/modules.builtin"
	while read -r m; do modname "$m"; MODPATH[$REPLY]=$m; done < <(find "$moddir" -name '*.ko*')
	: >"$tmp/initrd/modules.load"
	for m in $ROOT_MODULES; do add_module "$m" "$tmp/initrd"; done
	echo "$rel" >"$tmp/release"
	echo "$pkg" >"$tmp/package"
	# A newc archive, gzip: the kernel unpacks it into its rootfs.
	(cd "$tmp/initrd" && find . | "$BUSYBOX" cpio -o -H newc 2>/dev/null | gzip -9) >"$tmp/base.cpio.gz" ||
		die "could not write the initramfs"
	# Kept: the kernel, the archive, busybox (its cpio writes each boot's
	# /init).  The packages and the apt lists are not needed again.
	mv "$tmp/initrd/bin/busybox" "$tmp/initrd/modules.load" "$tmp/" || die "cannot write $tmp"
	rm -rf "$tmp/initrd" "$x" "$dir/debs" "$dir/apt"
	touch "$tmp/.complete"
	mv "$tmp" "$dir/ready" || die "cannot write $dir"
	echo "$prog: $suite: $rel; modules loaded at boot: $(tr "\n" " " <"$dir/ready/modules.load")" >&2
}

# ------------------------------------------------------- fetching: arm64
# The guest's userland: bookworm's arm64 packages (glibc 2.36, as the
# programs were built against), unpacked; what the kit's scripts run.
ARM_PACKAGES="libc6 libc-bin bash libtinfo6 coreutils libacl1 libattr1 libgmp10 libselinux1
	libpcre2-8-0 mawk sed grep make strace findutils busybox-static"

# fetch_arm_root: $CACHE/arm64-root/ready/base.cpio.gz, that userland as a
# gzipped newc archive (plus what dpkg's maintainer scripts would have made:
# /bin/sh and awk).  Exits 3 when the packages cannot be had.
fetch_arm_root() {
	local dir=$CACHE/arm64-root tmp d
	[ -f "$dir/ready/.complete" ] && return 0
	(apt_setup bookworm "$dir" arm64) || exit 3
	echo "$prog: arm64 userland: fetching $(echo $ARM_PACKAGES)" >&2
	rm -rf "$dir/debs"
	# shellcheck disable=SC2086
	(download "$dir" $ARM_PACKAGES) || exit 3
	tmp=$dir/ready.part
	rm -rf "$tmp" "$dir/ready"
	mkdir -p "$tmp/root" || die "cannot write $tmp"
	for d in "$dir"/debs/*.deb; do
		dpkg-deb -x "$d" "$tmp/root" || die "dpkg-deb could not unpack $d"
	done
	rm -rf "$tmp"/root/usr/share/{doc,man,info,locale,lintian,bug,bash-completion} \
		"$tmp"/root/usr/lib/aarch64-linux-gnu/gconv
	ln -sf bash "$tmp/root/bin/sh" && ln -sf mawk "$tmp/root/usr/bin/awk" &&
		mkdir -p "$tmp"/root/{proc,sys,dev,tmp,root,bb,usr/local/bin} || die "cannot write $tmp/root"
	[ -x "$tmp/root/bin/busybox" ] || die "no bin/busybox in bookworm's arm64 busybox-static"
	(cd "$tmp/root" && find . | cpio -o -H newc --quiet | gzip -6) >"$tmp/base.cpio.gz" ||
		die "could not write the arm64 userland's archive"
	rm -rf "$tmp/root" "$dir/debs" "$dir/apt"
	touch "$tmp/.complete"
	mv "$tmp" "$dir/ready" || die "cannot write $dir"
}

# fetch_arm SUITE: arm64-4k or arm64-16k, trixie's stock image: its kernel
# is in boot/ of the package (the guest needs no module: everything it
# uses is built in).  Exits 3 when the package cannot be had.
fetch_arm() {
	local suite=$1 dir=$CACHE/$1 pat pkg tmp
	[ -f "$dir/ready/.complete" ] && return 0
	pat=$(image_pattern "$suite")
	(apt_setup trixie "$dir" arm64) || exit 3
	pkg=$(pcache "$dir" pkgnames linux-image- | grep -E "$pat" | sort -V | tail -n 1)
	[ -n "$pkg" ] || { echo "$prog: no package matching $pat in trixie's arm64 index" >&2; exit 3; }
	echo "$prog: $suite: fetching $pkg" >&2
	rm -rf "$dir/debs"
	(download "$dir" "$pkg") || exit 3
	tmp=$dir/ready.part
	rm -rf "$tmp" "$dir/ready"
	mkdir -p "$tmp/x" || die "cannot write $tmp"
	dpkg-deb --fsys-tarfile "$dir"/debs/"${pkg}"_*.deb | tar -x -C "$tmp/x" ./boot ||
		die "could not unpack boot/ of $pkg"
	cp "$tmp"/x/boot/vmlinuz-* "$tmp/vmlinuz" || die "no boot/vmlinuz-* in $pkg"
	basename "$tmp"/x/boot/vmlinuz-* | sed 's/^vmlinuz-//' >"$tmp/release"
	echo "$pkg (trixie, arm64)" >"$tmp/package"
	rm -rf "$tmp/x" "$dir/debs" "$dir/apt"
	touch "$tmp/.complete"
	mv "$tmp" "$dir/ready" || die "cannot write $dir"
}

# build_64k: $CACHE/arm64-64k/ready/vmlinuz, an arm64 kernel with 64 KiB
# pages: trixie's newest linux-source-6.12, make tinyconfig, then
# tools/platforms/kernel-64k.config merged in (merge_config.sh) and make
# Image.  Every line of the fragment must survive into the final .config
# (a symbol the source lacks would otherwise vanish in silence).  The
# source tree (1.5 GB) is removed afterwards; the image is about 5 MB.
build_64k() {
	local dir=$CACHE/arm64-64k pkg tmp src line t0=$SECONDS
	local mk=(make -s ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu- -j"$JOBS")
	[ -f "$dir/ready/.complete" ] && { echo "$prog: arm64-64k: built already ($dir/ready)" >&2; return 0; }
	for t in aarch64-linux-gnu-gcc:gcc-aarch64-linux-gnu flex:flex bison:bison bc:bc xz:xz-utils; do
		command -v "${t%%:*}" >/dev/null 2>&1 || cannot "building the 64K kernel needs ${t%%:*} (apt-get install ${t#*:})"
	done
	(apt_setup trixie "$dir" arm64) || exit 3
	pkg=$(pcache "$dir" pkgnames linux-source- | grep -E '^linux-source-6\.12$' | head -n 1)
	[ -n "$pkg" ] || cannot "no linux-source-6.12 in trixie's index"
	echo "$prog: arm64-64k: fetching $pkg (about 150 MB)" >&2
	rm -rf "$dir/debs"
	(download "$dir" "$pkg") || exit 3
	tmp=$dir/build
	rm -rf "$tmp" "$dir/ready"
	mkdir -p "$tmp/src" "$tmp/out" "$dir/ready.part" || die "cannot write $dir"
	echo "$prog: arm64-64k: unpacking the source" >&2
	dpkg-deb --fsys-tarfile "$dir"/debs/"${pkg}"_*.deb | tar -x -O "./usr/src/$pkg.tar.xz" |
		xz -dc | tar -x -C "$tmp/src" || die "could not unpack $pkg"
	src=$tmp/src/$pkg
	"${mk[@]}" -C "$src" O="$tmp/out" tinyconfig >/dev/null || die "make tinyconfig failed"
	"$src/scripts/kconfig/merge_config.sh" -m -O "$tmp/out" "$tmp/out/.config" \
		tools/platforms/kernel-64k.config >"$tmp/merge.log" 2>&1 || die "merge_config.sh failed: $(tail -n 2 "$tmp/merge.log")"
	"${mk[@]}" -C "$src" O="$tmp/out" olddefconfig >/dev/null || die "make olddefconfig failed"
	while read -r line; do
		case $line in CONFIG_*) grep -qxF "$line" "$tmp/out/.config" ||
			die "the kernel's .config lost '$line' (tools/platforms/kernel-64k.config)" ;; esac
	done <tools/platforms/kernel-64k.config
	echo "$prog: arm64-64k: make Image (minutes)" >&2
	"${mk[@]}" -C "$src" O="$tmp/out" Image >"$tmp/make.log" 2>&1 ||
		die "make Image failed: $(tail -n 3 "$tmp/make.log")"
	cp "$tmp/out/arch/arm64/boot/Image" "$dir/ready.part/vmlinuz" &&
		cp "$tmp/out/.config" "$dir/ready.part/config" || die "cannot write $dir"
	"${mk[@]}" -C "$src" O="$tmp/out" kernelrelease >"$dir/ready.part/release" || die "no kernel release"
	echo "$(dpkg-deb -f "$dir"/debs/"${pkg}"_*.deb Package Version | awk '{ print $2 }' | paste -sd' ') +" \
		"kernel-64k.config" >"$dir/ready.part/package"
	rm -rf "$tmp" "$dir/debs" "$dir/apt" && touch "$dir/ready.part/.complete" &&
		mv "$dir/ready.part" "$dir/ready" || die "cannot write $dir"
	echo "$prog: arm64-64k: $(cat "$dir/ready/release") built in $((SECONDS - t0)) s" >&2
}

# ------------------------------------------------------------ the guest
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

# ------------------------------------------------------------- booting
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

# The arm64 guest's stand-ins, installed as /usr/local/bin/cc and git: what
# tools/submit.sh asks them, answered with what the host's cross compiler
# and checkout said (in /ml, written by kit_archive).
STANDIN_CC='#!/bin/sh
# cc in the arm64 guest of make kernels: the labs were cross-built on the
# host; --version answers what that compiler said.  Nothing is compiled here.
[ "$1" = --version ] && exec cat /ml/cc-version
echo "cc: no compiler in this guest (the labs were cross-built on the host)" >&2
exit 1'
STANDIN_GIT='#!/bin/sh
# git in the arm64 guest of make kernels: the kit is a copy of the host
# checkout at /kit; describe and status answer what the host said of it,
# rev-parse --show-toplevel where it is (tools/lib/kitversion asks).  No
# --git-dir: there is no history here for the grader to look a revision up.
case $1 in
describe) exec cat /ml/kit-describe ;;
status) exec cat /ml/kit-status ;;
rev-parse) [ "$2" = --show-toplevel ] && echo /kit && exit 0 ;;
esac
echo "git: not in this guest" >&2
exit 1'

# kit_archive OUT: the kit for the arm64 guests as a newc archive: its
# files (git's list, tracked and untracked, ignored ones left out) at /kit,
# the programs cross-built by make build-arm64 in their places, and the
# stand-ins with their answers.
kit_archive() {
	local st p
	st=$(mktemp -d) || die "mktemp failed"
	mkdir -p "$st/kit" "$st/ml" "$st/usr/local/bin"
	git ls-files -z -co --exclude-standard | grep -zv '^\.run/' |
		(cpio -p0dm --quiet "$st/kit") || die "could not copy the kit's files (needs git)"
	for p in frames malloc_variance threads yes arenas; do
		cp "build/arm64/$p" "$st/kit/$p" || die "no build/arm64/$p (make build-arm64)"
	done
	aarch64-linux-gnu-gcc --version | head -n 1 >"$st/ml/cc-version"
	git describe --always --dirty >"$st/ml/kit-describe" 2>/dev/null || : >"$st/ml/kit-describe"
	git status --porcelain -- '*.c' 'tools/*.h' >"$st/ml/kit-status" 2>/dev/null
	printf '%s\n' "$STANDIN_CC" >"$st/usr/local/bin/cc" && printf '%s\n' "$STANDIN_GIT" >"$st/usr/local/bin/git" &&
		chmod 755 "$st/usr/local/bin/cc" "$st/usr/local/bin/git" || die "cannot write $st"
	(cd "$st" && find . ! -name . | cpio -o -H newc --quiet) >"$1" || die "could not write $1"
	rm -rf "$st"
}

# boot SUITE MODE ACCEL PROBE LOG: one boot; the console in LOG.  0 when
# the guest reached its end marker; else 1 and the reason in WHY.
boot() {
	local suite=$1 mode=$2 accel=$3 probe=$4 log=$5 r=$CACHE/$1/ready job cpu=max limit=$TIMEOUT rc
	local kit=$PWD prebuilt= qemu
	job=$(mktemp -d) || die "mktemp failed"
	is_arm "$suite" && kit=/kit prebuilt=1
	write_init "$(is_arm "$suite" && echo arm64 || echo amd64)" >"$job/init"
	chmod 755 "$job/init"
	printf 'ML_KIT=%q\nML_THP=%q\nML_FRAMES=%q\nML_PROBE=%q\nML_PREBUILT=%q\n' "$kit" "$mode" "$FRAMES" \
		"$probe" "$prebuilt" >"$job/job"
	# The boot's own files first, uncompressed: the kernel reads a plain
	# archive followed by a compressed one (not the other way round).
	if is_arm "$suite"; then
		(cd "$job" && printf '%s\n' init job | cpio -o -H newc --quiet) >"$job/run.img" &&
			cat "$LOGS/kit.cpio" "$CACHE/arm64-root/ready/base.cpio.gz" >>"$job/run.img"
	else
		(cd "$job" && printf '%s\n' . init job | "$r/busybox" cpio -o -H newc 2>/dev/null) >"$job/run.img" &&
			cat "$r/base.cpio.gz" >>"$job/run.img"
	fi || die "could not write the boot's initramfs"
	[ "$accel" = kvm ] && cpu=host
	[ "$probe" = 1 ] && limit=30
	if is_arm "$suite"; then
		# virt's PL011 is ttyAMA0; pauth-impdef: TCG's cheaper pointer
		# authentication, as the architected one is slow to emulate.
		qemu=("$QEMU_ARM" -machine virt -accel tcg -cpu max,pauth-impdef=on
			-append "console=ttyAMA0 quiet panic=-1")
	else
		qemu=("$QEMU" -accel "$accel" -cpu "$cpu" -append "console=ttyS0 quiet panic=-1"
			-virtfs local,path=/,mount_tag=host,security_model=none,readonly=on,multidevs=remap)
	fi
	timeout "$limit" "${qemu[@]}" -smp 2 -m 2048 \
		-nodefaults -no-user-config -display none -monitor none -no-reboot \
		-serial "file:$log" -kernel "$r/vmlinuz" -initrd "$job/run.img" \
		</dev/null >"$job/qemu.out" 2>&1
	rc=$?
	WHY=
	if grep -q '^ML|end|' <(tr -d '\r' <"$log" 2>/dev/null); then
		:
	elif [ "$rc" = 124 ]; then
		WHY="no end marker within $limit s (timeout)"
	elif [ "$rc" != 0 ]; then
		WHY="qemu exited $rc: $(head -n 1 "$job/qemu.out")"
	else
		WHY=$(tr -d '\r' <"$log" | sed -n 's/^ML|boot-failed|/the guest could not /p' | head -n 1)
		[ -n "$WHY" ] || WHY="the guest stopped early: $(tr -d '\r' <"$log" | grep -v '^ *$' | tail -n 1 | cut -c1-70)"
	fi
	rm -rf "$job"
	[ -z "$WHY" ]
}

# pick_accel SUITE: ACCEL=kvm when /dev/kvm opens and a probe boot (no
# checks) reaches its end marker, else tcg.  Some hosts offer /dev/kvm and
# then cannot run the guest (it hangs, or qemu stops on an MSR): the probe
# costs 30 s there, once.
pick_accel() {
	ACCEL=tcg
	[ "$ACCEL_WANT" = tcg ] && return 0
	if [ -r /dev/kvm ] && [ -w /dev/kvm ]; then
		if boot "$1" never kvm 1 "$LOGS/kvm-probe.console"; then
			ACCEL=kvm
			return 0
		fi
		echo "$prog: KVM: $WHY; using TCG" >&2
	fi
	[ "$ACCEL_WANT" = kvm ] && cannot "KVM was asked for and does not work here"
	return 0
}

# ------------------------------------------------------------- the table
declare -A MEAS PRED KIND PROBE SUBMIT SUBERR SCORE GRADE GFAIL COLWHY REL THPS
FAILED=0 ACCEL=tcg
BLOCK=()

# short SUITE: the column's kernel, as "6.1" or "6.12", and for arm64 its
# page size, "6.12/16K".
short() {
	local rel=${REL[$1]:-$1} pg=
	is_arm "$1" && pg=/${1#arm64-} && pg=${pg^^}
	echo "$rel" | awk -F'[.-]' -v pg="$pg" '{ print $1 "." $2 pg }'
}

# family SUITE: the columns that share a table: amd64, or arm64 at one page
# size (a prediction is in pages: it differs from one page size to another).
family() { is_arm "$1" && echo "$1" || echo amd64; }

# parse COL LOG: the guest's ML| lines into the arrays above.
parse() {
	local col=$1 tag a b c d
	while IFS='|' read -r tag a b c d; do
		case $tag in
		kernel) REL[${col% *}]=$a ;;
		thp) THPS[$col]=$a ;;
		probe) PROBE[$col]=$a ;;
		row) MEAS[$col,$a]=$b; PRED[$col,$a]=$c; KIND[$col,$a]=$d ;;
		submit) SUBMIT[$col]=$a ;;
		submiterr) [ -n "${SUBERR[$col]:-}" ] || SUBERR[$col]=$a ;;
		grade) SCORE[$col]=$a; GRADE[$col]=$b ;;
		gradefail) GFAIL[$col]="${GFAIL[$col]:-}$a"$'\n' ;;
		esac
	done < <(tr -d '\r' <"$2" | sed -n 's/^ML|//p')
}

# cell VALUE MARKS: a value right-aligned in 9 columns, then two marks.
cell() { printf '%9s%-2s' "$1" "$2"; }

# diff_mark COL VALUE ARRAY [LABEL]: "+" when the first kernel's column of
# the same THP mode holds a number more than 2 away from VALUE.
diff_mark() {
	local first=${BLOCK[0]%% *} other v=$2
	local -n arr=$3
	other=${arr[$first ${1#* }${4:+,$4}]:-}
	[ "${1% *}" != "$first" ] && [[ $v =~ ^[0-9]+$ && $other =~ ^[0-9]+$ ]] &&
		[ $((v > other ? v - other : other - v)) -gt 2 ] && echo "+"
}

# count_cell COL LABEL: measured faults, marked against the prediction.
count_cell() {
	local m=${MEAS[$1,$2]:-} p=${PRED[$1,$2]:-} k=${KIND[$1,$2]:-} mark="~"
	if [[ ! $m =~ ^[0-9]+$ ]]; then FAILED=1; cell failed "*"; return; fi
	if [ "$k" = exact ] && [[ $p =~ ^[0-9]+$ ]]; then
		mark=" "
		[ $((m > p ? m - p : p - m)) -gt 2 ] && { mark="*"; FAILED=1; }
	fi
	cell "$m" "$mark$(diff_mark "$1" "$m" MEAS "$2")"
}

probe_cell() { cell "${PROBE[$1]:-?}" " $(diff_mark "$1" "${PROBE[$1]:-}" PROBE)"; }
submit_cell() {
	[ "${SUBMIT[$1]:-}" = 0 ] && { cell 0 ""; return; }
	FAILED=1
	cell "${SUBMIT[$1]:-none}" "*"
}
score_cell() { cell "${SCORE[$1]:-none}" ""; }
# grade exit: 0, or 3 (ENV checks only, never a FAIL) under THP always.
grade_cell() {
	local g=${GRADE[$1]:-none}
	if [ "$g" = 0 ] || { [ "$g" = 3 ] && [ "${1#* }" = always ]; }; then cell "$g" ""
	else FAILED=1; cell "$g" "*"; fi
}

# row LABEL PREDICTED FUNCTION [ARG]: one line, FUNCTION COL [ARG] a cell.
row() {
	local col
	printf '%-18s%10s' "$1" "$2"
	for col in "${BLOCK[@]}"; do
		if [ -n "${COLWHY[$col]:-}" ]; then cell "${COLWHY[$col]}" ""; else "$3" "$col" ${4+"$4"}; fi
	done
	echo
}

# block: one table, the columns in BLOCK (one family).
block() {
	local col label envs args p pred note=''
	printf '%-18s%10s' kernel ""
	for col in "${BLOCK[@]}"; do printf '%9s  ' "$(short "${col% *}")"; done
	printf '\n%-18s%10s' THP predicted
	for col in "${BLOCK[@]}"; do printf '%9s  ' "${col#* }"; done
	echo
	while IFS='|' read -r label envs args; do
		# The prediction column: the first column's; others that differ are
		# listed under the table and the prediction gets a "?".
		pred=
		for col in "${BLOCK[@]}"; do
			p=${PRED[$col,$label]:-}
			[[ $p =~ ^[0-9]+$ ]] || continue
			[ -z "$pred" ] && pred=$p
			[ "$p" = "${pred%?}" ] || [ "$p" = "$pred" ] && continue
			note="$note  $label, $(short "${col% *}") ${col#* }: $p"$'\n'
			pred="${pred%\?}?"
		done
		row "$label" "${pred:--}" count_cell "$label"
	done <<<"$CHECKS"
	row "read faults a page" - probe_cell
	row "make submit exit" 0 submit_cell
	row "grade score" - score_cell
	row "grade exit" "0 / 3" grade_cell
	[ -n "$note" ] && printf 'Other predictions ("?" above):\n%s' "$note"
	echo
}

table() {
	local col s thp fam done_fams=' '
	for col in "${COLS[@]}"; do
		fam=$(family "${col% *}")
		[[ $done_fams == *" $fam "* ]] && continue
		done_fams="$done_fams$fam "
		BLOCK=()
		for s in "${COLS[@]}"; do [ "$(family "${s% *}")" = "$fam" ] && BLOCK+=("$s"); done
		block
	done
	cat <<EOF
Cells: minor faults measured in the guest, $FRAMES frames a check (frames --csv); "predicted"
is the program's own predicted_faults column, the same in every column unless marked "?".
*  fails: an "exact" prediction missed by more than 2 faults, or an exit that fails
~  the prediction is an upper bound here (huge pages may back the frames): not checked
+  differs by more than 2 from the first kernel's count under the same THP mode
grade exit: 0 passes, and 3 (ENV checks only) under THP always.
EOF
	for s in $SUITES; do
		[ -n "${REL[$s]:-}" ] || continue
		thp=
		for col in "${COLS[@]}"; do
			[ "${col% *}" = "$s" ] && [ -n "${THPS[$col]:-}" ] && { thp=${THPS[$col]}; break; }
		done
		printf '%s = %s%s; THP %s\n' "$(short "$s")" \
			"$(cat "$CACHE/$s/ready/package" 2>/dev/null || echo "linux-image-${REL[$s]}")" \
			"$(is_arm "$s" || echo " ($s)")" "$(echo "${thp:-?}" | sed 's/enabled=[a-z]* *//')"
	done
	for s in $SUITES; do is_arm "$s" || { echo "amd64: qemu-system-x86_64, $ACCEL, 2 CPUs, 2 GiB"; break; }; done
	for s in $SUITES; do
		is_arm "$s" || continue
		echo "arm64: qemu-system-aarch64 -M virt -cpu max, tcg, 2 CPUs, 2 GiB; bookworm's arm64"
		echo "  userland (glibc 2.36) and the labs cross-built by make build-arm64"
		break
	done
	echo "make submit in each guest:"
	echo "  $SUBMIT_KNOBS"
	for col in "${COLS[@]}"; do
		[ -n "${SUBERR[$col]:-}" ] && printf '%s %s: make submit: %s\n' "$(short "${col% *}")" "${col#* }" \
			"${SUBERR[$col]}" | cut -c1-100
		[ -n "${GFAIL[$col]:-}" ] || continue
		printf '%s' "${GFAIL[$col]}" | head -n 4 | while read -r s; do
			printf '%s %s: %s\n' "$(short "${col% *}")" "${col#* }" "$s" | cut -c1-100
		done
	done
}

# show_table: the table without the cells' trailing blanks (table runs in
# this shell: it sets FAILED).
show_table() {
	local t
	t=$(mktemp) || die "mktemp failed"
	table >"$t"
	sed 's/ *$//' "$t"
	rm -f "$t"
}

# read_logs: every column's console log in $LOGS into the arrays; a column
# without one (or with a .why file: the boot failed) is "no boot".
read_logs() {
	local col log
	for col in "${COLS[@]}"; do
		[ -n "${COLWHY[$col]:-}" ] && continue
		log=$LOGS/${col/ /-}.console
		if [ -f "${log%.console}.why" ] || [ ! -f "$log" ]; then
			echo "$prog: ${REL[${col% *}]:-${col% *}}, THP ${col#* }: $(cat "${log%.console}.why" 2>/dev/null ||
				echo "no console log") (console: $log)" >&2
			COLWHY[$col]="no boot"
			FAILED=1
		else
			parse "$col" "$log"
		fi
	done
}

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
# arm_missing: why this machine cannot boot the arm64 guests ("" if it can).
arm_missing() {
	local t
	for t in "$QEMU_ARM:qemu-system-arm" aarch64-linux-gnu-gcc:gcc-aarch64-linux-gnu cpio:cpio; do
		command -v "${t%%:*}" >/dev/null 2>&1 || { echo "${t%%:*} is not installed (apt-get install ${t#*:})"; return; }
	done
}

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
