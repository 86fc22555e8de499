# tools/platforms/table.sh - the one way make kernels and make matrix draw
# their tables (tools/platforms/kernels/report.sh, tools/platforms/matrix.sh):
# a line is its lead fields (a row's label, kernels' prediction), then a
# cell a column.  Sourced; the caller sets the two printf formats:
#   TABLE_LEAD  the lead fields': '%-24s' (matrix), '%-18s%10s' (kernels)
#   TABLE_CELL  one cell's: '%12s' (a value), '%9s%-2s' (a value right-
#               aligned, then its marks); every cell gives as many words
# table_cell WORD...: the next cell of the line being drawn.
# table_line LEAD...: that line: LEAD, then its cells; the cells are then
# emptied for the next line.  (printf takes the cells' words in turn,
# TABLE_CELL once a cell.)
TABLE_CELLS=()
table_cell() { TABLE_CELLS+=("$@"); }
table_line() {
	# shellcheck disable=SC2059
	printf "$TABLE_LEAD" "$@"
	# shellcheck disable=SC2059
	[ ${#TABLE_CELLS[@]} -eq 0 ] || printf "$TABLE_CELL" "${TABLE_CELLS[@]}"
	echo
	TABLE_CELLS=()
}
