#!/usr/bin/env bash
# tools/platforms/minbase.sh [--frames N] [--tests "NAME..."] - the kit as a
# student with README's prerequisites only gets it: a fresh Debian 12
# minbase (debootstrap --variant=minbase bookworm) plus gcc make strace
# libc6-dev, no git, and the kit copied in without .git (as from a ZIP).
# Inside it: `make run FRAMES=N` (default 10), then `make test` (T=NAMES
# with --tests), whose last line ends the output.
#
# The prepared root is built once and kept as a tar file, outside the tree:
#   ${MALLOC_LABS_CACHE:-/var/cache/malloc-labs}/minbase-bookworm.tar
# Each run unpacks it into a new directory (so every run starts fresh),
# mounts /proc, /sys (read-only) and a /dev of its own without /dev/pts
# (so the checks that need a terminal show how they skip), and removes it
# all at exit.
#
# Exit status: 0 both passed; 1 one failed; 2 usage; 3 nothing could run
# here (not root, no debootstrap or chroot, the mirror unreachable): the
# reason is on stderr.
set -u -o pipefail
cd "$(dirname "$0")/../.." || exit 1
prog=minbase.sh
. tools/lib/lib.sh || exit 1
. tools/platforms/debian.sh || exit 1
CACHE=${MALLOC_LABS_CACHE:-/var/cache/malloc-labs}
TARBALL=$CACHE/minbase-bookworm.tar
PREREQS="gcc make strace libc6-dev"

usage() {
	echo "usage: tools/platforms/minbase.sh [--frames N] [--tests \"NAME...\"]"
	echo "Runs make run and make test in a fresh Debian 12 minbase chroot with only"
	echo "README's prerequisites ($PREREQS) and the kit copied in without .git."
}
FRAMES=10 TESTS=
while [ $# -gt 0 ]; do
	case $1 in
	--frames) [ $# -ge 2 ] || bad_usage "--frames wants a number"; need_count FRAMES "$2" 100000; FRAMES=$2; shift 2 ;;
	--tests) [ $# -ge 2 ] || bad_usage "--tests wants test names"; TESTS=$2; shift 2 ;;
	-h|--help) usage; exit 0 ;;
	*) bad_usage "unknown argument '$1'" ;;
	esac
done
case $TESTS in *[!A-Za-z0-9_\ -]*) bad_usage "--tests: test names only, not '$TESTS'" ;; esac

cannot() { echo "$prog: cannot run here: $*" >&2; exit 3; }
[ "$(id -u)" -eq 0 ] || cannot "debootstrap and chroot need root"
command -v debootstrap >/dev/null 2>&1 || cannot "debootstrap is not installed (apt-get install debootstrap)"
command -v chroot >/dev/null 2>&1 || cannot "chroot is not installed"

# build_root: debootstrap, the prerequisites, then the tar file; once.
build_root() {
	local mirror root
	mirror=${MALLOC_LABS_MIRROR:-$(system_mirror)} || mirror=http://deb.debian.org/debian
	mkdir -p "$CACHE" || cannot "cannot write $CACHE"
	root=$(mktemp -d "$CACHE/build.XXXXXX") || cannot "cannot write $CACHE"
	echo "$prog: debootstrap --variant=minbase bookworm from $mirror (once; cached in $TARBALL)" >&2
	if ! debootstrap --variant=minbase bookworm "$root" "$mirror" >"$root.log" 2>&1; then
		tail -n 5 "$root.log" >&2; rm -rf "$root" "$root.log"
		cannot "debootstrap failed (offline?)"
	fi
	cp /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null
	if ! chroot "$root" sh -c "apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $PREREQS && apt-get clean" \
		>>"$root.log" 2>&1; then
		tail -n 5 "$root.log" >&2; rm -rf "$root" "$root.log"
		cannot "apt-get install $PREREQS failed in the chroot"
	fi
	tar -C "$root" -cf "$TARBALL.part" . && mv "$TARBALL.part" "$TARBALL" || die "cannot write $TARBALL"
	rm -rf "$root" "$root.log"
}
[ -s "$TARBALL" ] || build_root

ROOT=$(mktemp -d "${TMPDIR:-/tmp}/minbase.XXXXXX") || die "mktemp failed"
cleanup() {
	local m
	for m in dev/shm dev sys proc; do mountpoint -q "$ROOT/$m" 2>/dev/null && umount -l "$ROOT/$m"; done
	rm -rf --one-file-system "$ROOT"
}
trap cleanup EXIT
tar -C "$ROOT" -xf "$TARBALL" || die "cannot unpack $TARBALL"
if chroot "$ROOT" sh -c 'command -v git' >/dev/null 2>&1; then die "the minbase has git: it must not"; fi

# The kit without .git: the files git tracks (or, without git here, the
# tree minus what make builds), as a ZIP download would hold them.
kit_copy "$ROOT/kit" || die "cannot copy the kit"

mount -t proc proc "$ROOT/proc" && mount --bind -o ro /sys "$ROOT/sys" &&
	mount -t tmpfs -o mode=755 tmpfs "$ROOT/dev" || die "cannot mount /proc, /sys or /dev in the chroot"
mknod -m 666 "$ROOT/dev/null" c 1 3 && mknod -m 666 "$ROOT/dev/zero" c 1 5 &&
	mknod -m 666 "$ROOT/dev/full" c 1 7 && mknod -m 666 "$ROOT/dev/urandom" c 1 9 &&
	mknod -m 666 "$ROOT/dev/tty" c 5 0 && mkdir "$ROOT/dev/shm" && mount -t tmpfs tmpfs "$ROOT/dev/shm" ||
	die "cannot make /dev in the chroot"
ln -s /proc/self/fd "$ROOT/dev/fd"

echo "\$ make run FRAMES=$FRAMES   (in a Debian 12 minbase: $PREREQS; no git)"
chroot "$ROOT" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 \
	sh -c "cd /kit && make run FRAMES=$FRAMES" >"$ROOT/run.log" 2>&1
rc=$?
tail -n 3 "$ROOT/run.log"
[ "$rc" -eq 0 ] || { echo "$prog: make run failed (exit $rc)" >&2; exit 1; }
echo "\$ make test${TESTS:+ T=\"$TESTS\"}"
chroot "$ROOT" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 \
	sh -c "cd /kit && make test${TESTS:+ T='$TESTS'}" >"$ROOT/test.log" 2>&1
rc=$?
grep -E '^(FAIL|kept:|tests/)' "$ROOT/test.log" | head -n 40
tail -n 1 "$ROOT/test.log"
[ "$rc" -eq 0 ] || { echo "$prog: make test failed (exit $rc)" >&2; exit 1; }
