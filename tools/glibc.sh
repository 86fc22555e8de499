#!/usr/bin/env bash
# tools/glibc.sh - run the labs under another Debian release's glibc without
# installing it.
#
#   tools/glibc.sh fetch   SUITE    download and unpack that release's libc6
#   tools/glibc.sh prefix  SUITE    print "LOADER --library-path DIR" (fetches
#                                   first if needed), so that
#                                   $(tools/glibc.sh prefix trixie) ./frames ...
#                                   runs ./frames with trixie's glibc
#   tools/glibc.sh version SUITE    print its glibc version (2.41)
#   tools/glibc.sh sysroot SUITE    unpack libc6-dev and linux-libc-dev too and
#                                   print the directory for gcc --sysroot
#   tools/glibc.sh dir     SUITE    print the cache directory (no network)
#
# SUITE: bullseye (2.31), bookworm (2.36), trixie (2.41), sid (the newest),
# or the version number 2.31, 2.36, 2.41 (newest = sid).
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
. "$here/lib.sh" || exit 1
prog=glibc.sh
CACHE=${MALLOC_LABS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/malloc-labs}/glibc

usage() {
	cat <<'EOF'
usage: tools/glibc.sh fetch|prefix|version|sysroot|dir SUITE
  fetch SUITE    download and unpack SUITE's libc6 into the cache
  prefix SUITE   print the loader prefix that runs a program under SUITE's glibc
  version SUITE  print SUITE's glibc version
  sysroot SUITE  also unpack libc6-dev + linux-libc-dev; print the --sysroot dir
  dir SUITE      print SUITE's cache directory (no network)
SUITE: bullseye (2.31), bookworm (2.36), trixie (2.41), sid (newest), or
       2.31, 2.36, 2.41, newest.  Cache: $MALLOC_LABS_CACHE, else
       ${XDG_CACHE_HOME:-~/.cache}/malloc-labs.  Mirror: this system's apt
       sources, or $MALLOC_LABS_MIRROR.
EOF
}

# The Debian suite for an argument.
suite_of() {
	case $1 in
	bullseye | 2.31) echo bullseye ;;
	bookworm | 2.36) echo bookworm ;;
	trixie | 2.41) echo trixie ;;
	sid | unstable | newest) echo sid ;;
	*) return 1 ;;
	esac
}

# The mirror URI of this system's main Debian archive: the URI of the first
# source entry (one-line or deb822) whose suite is the system's own codename
# (not -security or -updates, which hold no other releases).
system_mirror() {
	local codename
	codename=$(. /etc/os-release 2>/dev/null && echo "${VERSION_CODENAME:-}")
	[ -n "$codename" ] || return 1
	{
		[ -r /etc/apt/sources.list ] && awk -v c="$codename" '
			$1 == "deb" {
				sub(/\[[^]]*\]/, "")   # options: deb [signed-by=...] URI SUITE ...
				$0 = $0
				if ($3 == c) { print $2; exit }
			}' /etc/apt/sources.list
		for f in /etc/apt/sources.list.d/*.sources; do
			[ -r "$f" ] || continue
			# deb822: stanzas separated by blank lines; Types, URIs, Suites.
			awk -v c="$codename" '
				function flush() {
					if (types ~ /(^| )deb( |$)/ && (" " suites " ") ~ (" " c " ") && uri != "")
						{ print uri; found = 1; exit }
					types = suites = uri = ""
				}
				/^[ \t]*#/ { next }
				/^[ \t]*$/ { flush(); next }
				tolower($1) == "types:" { $1 = ""; types = $0 }
				tolower($1) == "uris:" { uri = $2 }
				tolower($1) == "suites:" { $1 = ""; suites = $0 }
				END { if (!found) flush() }' "$f"
		done
	} | head -n 1
}

# The Signed-By keyring of the system's entry for that mirror, if any, so
# the private list is checked with the same key files.
system_signed_by() {
	local f
	for f in /etc/apt/sources.list.d/*.sources; do
		[ -r "$f" ] || continue
		awk -v u="$1" '
			/^[ \t]*$/ { if (hit && key != "") { print key; exit } hit = 0; key = "" }
			tolower($1) == "uris:" { for (i = 2; i <= NF; i++) if ($i == u) hit = 1 }
			tolower($1) == "signed-by:" { key = $2 }
			END { if (hit && key != "") print key }' "$f"
	done | head -n 1
}

# apt-get with everything private to DIR: sources, lists, cache, and an
# empty dpkg status, so the system's installed libc6 (a newer version than
# bullseye's) cannot decide which version is the "candidate".
papt() {
	local dir=$1
	shift
	apt-get -q -o Dir::Etc::SourceList="$dir/apt/sources.list" \
		-o Dir::Etc::SourceParts=/dev/null \
		-o Dir::Etc::Preferences=/dev/null -o Dir::Etc::PreferencesParts=/dev/null \
		-o Dir::State::Lists="$dir/apt/lists" -o Dir::State::status="$dir/apt/status" \
		-o Dir::Cache="$dir/apt/cache" -o Debug::NoLocking=1 \
		-o Acquire::Languages=none -o APT::Get::List-Cleanup=0 "$@"
}

# Make the private apt state for SUITE in DIR and read its package lists.
apt_setup() {
	local suite=$1 dir=$2 mirror key opts=
	if ! command -v apt-get >/dev/null 2>&1 || ! command -v dpkg-deb >/dev/null 2>&1; then
		die "needs apt-get and dpkg-deb: this is not a Debian-family system"
	fi
	mirror=${MALLOC_LABS_MIRROR:-$(system_mirror)}
	if [ -z "$mirror" ]; then
		local id
		id=$(. /etc/os-release 2>/dev/null && echo "${ID:-unknown}")
		die "found no Debian archive in this system's apt sources (this is '$id';" \
			"Debian's suites come from a Debian mirror): set MALLOC_LABS_MIRROR=URI"
	fi
	[ -z "${MALLOC_LABS_MIRROR:-}" ] && key=$(system_signed_by "$mirror")
	[ -n "${key:-}" ] && opts=" [signed-by=$key]"
	mkdir -p "$dir/apt/lists/partial" "$dir/apt/cache/archives/partial" || die "cannot write $dir"
	: >"$dir/apt/status"
	echo "deb$opts $mirror $suite main" >"$dir/apt/sources.list"
	echo "$prog: reading the $suite package list from $mirror" >&2
	# apt-get update exits 0 when it reached no server: look for the list.
	if ! papt "$dir" update >"$dir/apt/update.log" 2>&1 ||
		! ls "$dir"/apt/lists/*_Packages* >/dev/null 2>&1; then
		die "could not read the $suite package list (offline?): $(grep -E '^(E|W):' "$dir/apt/update.log" | head -n 1)"
	fi
}

# Download PKG... for the suite into DIR/debs; echo nothing, fail with a reason.
download() {
	local dir=$1
	shift
	mkdir -p "$dir/debs"
	(cd "$dir/debs" && papt "$dir" download "$@") >"$dir/apt/download.log" 2>&1 ||
		die "apt-get download $* failed: $(grep -E '^(E|W):' "$dir/apt/download.log" | head -n 2 | tr '\n' ' ')"
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

fetch() {
	local suite=$1 dir=$CACHE/$1 tmp
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
