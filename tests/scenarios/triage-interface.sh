# The policy file: a malformed policy is rejected whole with line, column
# and reason, and the old policy keeps deciding; only CAP_MAC_ADMIN may
# write; mode switches.
# mem: 256M
# smp: 2
# plan: 23
# the OOM killer asks the LSMs only while a policy can give a verdict
check_eq "no policy yet: the oom_select hook is off" off "$(sed -n 's/^oom_select_hook //p' $TRIAGE/stats)"
check "a good policy loads" load_policy "protect type=protected_t"
check_eq "a policy with a rule turns the hook on" on "$(sed -n 's/^oom_select_hook //p' $TRIAGE/stats)"
load_policy "mode enforce" >/dev/null
check_eq "a policy with no rule turns it off again" off "$(sed -n 's/^oom_select_hook //p' $TRIAGE/stats)"
load_policy "protect type=protected_t" >/dev/null
hash=$(sed -n 's/^policy_hash //p' $TRIAGE/stats)
if load_policy "protect type=protected_t
protec type=web_t"; then tap_fail "a malformed policy is rejected"; else tap_ok "a malformed policy is rejected"; fi
check "dd reports EINVAL" grep -q "Invalid argument" /tmp/load.err
check_eq "load_error names line, column and reason" "2:1: unknown keyword 'protec'" "$(cat $TRIAGE/load_error)"
check "the kernel log names the reason" sh -c "dmesg | grep -q \"triage: policy rejected: 2:1: unknown keyword 'protec'\""
check_eq "the old policy is still in force" "$hash" "$(sed -n 's/^policy_hash //p' $TRIAGE/stats)"
check "policy reads back in canonical form" sh -c "grep -qx 'protect type=protected_t' $TRIAGE/policy"
printf 'sacrifice type=web_t\n' >/tmp/p2
if tr-asuser 1000 dd if=/tmp/p2 of=$TRIAGE/policy bs=64k 2>/tmp/unpriv.err; then
	tap_fail "an unprivileged writer is refused"
else
	tap_ok "an unprivileged writer is refused"
fi
check "dd was refused with EPERM or EACCES" grep -qE "Operation not permitted|Permission denied" /tmp/unpriv.err
check_eq "and the old policy is still in force" "$hash" "$(sed -n 's/^policy_hash //p' $TRIAGE/stats)"
echo permissive >$TRIAGE/mode
check_eq "mode switches to permissive" permissive "$(cat $TRIAGE/mode)"
if echo bogus >$TRIAGE/mode 2>/dev/null; then tap_fail "a bad mode is refused"; else tap_ok "a bad mode is refused"; fi
check_eq "mode stays permissive" permissive "$(cat $TRIAGE/mode)"
# audit: loads, refusals and switches of enforcement have records of their own
sleep 0.5
check "AUDIT_TRIAGE_POLICY_LOAD (1428) for the accepted load, res=1" sh -c \
	"dmesg | grep 'type=1428' | grep -q 'policy_hash=$hash .*res=1'"
check "AUDIT_TRIAGE_POLICY_LOAD (1428) for the refused load, res=0 with the error" sh -c \
	"dmesg | grep 'type=1428' | grep -q 'policy_hash=? .*old_policy_hash=$hash .*error=.*res=0'"
check "AUDIT_TRIAGE_STATUS (1429) when protection was switched off" sh -c \
	"dmesg | grep 'type=1429' | grep -q 'enforcing=0 old_enforcing=1'"
check_eq "stats: no audit record dropped" 0 "$(sed -n 's/^audit_drops //p' $TRIAGE/stats)"

# Concurrent loaders, on two CPUs: each load publishes its policy, reports
# it (kernel log, audit) and frees the one it replaced after a grace
# period; a loader that read its own policy after letting the next loader
# in would read freed memory (KASAN, on the debug kernel).  Every load is
# in the log with its own generation.
echo enforce >$TRIAGE/mode
gen0=$(sed -n 's/^policy_generation //p' $TRIAGE/stats)
for w in 1 2 3; do
	(i=0; while [ $i -lt 40 ]; do
		printf 'protect type=protected_t\nadjust -%d type=web_t\n' "$w$i" >/tmp/loader$w.txt
		dd if=/tmp/loader$w.txt of=$TRIAGE/policy bs=1M 2>/dev/null || echo fail >>/tmp/loaders.err
		i=$((i + 1))
	done) &
done
wait
check_eq_empty "120 concurrent loads all succeeded" "$(cat /tmp/loaders.err 2>/dev/null)"
check_eq "the generation counted every load" $((gen0 + 120)) "$(sed -n 's/^policy_generation //p' $TRIAGE/stats)"
check_eq "the kernel log has each load once, with its own generation" 120 \
	"$(dmesg | sed -n 's/.*triage: policy \([0-9]*\) loaded: 2 rules.*/\1/p' | sort -u | awk -v g=$gen0 '$1 > g' | wc -l)"
