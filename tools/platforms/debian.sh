# tools/platforms/debian.sh - another Debian suite's packages without touching the
# system's apt state (sourced by tools/platforms/glibc.sh and tools/platforms/kernels.sh, not
# run).  The caller sets `prog` and defines die().
#
# apt_setup SUITE DIR makes a private apt state under DIR/apt: a sources
# list naming the mirror this system's own apt sources use (or
# $MALLOC_LABS_MIRROR) with the suite swapped, private lists and cache, and
# an empty dpkg status; then reads the suite's package list.  download DIR
# PKG... fetches .deb files into DIR/debs.  No root is needed; the package
# signatures are checked with the system's keyrings, as apt always does.
# apt_setup SUITE DIR ARCH reads another architecture's packages (arm64 for
# make kernels' arm64 guests); DIR/apt/arch keeps it for later calls.
# shellcheck shell=bash disable=SC2154  # prog: set by the sourcing script

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

# private_apt TOOL DIR ARGS...: apt-get or apt-cache with everything
# private to DIR: sources, lists, cache, and an empty dpkg status, so the
# system's installed libc6 (a newer version than bullseye's) cannot decide
# which version is the "candidate".
private_apt() {
	local tool=$1 dir=$2 arch=()
	shift 2
	[ -s "$dir/apt/arch" ] &&
		arch=(-o "APT::Architecture=$(cat "$dir/apt/arch")" -o "APT::Architectures=$(cat "$dir/apt/arch")")
	"$tool" -q "${arch[@]}" -o Dir::Etc::SourceList="$dir/apt/sources.list" \
		-o Dir::Etc::SourceParts=/dev/null \
		-o Dir::Etc::Preferences=/dev/null -o Dir::Etc::PreferencesParts=/dev/null \
		-o Dir::State::Lists="$dir/apt/lists" -o Dir::State::status="$dir/apt/status" \
		-o Dir::Cache="$dir/apt/cache" -o Debug::NoLocking=1 \
		-o Acquire::Languages=none -o APT::Get::List-Cleanup=0 "$@"
}

papt() { private_apt apt-get "$@"; }
pcache() { private_apt apt-cache "$@"; }

# Make the private apt state for SUITE in DIR and read its package lists.
apt_setup() {
	local suite=$1 dir=$2 arch=${3:-} mirror key opts=
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
	printf '%s' "$arch" >"$dir/apt/arch"
	echo "deb$opts $mirror $suite main" >"$dir/apt/sources.list"
	echo "$prog: reading the $suite${arch:+ $arch} package list from $mirror" >&2
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
