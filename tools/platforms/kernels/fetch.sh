# tools/platforms/kernels/fetch.sh - make kernels' packages: each kernel from Debian's
# index (tools/platforms/debian.sh's private apt state), and the arm64
# guests' userland; image.sh makes what boots from them.
# Sourced by tools/platforms/kernels.sh (its main, options and the
# variables they set: CACHE, FRAMES, JOBS, TIMEOUT ...); functions and
# their data only, nothing runs.

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

# fetch SUITE: the kernel, its release and the base initramfs (busybox and
# the modules, no /init: that comes with each boot; image.sh's amd64_image
# and arm_root_image) in $CACHE/SUITE.  Run in a subshell: it exits 3 when
# the packages cannot be had, 1 when they were had and something else
# failed.
fetch() {
	local suite=$1 dir=$CACHE/$1 pat pkg
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
	amd64_image "$suite" "$pkg"
}

# The guest's userland: bookworm's arm64 packages (glibc 2.36, as the
# programs were built against), unpacked; what the kit's scripts run.
ARM_PACKAGES="libc6 libc-bin bash libtinfo6 coreutils libacl1 libattr1 libgmp10 libselinux1
	libpcre2-8-0 mawk sed grep make strace findutils busybox-static"

# fetch_arm_root: $CACHE/arm64-root/ready/base.cpio.gz, that userland
# (image.sh's arm_root_image).  Exits 3 when the packages cannot be had.
fetch_arm_root() {
	local dir=$CACHE/arm64-root
	[ -f "$dir/ready/.complete" ] && return 0
	(apt_setup bookworm "$dir" arm64) || exit 3
	echo "$prog: arm64 userland: fetching $(echo $ARM_PACKAGES)" >&2
	rm -rf "$dir/debs"
	# shellcheck disable=SC2086
	(download "$dir" $ARM_PACKAGES) || exit 3
	arm_root_image "$dir"
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
