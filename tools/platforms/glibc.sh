#!/usr/bin/env bash
# tools/platforms/glibc.sh - run the labs under another Debian release's glibc without
# installing it.
#
#   tools/platforms/glibc.sh fetch   SUITE    download and unpack that release's libc6
#   tools/platforms/glibc.sh prefix  SUITE    print "LOADER --library-path DIR" (fetches
#                                   first if needed), so that
#                                   $(tools/platforms/glibc.sh prefix trixie) ./frames ...
#                                   runs ./frames with trixie's glibc
#   tools/platforms/glibc.sh version SUITE    print its glibc version (2.41)
#   tools/platforms/glibc.sh sysroot SUITE    unpack libc6-dev and linux-libc-dev too and
#                                   print the directory for gcc --sysroot
#   tools/platforms/glibc.sh dir     SUITE    print the cache directory (no network)
#
# SUITE: bullseye (2.31), bookworm (2.36), trixie (2.41), sid (the newest),
# or the version number 2.31, 2.36, 2.41 (newest = sid); or 2.35 and 2.39,
# the releases of Ubuntu 22.04 (Gradescope's default image) and 24.04
# (GitHub's ubuntu-latest runner), which no Debian suite ships.
#
# 2.35 and 2.39 are not fetched: they are glibc built from the upstream
# release tags, a folder each holding libc.so.6 and ld-linux-x86-64.so.2, in
# $MALLOC_LABS_GLIBC_BUILDS/2.35 and /2.39 (default: ../shared/glibc beside
# the kit, where the course's shared material keeps them).  Where that
# folder is absent, fetch/prefix/version say so and exit 1, like an offline
# fetch.  sysroot is for Debian suites only.
#
# Why a loader prefix works: ld.so can be run as a program; it then loads the
# program named after it, and --library-path makes it take libc.so.6 from DIR
# instead of the system's.  Nothing is installed and nothing system-wide
# changes.  A program linked against a newer glibc than the one it runs on
# fails at start ("version `GLIBC_2.34' not found"): the kit's binaries are
# built on the system's glibc, so bullseye's 2.31 needs the labs rebuilt
# against its own headers and libraries (`make glibc-2.31`, which uses
# `sysroot bullseye`).
#
# How it fetches: apt-get download, with a private sources list, lists and
# cache under the cache directory (the system's apt state is not touched
# and no root is needed); the mirror is the one this system's apt sources
# already use (or $MALLOC_LABS_MIRROR), with the suite swapped.  The package
# signatures are checked with the system's keyrings, as apt always does.
# Cache: ${MALLOC_LABS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/malloc-labs}/glibc/SUITE
# (outside the kit's tree); a second call does no network access.
#
# Exit status: 0 done; 1 it could not (not Debian-family, no apt, offline,
# no such package): the reason is on stderr; 2 usage error.
set -u -o pipefail
here=${BASH_SOURCE[0]%/*}
[ "$here" != "${BASH_SOURCE[0]}" ] || here=.
. "$here/../lib/lib.sh" || exit 1
prog=glibc.sh
CACHE=${MALLOC_LABS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/malloc-labs}/glibc
BUILDS=${MALLOC_LABS_GLIBC_BUILDS:-$(cd "$here/../.." && pwd)/../shared/glibc}

usage() {
	cat <<'EOF'
usage: tools/platforms/glibc.sh fetch|prefix|version|sysroot|dir SUITE
  fetch SUITE    download and unpack SUITE's libc6 into the cache
  prefix SUITE   print the loader prefix that runs a program under SUITE's glibc
  version SUITE  print SUITE's glibc version
  sysroot SUITE  also unpack libc6-dev + linux-libc-dev; print the --sysroot dir
  dir SUITE      print SUITE's cache directory (no network)
SUITE: bullseye (2.31), bookworm (2.36), trixie (2.41), sid (newest), or
       2.31, 2.36, 2.41, newest; 2.35 and 2.39 (Ubuntu 22.04's and 24.04's
       releases) from $MALLOC_LABS_GLIBC_BUILDS (default ../shared/glibc
       beside the kit), never fetched.  Cache: $MALLOC_LABS_CACHE, else
       ${XDG_CACHE_HOME:-~/.cache}/malloc-labs.  Mirror: this system's apt
       sources, or $MALLOC_LABS_MIRROR.
EOF
}

# The private apt state: apt_setup, download (tools/platforms/debian.sh).
. "$here/debian.sh" || exit 1

# The Debian suite for an argument.
suite_of() {
	case $1 in
	bullseye | 2.31) echo bullseye ;;
	bookworm | 2.36) echo bookworm ;;
	trixie | 2.41) echo trixie ;;
	sid | unstable | newest) echo sid ;;
	2.35 | 2.39) echo "$1" ;;
	*) return 1 ;;
	esac
}

# The unpacked libc6's directory holding libc.so.6 and the loader.
libdir_of() {
	local f
	f=$(find "$1/root" -name libc.so.6 2>/dev/null | head -n 1)
	[ -n "$f" ] && dirname "$f"
}

loader_of() {
	local d
	d=$(libdir_of "$1") || return 1
	ls "$d"/ld-linux*.so.[0-9] 2>/dev/null | head -n 1
}

# A release built from its upstream tag (2.35, 2.39): its folder, checked.
build_dir() {
	local d=$BUILDS/$1
	[ -f "$d/libc.so.6" ] && [ -f "$d/ld-linux-x86-64.so.2" ] ||
		die "no glibc $1 build in $BUILDS/$1 (libc.so.6 and ld-linux-x86-64.so.2; set MALLOC_LABS_GLIBC_BUILDS)"
	[ "$(uname -m)" = x86_64 ] || die "the glibc $1 build is for x86-64, not $(uname -m)"
	echo "$d"
}
is_build() { case $1 in 2.35 | 2.39) return 0 ;; esac; return 1; }

fetch() {
	local suite=$1 dir=$CACHE/$1 tmp
	if is_build "$suite"; then build_dir "$suite" >/dev/null; return; fi
	if [ -f "$dir/root/.complete" ]; then return 0; fi
	apt_setup "$suite" "$dir"
	rm -f "$dir"/debs/libc6_*.deb
	download "$dir" libc6
	tmp=$dir/root.part
	rm -rf "$tmp" "$dir/root"
	mkdir -p "$tmp"
	dpkg-deb -x "$dir"/debs/libc6_*.deb "$tmp" || die "dpkg-deb could not unpack libc6"
	# The upstream version: Debian's "2.41-12" less its revision.
	dpkg-deb -f "$dir"/debs/libc6_*.deb Version | sed 's/-[^-]*$//; s/^[0-9]*://' >"$tmp/.version"
	touch "$tmp/.complete"
	mv "$tmp" "$dir/root"
	loader_of "$dir" >/dev/null || die "no loader in $suite's libc6 (architecture $(dpkg --print-architecture))"
	echo "$prog: $suite: glibc $(cat "$dir/root/.version") in $dir/root" >&2
}

sysroot() {
	local suite=$1 dir=$CACHE/$1 tmp f
	fetch "$suite"
	if [ ! -f "$dir/sysroot/.complete" ]; then
		# The package lists fetch read are still in the private state.
		[ -d "$dir/apt/lists" ] || apt_setup "$suite" "$dir"
		# -pthread needs nothing more: libpthread is part of libc6(-dev).
		download "$dir" libc6-dev linux-libc-dev
		tmp=$dir/sysroot.part
		rm -rf "$tmp" "$dir/sysroot"
		mkdir -p "$tmp"
		for f in "$dir"/debs/libc6_*.deb "$dir"/debs/libc6-dev_*.deb "$dir"/debs/linux-libc-dev_*.deb; do
			dpkg-deb -x "$f" "$tmp" || die "dpkg-deb could not unpack $f"
		done
		# Absolute symlinks (lib64/ld-linux-x86-64.so.2 -> /lib/...) would
		# point at the host's files: make them relative, inside the sysroot.
		find "$tmp" -type l -lname '/*' | while read -r f; do
			ln -sfn "$(realpath -m --relative-to="$(dirname "$f")" "$tmp$(readlink "$f")")" "$f"
		done
		touch "$tmp/.complete"
		mv "$tmp" "$dir/sysroot"
	fi
	echo "$dir/sysroot"
}

[ $# -ge 1 ] || bad_usage "no command"
case $1 in
-h | --help) usage; exit 0 ;;
fetch | prefix | version | sysroot | dir) ;;
*) bad_usage "unknown command '$1'" ;;
esac
[ $# -eq 2 ] || bad_usage "$1 takes one SUITE"
suite=$(suite_of "$2") || bad_usage "unknown SUITE '$2'"

if is_build "$suite"; then
	case $1 in
	dir) echo "$BUILDS/$suite" ;;
	fetch) fetch "$suite" ;;
	prefix) d=$(build_dir "$suite") || exit 1; echo "$d/ld-linux-x86-64.so.2 --library-path $d" ;;
	# The loader names its own release: "ld.so (GNU libc) stable release version 2.39."
	version)
		d=$(build_dir "$suite") || exit 1
		"$d/ld-linux-x86-64.so.2" --version 2>/dev/null | sed -n '1s/.* version \([0-9.]*[0-9]\).*/\1/p' | grep . ||
			die "the loader in $d does not say its version"
		;;
	sysroot) bad_usage "sysroot is for Debian suites; $suite is a build of the upstream tag" ;;
	esac
	exit
fi
case $1 in
dir) echo "$CACHE/$suite" ;;
fetch) fetch "$suite" ;;
prefix)
	fetch "$suite"
	d=$(libdir_of "$CACHE/$suite")
	echo "$(loader_of "$CACHE/$suite") --library-path $d"
	;;
version)
	fetch "$suite"
	cat "$CACHE/$suite/root/.version"
	;;
sysroot) sysroot "$suite" ;;
esac
