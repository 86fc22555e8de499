# tools/lib/csv.awk - RFC 4180 CSV for the kit's scripts, in any POSIX awk
# (Debian's default awk is mawk: no FPAT; POSIX features only, tested under
# mawk, gawk and busybox awk).  Load it before a program:
#   awk -f tools/lib/csv.awk -f prog.awk   or   awk "$(cat tools/lib/csv.awk)"'...'
# csv_split(line, f) fills f[1..n] and returns n: quoted fields may hold
# commas and doubled quotes; a trailing CR (a CRLF file) is dropped.
# Records with a line break inside quotes are not supported: the kit's
# programs never write one.
function csv_split(line, f,    n, i, c, q, v) {
	sub(/\r$/, "", line)
	# No quote: the fields are the pieces between commas (one split, not
	# a loop a character: a 40 MB submission is 40 million of those).
	if (!index(line, "\"")) {
		if (line == "") { split("", f); f[1] = ""; return 1 }
		return split(line, f, ",")
	}
	n = 0; v = ""; q = 0
	for (i = 1; i <= length(line); i++) {
		c = substr(line, i, 1)
		if (q) {
			if (c == "\"") {
				if (substr(line, i + 1, 1) == "\"") { v = v "\""; i++ }
				else q = 0
			} else v = v c
		} else if (c == "\"") q = 1
		else if (c == ",") { f[++n] = v; v = "" }
		else v = v c
	}
	f[++n] = v
	return n
}

# csv_field(s): s as one CSV field that a spreadsheet keeps as text.  A
# leading = + - @ (a formula), tab or CR gets a ' in front; a field with a
# comma, quote, line break, that ' or an outer blank is quoted, its quotes
# doubled.  For text only: numbers the grader computed go out as they are.
function csv_field(s) {
	if (s ~ /^[=+@\t\r-]/) s = "'" s
	if (s ~ /[",\r\n']/ || s ~ /^ / || s ~ / $/) { gsub(/"/, "\"\"", s); s = "\"" s "\"" }
	return s
}
