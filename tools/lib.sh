# tools/lib.sh - shell helpers shared by the kit's scripts (sourced, not
# run).  Each script sets `prog` (its name in messages) before using them.

# die MESSAGE: a failure of the run, not of the user's input: exit 1.
die() { echo "$prog: $*" >&2; exit 1; }

# need_count NAME VALUE MAX: VALUE must be a whole number from 1 to MAX,
# or the script stops before running anything: one line, exit 2.
need_count() {
	[[ $2 =~ ^[1-9][0-9]{0,17}$ ]] && [ "$2" -le "$3" ] 2>/dev/null && return 0
	echo "$prog: $1 wants a whole number from 1 to $3, not '$2'" >&2
	exit 2
}

# show_cmd WORDS...: print a command as a student would type it, "$ cmd";
# one that would pass 96 columns is broken after its VAR=value words with
# a backslash, which is still valid shell.
show_cmd() {
	local envs='' cmd
	while [ $# -gt 1 ] && [[ $1 == *=* ]]; do envs="$envs$1 "; shift; done
	cmd="$*"
	if [ $(( ${#envs} + ${#cmd} + 2 )) -gt 96 ] && [ -n "$envs" ]; then
		printf '$ %s\\\n    %s\n' "$envs" "$cmd"
	else
		printf '$ %s%s\n' "$envs" "$cmd"
	fi
}
