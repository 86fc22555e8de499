#!/usr/bin/env bash
# tools/labs/lab8.sh [table] - Lab 8: your own program under glibc's
# malloc policies, as `make lab8` starts it.
#   table     ./policies on the worked example (./policies --pack, a
#             packer's blocks, whose faults it predicts), or on CMD
# Knobs (environment), checked before anything runs:
#   CMD       the command to measure, as typed at a shell: split into
#             words as the shell splits them ('...', "..." and \ honoured)
#             but nothing expanded and nothing run through a shell, so
#             CMD='sh -c "..."' is the way to a pipe or a redirection
#   REPEATS   runs a policy, interleaved (its default and range:
#             tools/labs/knobs)
# Standard input reaches the command: ./policies reads it once and
# replays it to every run.  The command is printed before it runs.
set -u -o pipefail
cd "$(dirname "$0")/../.." || exit 1
. tools/lib/lib.sh
prog=lab8

usage() {
	echo "usage: $0 [table]"
	echo "  knobs: CMD REPEATS (see the script's head)"
}
MODE=${1:-table}
[ "$MODE" = table ] || bad_usage "no mode '$(shown "$MODE")'"
[ $# -le 1 ] || bad_usage "one mode at most, not '$(shown "$*")'"
lab_knobs lab8 "$MODE"

# split_words TEXT: WORDS, TEXT cut into words as a shell cuts them:
# blanks separate; '...' keeps everything inside; "..." keeps everything
# but \ before " \ $ ` (which it drops); \ outside quotes keeps the next
# character.  Nothing is expanded: $, `, *, ~ are characters like any
# other.  An unclosed quote is the user's mistake: exit 2.
split_words() {
	local s=$1 i=0 c='' w='' have=0 q=''
	WORDS=()
	while [ "$i" -lt "${#s}" ]; do
		c=${s:i:1}
		i=$((i + 1))
		if [ "$q" = "'" ]; then
			if [ "$c" = "'" ]; then q=''; else w+=$c; fi
		elif [ "$q" = '"' ]; then
			if [ "$c" = '"' ]; then q=''
			elif [ "$c" = '\' ] && [[ ${s:i:1} == [\"\\\$\`] ]]; then w+=${s:i:1}; i=$((i + 1))
			else w+=$c; fi
		else
			case $c in
			' ' | $'\t' | $'\n')
				[ "$have" = 1 ] && WORDS+=("$w")
				w='' have=0 ;;
			"'" | '"') q=$c have=1 ;;
			'\') w+=${s:i:1} have=1; i=$((i + 1)) ;;
			*) w+=$c have=1 ;;
			esac
		fi
	done
	[ -z "$q" ] || bad_usage "CMD has an unclosed $q: $(shown "$s")"
	[ "$have" = 1 ] && WORDS+=("$w")
	return 0
}

need_built policies
leftover_settings "the defaults row"
if [ -n "${CMD:-}" ]; then
	split_words "$CMD"
	[ ${#WORDS[@]} -gt 0 ] || bad_usage "CMD holds no command"
else
	WORDS=(./policies --pack)
fi
# shown as it could be pasted: each word quoted where the shell needs it
mapfile -t shown_words < <(printf '%q\n' "${WORDS[@]}")
show_cmd ./policies --runs "$REPEATS" -- "${shown_words[@]}"
exec ./policies --runs "$REPEATS" -- "${WORDS[@]}"
