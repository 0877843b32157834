# Policy size limits and the empty policy: an empty (and a comments-only)
# policy loads with no rules and leaves the OOM to badness alone; a policy
# of exactly 256 KiB loads, one byte more is refused with E2BIG and the old
# policy stays; exactly 4096 rules load, 4097 are refused.
# mem: 256M
# plan: 23
set_oom_policy "triage classic"
write_policy() { dd if="$1" of=$TRIAGE/policy bs=1M 2>/tmp/load.err; }

# the empty policy: one newline (a write of no bytes writes nothing)
check "an empty policy (one newline) loads" load_policy ""
check_eq "stats: 0 rules" 0 "$(stat_of policy_rules)"
check_eq "reads back as the three settings" "mode enforce
fallback classic
oom-score-adj override" "$(cat $TRIAGE/policy)"
check "a comments-only policy loads" load_policy "# nothing to say"
check_eq "stats: 0 rules" 0 "$(stat_of policy_rules)"
cg=$(memcg empty 64M)
hog db protected_t "$cg" 30
hog batch batch_t "$cg" 4
push pusher user_t "$cg" 34
check_eq "with an empty policy the largest task dies, as without triage" killed:9 "$(status db)"
check "the small batch_t task survives" alive batch
check_eq "the decision: no rule" "none killed" "$(decision_for db verdict) $(decision_for db outcome)"
check "the kill message says no rule matched" sh -c "dmesg | grep -q 'no rule matched, highest badness'"
stop_all

# exactly 256 KiB: 4000 rules padded with comment lines to 262144 bytes
awk 'BEGIN { for (i = 0; i < 4000; i++) printf "adjust %+d type=edge_%04d_t\n", i % 1000, i }' >/tmp/p64
pad=$((262144 - $(stat -c %s /tmp/p64)))
awk -v r=$pad 'BEGIN {
	while (r >= 200) { printf "#"; for (i = 0; i < 98; i++) printf "x"; print ""; r -= 100 }
	printf "#"; for (i = 0; i < r - 2; i++) printf "x"; print "" }' >>/tmp/p64
check_eq "the file is 262144 bytes" 262144 "$(stat -c %s /tmp/p64)"
check "a policy of exactly 256 KiB loads" write_policy /tmp/p64
check_eq "with its 4000 rules" 4000 "$(stat_of policy_rules)"
check_eq "reads back 4003 lines" 4003 "$(wc -l <$TRIAGE/policy)"
h64=$(stat_of policy_hash)
g64=$(stat_of policy_generation)

# one byte more: refused before parsing
{ cat /tmp/p64; printf '#'; } >/tmp/p64plus
check_eq "the file is 262145 bytes" 262145 "$(stat -c %s /tmp/p64plus)"
if write_policy /tmp/p64plus; then
	tap_fail "a policy of 256 KiB + 1 byte is refused"
else
	check "a policy of 256 KiB + 1 byte is refused with E2BIG" grep -q "Argument list too long" /tmp/load.err
fi
check_eq "the 256 KiB policy stays in force" "$h64" "$(stat_of policy_hash)"
check_eq "policy_generation did not move" "$g64" "$(stat_of policy_generation)"
diag "load_error after the E2BIG: '$(cat $TRIAGE/load_error)'"

# exactly 4096 rules, then 4097
awk 'BEGIN { for (i = 0; i < 4096; i++) print "protect type=a" }' >/tmp/r4096
check "4096 rules load" write_policy /tmp/r4096
check_eq "stats: 4096 rules" 4096 "$(stat_of policy_rules)"
h4096=$(stat_of policy_hash)
{ cat /tmp/r4096; echo "protect type=b"; } >/tmp/r4097
if write_policy /tmp/r4097; then
	tap_fail "4097 rules are refused"
else
	check "4097 rules are refused with E2BIG" grep -q "Argument list too long" /tmp/load.err
fi
check_eq "load_error names the 4097th rule" "4097:1: too many rules (max 4096)" "$(cat $TRIAGE/load_error)"
check_eq "the 4096-rule policy stays in force" "$h4096" "$(stat_of policy_hash)"

# a 4096-rule policy still decides (every candidate matches rule 1 or none)
cg=$(memcg many 64M)
hog web web_t "$cg" 36
push pusher2 user_t "$cg" 40
check_eq "under a 4096-rule policy the OOM is decided (largest dies)" killed:9 "$(status web)"
stop_all
