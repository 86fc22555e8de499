#!/usr/bin/env bash
# tools/labs/pin.sh - run a command pinned to one CPU, and say first what could
# make its numbers noisy.
#
#   tools/labs/pin.sh [-q] [-c CPU] CMD [ARG...]
#
# Pinning keeps a measurement on one CPU: no migrations between CPUs (each
# costs cold caches and, for the TSC, a different counter), so the tail of a
# latency distribution is the program's and the machine's, not the
# scheduler's.  Unless -q, it reports on stderr (stdout stays the
# command's): the CPU chosen, its frequency governor, transparent huge
# pages, whether this is a virtual machine, the SMT sibling, the load.
# It needs no root and changes no system setting; it only reads.  Without
# taskset it says so and runs the command unpinned.  The exit status is the
# command's; 2 for a usage error.
set -u -o pipefail

# tools/lib/lib.sh sits beside this script; found without dirname(1), since
# pin.sh must run with a PATH that lacks most tools (tests/lab2.sh).
here=${BASH_SOURCE[0]%/*}
[ "$here" != "${BASH_SOURCE[0]}" ] || here=.
. "$here/../lib/lib.sh" || exit 1
prog=pin.sh

usage() {
	cat <<'EOF'
usage: tools/labs/pin.sh [-q] [-c CPU] CMD [ARG...]
Runs CMD pinned to one CPU with taskset (default: the highest-numbered CPU
this shell may use, as CPU 0 usually takes the most interrupts).
  -c CPU   the CPU to use
  -q       quiet: do not report what could make the numbers noisy
  -h       this text
EOF
}

# say MESSAGE: on stderr unless -q, wrapped to 78 columns (a projector).
say() {
	[ -n "$quiet" ] && return 0
	printf '%s\n' "$prog: $*" | awk '{
		n = split($0, w, " "); line = w[1]
		for (i = 2; i <= n; i++)
			if (length(line) + 1 + length(w[i]) > 78) { print line; line = "        " w[i] }
			else line = line " " w[i]
		print line }' >&2
}

# The CPUs this process may run on, one a line, from a list like "0-3,8".
allowed_cpus() {
	local list
	list=$(awk '/^Cpus_allowed_list:/ { print $2 }' /proc/self/status 2>/dev/null)
	[ -n "$list" ] || list=0-$(($(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1) - 1))
	echo "$list" | tr ',' '\n' | awk -F- '{ hi = NF > 1 ? $2 : $1; for (c = $1; c <= hi; c++) print c }'
}

first_line() { head -n 1 "$1" 2>/dev/null; }

# The chosen word of a sysfs "a [b] c" file.
choice() { first_line "$1" | sed "s/.*\[\(.*\)\].*/\1/"; }

report_noise() {
	local cpu=$1 dir=/sys/devices/system/cpu/cpu$1 gov virt sib load n
	gov=$(first_line "$dir/cpufreq/scaling_governor")
	if [ -z "$gov" ]; then
		say "cpufreq: not exposed here (usual in a VM: the host sets the clock, unseen)"
	elif [ "$gov" = performance ]; then
		say "cpufreq: governor $gov on CPU $cpu (steady clock)"
	else
		say "cpufreq: governor $gov on CPU $cpu: the clock can change mid-run; 'performance' keeps it steady (needs root; not changed here)"
	fi
	say "THP: enabled=$(choice /sys/kernel/mm/transparent_hugepage/enabled) defrag=$(choice /sys/kernel/mm/transparent_hugepage/defrag)"
	if grep -qw hypervisor /proc/cpuinfo 2>/dev/null; then
		virt=$(systemd-detect-virt --vm 2>/dev/null)
		[ "$virt" = none ] && virt=
		say "virtual machine: yes${virt:+ ($virt)}: the host can pause this vCPU at any moment; expect outliers in p99.9 and max that are not the program's"
	else
		say "virtual machine: no hypervisor flag in /proc/cpuinfo"
	fi
	sib=$(first_line "$dir/topology/thread_siblings_list")
	if [ -n "$sib" ] && [ "$sib" != "$cpu" ]; then
		say "SMT: CPU $cpu shares a core with CPUs $sib: work there slows this one"
	fi
	load=$(cut -d' ' -f1 /proc/loadavg 2>/dev/null)
	n=$(allowed_cpus | wc -l)
	[ -n "$load" ] && say "load: $load (1-minute average) on $n CPU(s) this shell may use: other work shares them"
}

quiet= cpu=
while [ $# -gt 0 ]; do
	case $1 in
	-h|--help) usage; exit 0 ;;
	-q) quiet=1; shift ;;
	-c) [ $# -ge 2 ] || bad_usage "-c needs a CPU number"
	    cpu=$2; shift 2 ;;
	-c*) cpu=${1#-c}; shift ;;
	--) shift; break ;;
	-*) bad_usage "unknown option '$1'" ;;
	*) break ;;
	esac
done
[ $# -gt 0 ] || bad_usage "no command to run"

cpus=$(allowed_cpus)
if [ -z "$cpu" ]; then
	cpu=$(echo "$cpus" | tail -n 1)
elif ! [[ $cpu =~ ^[0-9]+$ ]]; then
	bad_usage "-c wants a CPU number, not '$cpu'"
elif ! grep -qx "$cpu" <<<"$cpus"; then
	bad_usage "CPU $cpu is not one this shell may use ($(echo $cpus | tr ' ' ','))"
fi

if command -v taskset >/dev/null 2>&1; then
	say "pinned to CPU $cpu with taskset"
	[ -n "$quiet" ] || report_noise "$cpu"
	exec taskset -c "$cpu" "$@"
fi
quiet='' say "taskset not found (it is in util-linux): running unpinned, so the scheduler may move the program between CPUs"
[ -n "$quiet" ] || report_noise "$cpu"
exec "$@"
