# tests/lab3.sh - Lab 3 (threads.c): argument parsing and fault counts
# predicted from first principles.  Sourced by tests/run.sh.
#
# The model: a request at or above the mmap threshold is its own fresh
# mapping, and writing all of its bytes faults once per page they touch:
# ceil((SIZE + 16) / 4096), since the user bytes start 16 bytes into the
# mapping.  That holds with 4 KiB anonymous pages; a machine that hands out
# larger folios (multi-size THP set to "always") faults less, so the fault
# checks are skipped there.

lab3_small_pages() {
	local top f
	top=$(cat /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null)
	for f in /sys/kernel/mm/transparent_hugepage/hugepages-*kB/enabled; do
		[ -r "$f" ] || continue
		case $f in *hugepages-2048kB*) continue ;; esac   # a 1 MB block cannot hold one
		if grep -q '\[always\]' "$f" ||
			{ grep -q '\[inherit\]' "$f" && [[ $top == *"[always]"* ]]; }; then
			LAB3_WHY="multi-size THP is on ($f): faults come in larger folios"
			return 1
		fi
	done
	return 0
}

# ---------------------------------------------------------------- parsing
./threads --help >"$TMP/out" 2>"$TMP/err"
if [ $? -eq 0 ] && grep -q '^usage: ' "$TMP/out" && [ ! -s "$TMP/err" ]; then
	pass "threads --help: usage on stdout, exit 0"
else
	fail "threads --help: usage on stdout, exit 0" "$(head -c 200 "$TMP/err")"
fi
check_usage_error "threads: no arguments" ./threads
check_usage_error "threads: two arguments" ./threads 1280000 10
check_usage_error "threads: four arguments" ./threads 1280000 10 2 3
check_usage_error "threads: SIZE 0" ./threads 0 10 2
check_usage_error "threads: SIZE with junk" ./threads 12x 10 2
check_usage_error "threads: SIZE above 1G" ./threads 2G 10 2
check_usage_error "threads: COUNT negative" ./threads 1280000 -5 2
check_usage_error "threads: COUNT with a suffix" ./threads 1280000 10K 2
check_usage_error "threads: THREADS 0" ./threads 1280000 10 0
check_usage_error "threads: THREADS 1025" ./threads 1280000 10 1025
check_usage_error "threads: --mode unknown" ./threads --mode old 1280000 10 2
check_usage_error "threads: --mode without a value" ./threads 1280000 10 2 --mode
check_usage_error "threads: --threshold 0" ./threads --threshold 0 1280000 10 2
check_usage_error "threads: --threshold above INT_MAX (mallopt takes an int)" \
	./threads --threshold 2G 1280000 10 2
check_usage_error "threads: --live junk" ./threads --live lots 1280000 10 2
check_usage_error "threads: unknown option" ./threads --fast 1280000 10 2

# ------------------------------------------------------------ fault counts
# Fixed 1,000,000-byte requests, 8 MiB live: 8 blocks per thread at 1
# thread.  245 = ceil((1000000 + 16) / 4096) pages per block.
if ! lab3_small_pages; then
	skip "threads: fault counts" "$LAB3_WHY"
else
	pages=$(( (1000000 + 16 + 4095) / 4096 ))
	./threads --fixed --mode pre25 --live 8M 1000000 200 1 >"$TMP/l3_pre25"
	# Every request above the pinned 128 KiB threshold is a new mapping:
	# 200 x 245 faults; 1% covers a stray page of the program's own.
	near "threads pre25, fixed 1 MB: faults = requests x pages per block" \
		"$(field "$TMP/l3_pre25" 'minor faults')" $((200 * pages)) 1
	cmp_num "threads pre25, fixed 1 MB: every request came from mmap" \
		"$(field "$TMP/l3_pre25" mmapped)" -eq 200

	# Today's default: the first free of a mapped block raises the threshold
	# to its size, so each of the 8 live blocks moves from its mapping to the
	# heap once, the heap faults in 8 chunks of 1,000,016 bytes, then frees
	# and mallocs of the same size reuse that memory: ~1,953 faults, not 49,000.
	./threads --fixed --mode default --live 8M 1000000 200 1 >"$TMP/l3_default"
	near "threads default, fixed 1 MB: the live set moves to the heap once, then no faults" \
		"$(field "$TMP/l3_default" 'minor faults')" $(( (8 * 1000016 + 4095) / 4096 )) 5

	# Tuned: the blocks were built in the heap, so the timed part reuses them.
	./threads --fixed --mode tuned --live 8M 1000000 200 1 >"$TMP/l3_tuned"
	cmp_num "threads tuned, fixed 1 MB: under 1% of pre25's faults" \
		"$(field "$TMP/l3_tuned" 'minor faults')" -le $((200 * pages / 100))

	# Random sizes up to 1280000 at 2 threads (the lab's own workload, scaled
	# down to 64 MiB live).  Done means: pre25 faults at least 5x tuned's.
	./threads --mode pre25 --live 64M 1280000 500 2 >"$TMP/l3_rpre25"
	./threads --mode tuned --live 64M 1280000 500 2 >"$TMP/l3_rtuned"
	pre=$(field "$TMP/l3_rpre25" 'minor faults')
	tun=$(field "$TMP/l3_rtuned" 'minor faults')
	cmp_num "threads random sizes, 2 threads: pre25 faults >= 5 x tuned's ($pre vs $tun)" \
		"$pre" -ge $((5 * tun))
	# The prediction for pre25 is the pages written in mapped blocks (the
	# program reads each chunk's IS_MMAPPED bit and sums ceil((s+16)/4096)).
	# Requests below the threshold add a few faults from the heap: allow 5%.
	mp=$(field "$TMP/l3_rpre25" 'mmapped pages')
	cmp_num "threads random sizes: pre25 faults >= pages written in mapped blocks" "$pre" -ge "$mp"
	cmp_num "threads random sizes: pre25 faults <= 105% of those pages" "$pre" -le $((mp * 105 / 100))
	# The same seed gives the same work whatever the mode.
	cmp_num "threads: same seed, same average request in both modes" \
		"$(field "$TMP/l3_rpre25" 'average request')" -eq "$(field "$TMP/l3_rtuned" 'average request')"
	cmp_num "threads: requests = COUNT x THREADS" "$(field "$TMP/l3_rpre25" requests)" -eq 1000
fi

# -------------------------------------------------------------------- csv
./threads --csv --mode tuned --live 4M 128000 100 2 >"$TMP/l3_csv"
if [ "$(wc -l <"$TMP/l3_csv")" -eq 2 ] && head -n 1 "$TMP/l3_csv" | grep -q '^mode,mmap_threshold,' &&
	[ "$(sed -n 2p "$TMP/l3_csv" | cut -d, -f1-3)" = "tuned,16777216,33554432" ]; then
	pass "threads --csv: a header and one row naming the settings used"
else
	fail "threads --csv: a header and one row naming the settings used" "$(head -c 300 "$TMP/l3_csv")"
fi
