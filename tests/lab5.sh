#!/usr/bin/env bash
# tests/lab5.sh - Lab 5 (yes.c): argument parsing, the alignment each row
# claims against the address the kernel really saw, bytes written against
# bytes read, and write() counts.  Small runs only:
# nothing here depends on how fast the pipe is.
. "$(dirname "$0")/lib.sh" || exit 1

PAGE=$(getconf PAGESIZE)

# ---------------------------------------------------------------- parsing
./yes --help >"$TMP/out" 2>"$TMP/err"
if [ $? -eq 0 ] && grep -q '^usage: ' "$TMP/out" && [ ! -s "$TMP/err" ]; then
	pass "yes --help: usage on stdout, exit 0"
else
	fail "yes --help: usage on stdout, exit 0" "$(head -c 200 "$TMP/err")"
fi
check_usage_error "yes: --size below 16" ./yes --size 8
check_usage_error "yes: --size junk" ./yes --size 4KB2
check_usage_error "yes: --size above 64M" ./yes --size 65M
check_usage_error "yes: --align unknown" ./yes --align page+4
check_usage_error "yes: --reps 0" ./yes --reps 0
check_usage_error "yes: --reps 100" ./yes --reps 100
check_usage_error "yes: --bytes 0" ./yes --bytes 0
check_usage_error "yes: --bytes negative" ./yes --bytes -1
check_usage_error "yes: --cpus with one CPU" ./yes --cpus 0
check_usage_error "yes: --cpus not numbers" ./yes --cpus a,b
check_usage_error "yes: --cpus beyond CPU_SETSIZE" ./yes --cpus 0,99999
check_usage_error "yes: --cpus on a CPU this process may not use" ./yes --cpus 0,1023
check_usage_error "yes: --read with --size" ./yes --read 1M --size 4K
check_usage_error "yes: a stray argument" ./yes 4096
check_usage_error "yes: unknown option" ./yes --fast
check_usage_error "yes: --bytes without a value" ./yes --bytes

# ------------------------------------------------- counts from the program
# 64 KiB a run in 4 KiB writes: 16 write() calls per run, every byte read.
./yes --csv --size 4K --reps 2 --bytes 64K >"$TMP/l5_csv" 2>"$TMP/err"
if [ $? -ne 0 ] || [ "$(wc -l <"$TMP/l5_csv")" -ne 11 ]; then
	fail "yes --csv: a header and one row per alignment and rep" "$(head -c 300 "$TMP/err")"
else
	pass "yes --csv: a header and one row per alignment and rep"
	# Columns: size,align,addr_mod_page,rep,bytes_written,bytes_read,writes,...
	bad=$(awk -F, 'NR > 1 && ($5 != 65536 || $6 != 65536) { print $2 " rep " $4 ": " $5 " written, " $6 " read" }' "$TMP/l5_csv")
	if [ -z "$bad" ]; then pass "yes: bytes written = bytes read = --bytes in every run"
	else fail "yes: bytes written = bytes read = --bytes in every run" "$bad"; fi
	bad=$(awk -F, 'NR > 1 && ($7 != 16 || $8 != 0) { print $2 ": " $7 " writes, " $8 " short" }' "$TMP/l5_csv")
	if [ -z "$bad" ]; then pass "yes: write() calls = bytes / size (16), none short"
	else fail "yes: write() calls = bytes / size (16), none short" "$bad"; fi
	# What each row claims: page rows start on a page boundary plus their
	# offset; malloc's address is at least 16-byte aligned (glibc's
	# MALLOC_ALIGNMENT on x86-64).
	bad=$(awk -F, 'NR > 1 {
		want = $2 == "page" ? 0 : $2 == "page+1" ? 1 : $2 == "page+8" ? 8 : $2 == "page+16" ? 16 : -1
		if ((want >= 0 && $3 != want) || (want < 0 && $3 % 16 != 0)) print $2 ": " $3 }' "$TMP/l5_csv")
	if ! needs_solution lab5.page_buffer "yes: each row's address mod the page size is the alignment it claims"; then :
	elif [ -z "$bad" ]; then pass "yes: each row's address mod the page size is the alignment it claims"
	else fail "yes: each row's address mod the page size is the alignment it claims" "$bad"; fi
fi

# A size that does not divide --bytes: ceil(10000 / 4096) = 3 writes.
./yes --size 4K --align page --reps 1 --bytes 10000 >"$TMP/l5_one"
cmp_num "yes: 10000 bytes in 4 KiB writes take 3 write() calls" "$(field "$TMP/l5_one" writes)" -eq 3
cmp_num "yes: ... and the reader gets all 10000 bytes" "$(field "$TMP/l5_one" 'bytes read')" -eq 10000

# The header names the string-copy features /proc/cpuinfo's first flags
# line lists (the page+1 column's context), or says there is no such line.
want=$(awk '/^flags/ && !seen { seen = 1
		for (i = 3; i <= NF; i++) { if ($i == "erms") e = 1; if ($i == "fsrm") f = 1 } }
	END { if (!seen) print "n/a (no x86 flags line in /proc/cpuinfo)"
		else if (!e && !f) print "neither erms nor fsrm (/proc/cpuinfo)"
		else print (e ? "erms" : "") (e && f ? " " : "") (f ? "fsrm" : "") " (/proc/cpuinfo)" }' \
	/proc/cpuinfo 2>/dev/null)
got=$(sed -n 's/^# cpu copy:  //p' "$TMP/l5_one")
if [ -n "$got" ] && [ "$got" = "$want" ]; then
	pass "yes: the header's cpu copy line is /proc/cpuinfo's ($got)"
else
	fail "yes: the header's cpu copy line is /proc/cpuinfo's" "printed '$got', want '$want'"
fi

# Reading the header's facts must not move the heap: the malloc buffer
# starts at the same offset whether the header is printed or not (--csv).
./yes --size 2K --align malloc --reps 1 --bytes 64K >"$TMP/l5_hdr"
./yes --csv --size 2K --align malloc --reps 1 --bytes 64K >"$TMP/l5_nohdr"
cmp_num "yes: malloc(2K)'s offset in its page is the same with the header as without" \
	"$(field "$TMP/l5_hdr" 'address % page')" -eq "$(awk -F, 'NR == 2 { print $3 }' "$TMP/l5_nohdr")"

# The report's premise: "malloc returns page-aligned memory above a cutoff".
# On glibc a block above the mmap threshold is its own mapping (page-aligned)
# but the user's bytes start after the 16-byte chunk header.
./yes --size 1M --align malloc --reps 1 --bytes 1M >"$TMP/l5_big"
cmp_num "yes: malloc(1 MiB) in a fresh process starts 16 bytes into a page, not on one" \
	"$(field "$TMP/l5_big" 'address % page')" -eq 16

# ------------------------------------------- what the kernel really saw
# strace shows each write()'s buffer address (raw=write keeps it numeric);
# the addresses, in run order, must match the CSV's claims, and their number
# must match bytes / size.  Without -f only the writer is traced.
if ! strace_ok; then
	skip "yes: write() addresses and counts seen by strace" "$STRACE_WHY"
else
	strace -o "$TMP/l5_strace" -e trace=write -e raw=write \
		./yes --csv --size 4K --reps 1 --bytes 64K >"$TMP/l5_csv1"
	n=$(grep -cE '^write\(0x[0-9a-f]+, 0x[0-9a-f]+, 0x1000\) += 0x1000$' "$TMP/l5_strace")
	cmp_num "yes under strace: 5 runs x 16 write() calls of 4096 bytes" "$n" -eq 80
	# One buffer address per run (uniq folds a run's 16 calls), then mod the page size.
	seen=$(sed -nE 's/^write\(0x[0-9a-f]+, 0x([0-9a-f]+), 0x1000\).*/\1/p' "$TMP/l5_strace" |
		uniq | while read -r a; do echo $((16#$a % PAGE)); done | paste -sd' ')
	claimed=$(awk -F, 'NR > 1 { printf "%s%d", (NR > 2 ? " " : ""), $3 }' "$TMP/l5_csv1")
	if [ -n "$seen" ] && [ "$seen" = "$claimed" ]; then
		pass "yes: the addresses write() got mod $PAGE ($seen) are the ones claimed"
	else
		fail "yes: the addresses write() got mod $PAGE are the ones claimed" "strace: '$seen', csv: '$claimed'"
	fi
fi

# ----------------------------------------------------------------- --read
head -c 1000000 /dev/zero | ./yes --read 1000000 >"$TMP/l5_read"
cmp_num "yes --read: counts every byte of stdin" "$(field "$TMP/l5_read" 'bytes read')" -eq 1000000
check_exit "yes --read: stdin shorter than asked is an error (exit 1)" 1 \
	sh -c 'head -c 10 /dev/zero | ./yes --read 100'
