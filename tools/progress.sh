# tools/progress.sh - progress for the kit's scripts (sourced, not run;
# the script sets `prog`).  `progress TEXT...` shows "prog: TEXT (N s)" on
# stderr, only when stderr is a terminal, overwritten in place and cut to
# 79 columns; `progress` alone clears it.  Clear it before printing a
# line, so no progress is ever left inside a table or a file.
PROGRESS_T0=$SECONDS
progress() {
	[ -t 2 ] || return 0
	if [ $# -gt 0 ]; then
		printf '\r\033[K%.79s' "$prog: $* ($((SECONDS - PROGRESS_T0)) s)" >&2
	else
		printf '\r\033[K' >&2
	fi
	return 0
}
