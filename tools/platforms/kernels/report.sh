# tools/platforms/kernels/report.sh - make kernels' tables, from the boots' console logs:
# the ML| lines into arrays (parse, read_logs), a table per architecture
# and page size (table), drawn by tools/platforms/table.sh.
# Sourced by tools/platforms/kernels.sh (its main, options and the
# variables they set: CACHE, FRAMES, JOBS, TIMEOUT ...); functions and
# their data only, nothing runs.

declare -A MEAS PRED KIND PROBE SUBMIT SUBERR SCORE GRADE GFAIL COLWHY REL THPS
FAILED=0 ACCEL=tcg
BLOCK=()

# short SUITE: the column's kernel, as "6.1" or "6.12", and for arm64 its
# page size, "6.12/16K".
short() {
	local rel=${REL[$1]:-$1} pg=
	is_arm "$1" && pg=/${1#arm64-} && pg=${pg^^}
	echo "$rel" | awk -F'[.-]' -v pg="$pg" '{ print $1 "." $2 pg }'
}

# family SUITE: the columns that share a table: amd64, or arm64 at one page
# size (a prediction is in pages: it differs from one page size to another).
family() { is_arm "$1" && echo "$1" || echo amd64; }

# parse COL LOG: the guest's ML| lines into the arrays above.
parse() {
	local col=$1 tag a b c d
	while IFS='|' read -r tag a b c d; do
		case $tag in
		kernel) REL[${col% *}]=$a ;;
		thp) THPS[$col]=$a ;;
		probe) PROBE[$col]=$a ;;
		row) MEAS[$col,$a]=$b; PRED[$col,$a]=$c; KIND[$col,$a]=$d ;;
		submit) SUBMIT[$col]=$a ;;
		submiterr) [ -n "${SUBERR[$col]:-}" ] || SUBERR[$col]=$a ;;
		grade) SCORE[$col]=$a; GRADE[$col]=$b ;;
		gradefail) GFAIL[$col]="${GFAIL[$col]:-}$a"$'\n' ;;
		esac
	done < <(tr -d '\r' <"$2" | sed -n 's/^ML|//p')
}

# The tables' layout (tools/platforms/table.sh): a check's label and its
# prediction, then a cell a column: a value right-aligned in 9 columns,
# then two marks.
TABLE_LEAD='%-18s%10s' TABLE_CELL='%9s%-2s'

# cell VALUE MARKS: the next cell of the row being drawn.
cell() { table_cell "$1" "$2"; }

# TOL: how far an "exact" count may stray, in faults: the grader's own
# (fault_tolerance(), tools/grading/steps.awk), read by table().
TOL=0

# diff_mark COL VALUE ARRAY [LABEL]: "+" when the first kernel's column of
# the same THP mode holds a number more than the tolerance away from VALUE.
diff_mark() {
	local first=${BLOCK[0]%% *} other v=$2
	local -n arr=$3
	other=${arr[$first ${1#* }${4:+,$4}]:-}
	[ "${1% *}" != "$first" ] && [[ $v =~ ^[0-9]+$ && $other =~ ^[0-9]+$ ]] &&
		[ $((v > other ? v - other : other - v)) -gt "$TOL" ] && echo "+"
}

# count_cell COL LABEL: measured faults, marked against the prediction.
count_cell() {
	local m=${MEAS[$1,$2]:-} p=${PRED[$1,$2]:-} k=${KIND[$1,$2]:-} mark="~"
	if [[ ! $m =~ ^[0-9]+$ ]]; then FAILED=1; cell failed "*"; return; fi
	if [ "$k" = exact ] && [[ $p =~ ^[0-9]+$ ]]; then
		mark=" "
		[ $((m > p ? m - p : p - m)) -gt "$TOL" ] && { mark="*"; FAILED=1; }
	fi
	cell "$m" "$mark$(diff_mark "$1" "$m" MEAS "$2")"
}

probe_cell() { cell "${PROBE[$1]:-?}" " $(diff_mark "$1" "${PROBE[$1]:-}" PROBE)"; }
submit_cell() {
	[ "${SUBMIT[$1]:-}" = 0 ] && { cell 0 ""; return; }
	FAILED=1
	cell "${SUBMIT[$1]:-none}" "*"
}
score_cell() { cell "${SCORE[$1]:-none}" ""; }
# grade exit: 0, or 3 (ENV checks only, never a FAIL) under THP always.
grade_cell() {
	local g=${GRADE[$1]:-none}
	if [ "$g" = 0 ] || { [ "$g" = 3 ] && [ "${1#* }" = always ]; }; then cell "$g" ""
	else FAILED=1; cell "$g" "*"; fi
}

# row LABEL PREDICTED FUNCTION [ARG]: one line, FUNCTION COL [ARG] a cell.
row() {
	local col
	for col in "${BLOCK[@]}"; do
		if [ -n "${COLWHY[$col]:-}" ]; then cell "${COLWHY[$col]}" ""; else "$3" "$col" ${4+"$4"}; fi
	done
	table_line "$1" "$2"
}

# block: one table, the columns in BLOCK (one family).
block() {
	local col label envs args p pred note=''
	for col in "${BLOCK[@]}"; do cell "$(short "${col% *}")" ""; done
	table_line kernel ""
	for col in "${BLOCK[@]}"; do cell "${col#* }" ""; done
	table_line THP predicted
	while IFS='|' read -r label envs args; do
		# The prediction column: the first column's; others that differ are
		# listed under the table and the prediction gets a "?".
		pred=
		for col in "${BLOCK[@]}"; do
			p=${PRED[$col,$label]:-}
			[[ $p =~ ^[0-9]+$ ]] || continue
			[ -z "$pred" ] && pred=$p
			[ "$p" = "${pred%?}" ] || [ "$p" = "$pred" ] && continue
			note="$note  $label, $(short "${col% *}") ${col#* }: $p"$'\n'
			pred="${pred%\?}?"
		done
		row "$label" "${pred:--}" count_cell "$label"
	done <<<"$CHECKS"
	row "read faults a page" - probe_cell
	row "make submit exit" 0 submit_cell
	row "grade score" - score_cell
	row "grade exit" "0 / 3" grade_cell
	[ -n "$note" ] && printf 'Other predictions ("?" above):\n%s' "$note"
	echo
}

table() {
	local col s thp fam done_fams=' '
	TOL=$(awk -v KIND=tolerance -f tools/grading/steps.awk) || return 1
	for col in "${COLS[@]}"; do
		fam=$(family "${col% *}")
		[[ $done_fams == *" $fam "* ]] && continue
		done_fams="$done_fams$fam "
		BLOCK=()
		for s in "${COLS[@]}"; do [ "$(family "${s% *}")" = "$fam" ] && BLOCK+=("$s"); done
		block
	done
	cat <<EOF
Cells: minor faults measured in the guest, $FRAMES frames a check (frames --csv); "predicted"
is the program's own predicted_faults column, the same in every column unless marked "?".
*  fails: an "exact" prediction missed by more than $TOL faults (the grader's
   tolerance), or an exit that fails
~  the prediction is an upper bound here (huge pages may back the frames): not checked
+  differs by more than $TOL from the first kernel's count under the same THP mode
grade exit: 0 passes, and 3 (ENV checks only) under THP always.
EOF
	for s in $SUITES; do
		[ -n "${REL[$s]:-}" ] || continue
		thp=
		for col in "${COLS[@]}"; do
			[ "${col% *}" = "$s" ] && [ -n "${THPS[$col]:-}" ] && { thp=${THPS[$col]}; break; }
		done
		printf '%s = %s%s; THP %s\n' "$(short "$s")" \
			"$(cat "$CACHE/$s/ready/package" 2>/dev/null || echo "linux-image-${REL[$s]}")" \
			"$(is_arm "$s" || echo " ($s)")" "$(echo "${thp:-?}" | sed 's/enabled=[a-z]* *//')"
	done
	for s in $SUITES; do is_arm "$s" || { echo "amd64: qemu-system-x86_64, $ACCEL, 2 CPUs, 2 GiB"; break; }; done
	for s in $SUITES; do
		is_arm "$s" || continue
		echo "arm64: qemu-system-aarch64 -M virt -cpu max, tcg, 2 CPUs, 2 GiB; bookworm's arm64"
		echo "  userland (glibc 2.36) and the labs cross-built by make build-arm64"
		break
	done
	echo "make submit in each guest:"
	echo "  $SUBMIT_KNOBS"
	for col in "${COLS[@]}"; do
		[ -n "${SUBERR[$col]:-}" ] && printf '%s %s: make submit: %s\n' "$(short "${col% *}")" "${col#* }" \
			"${SUBERR[$col]}" | cut -c1-100
		[ -n "${GFAIL[$col]:-}" ] || continue
		printf '%s' "${GFAIL[$col]}" | head -n 4 | while read -r s; do
			printf '%s %s: %s\n' "$(short "${col% *}")" "${col#* }" "$s" | cut -c1-100
		done
	done
}

# show_table: the table without the cells' trailing blanks (table runs in
# this shell: it sets FAILED).
show_table() {
	local t
	t=$(mktemp) || die "mktemp failed"
	table >"$t"
	sed 's/ *$//' "$t"
	rm -f "$t"
}

# read_logs: every column's console log in $LOGS into the arrays; a column
# without one (or with a .why file: the boot failed) is "no boot".
read_logs() {
	local col log
	for col in "${COLS[@]}"; do
		[ -n "${COLWHY[$col]:-}" ] && continue
		log=$LOGS/${col/ /-}.console
		if [ -f "${log%.console}.why" ] || [ ! -f "$log" ]; then
			echo "$prog: ${REL[${col% *}]:-${col% *}}, THP ${col#* }: $(cat "${log%.console}.why" 2>/dev/null ||
				echo "no console log") (console: $log)" >&2
			COLWHY[$col]="no boot"
			FAILED=1
		else
			parse "$col" "$log"
		fi
	done
}
