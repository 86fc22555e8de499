# tools/platforms/kernels/image.sh - what make kernels boots: the amd64 initramfs
# (busybox and the modules the guest needs), the arm64 userland's and the
# kit's archives, and the 64 KiB-page arm64 kernel built from source.
# Sourced by tools/platforms/kernels.sh (its main, options and the
# variables they set: CACHE, FRAMES, JOBS, TIMEOUT ...); functions and
# their data only, nothing runs.

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

# amd64_image SUITE PKG: $CACHE/SUITE/ready from the packages fetch
# downloaded into $CACHE/SUITE/debs (PKG, the kernel's, and busybox-static):
# the kernel, its release, busybox, and base.cpio.gz, busybox and the
# modules in ROOT_MODULES with what they depend on.
amd64_image() {
	local suite=$1 pkg=$2 dir=$CACHE/$1 tmp x moddir rel m
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

# arm_root_image DIR: DIR/ready/base.cpio.gz, the arm64 userland fetched
# into DIR/debs as a gzipped newc archive (plus what dpkg's maintainer
# scripts would have made: /bin/sh and awk).
arm_root_image() {
	local dir=$1 tmp d
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

# kit_stage DIR BUILD: the arm64 guests' tree in DIR: the kit's files at
# DIR/kit (kit_copy), every lab's program (tools/labs/registry) and the
# grader's predict from BUILD, where make build-arm64 cross-built them, in
# their places, and the stand-ins with their answers.
kit_stage() {
	local st=$1 progs p
	mkdir -p "$st/kit" "$st/ml" "$st/usr/local/bin" || die "cannot write $st"
	kit_copy "$st/kit" || die "could not copy the kit's files"
	progs=$(lab_programs) || die "cannot read tools/labs/registry"
	for p in $progs tools/grading/predict; do
		cp "$2/$p" "$st/kit/$p" || die "no $2/$p (make build-arm64)"
	done
	aarch64-linux-gnu-gcc --version | head -n 1 >"$st/ml/cc-version"
	git describe --always --dirty >"$st/ml/kit-describe" 2>/dev/null || : >"$st/ml/kit-describe"
	git status --porcelain -- '*.c' 'tools/*.h' >"$st/ml/kit-status" 2>/dev/null
	printf '%s\n' "$STANDIN_CC" >"$st/usr/local/bin/cc" && printf '%s\n' "$STANDIN_GIT" >"$st/usr/local/bin/git" &&
		chmod 755 "$st/usr/local/bin/cc" "$st/usr/local/bin/git" || die "cannot write $st"
}

# kit_archive OUT: kit_stage's tree, with make build-arm64's programs, as a
# newc archive.
kit_archive() {
	local st
	st=$(mktemp -d) || die "mktemp failed"
	kit_stage "$st" build/arm64
	(cd "$st" && find . ! -name . | cpio -o -H newc --quiet) >"$1" || die "could not write $1"
	rm -rf "$st"
}
