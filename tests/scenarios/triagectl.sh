# The admin's loop with triagectl against the real kernel: check, load,
# status, rank, explain, log, test; a refused load leaves the old policy;
# log --follow is woken by the kernel as each decision is recorded.
# mem: 256M
# plan: 23
set_oom_policy "triage classic"
printf 'protect type=protected_t\nsacrifice type=batch_t\n' >/tmp/site.policy
printf 'protect type=protected_tt\n' >/tmp/bad.policy
check "check accepts a good policy against the loaded SELinux policy" triagectl check /tmp/site.policy
triagectl check /tmp/bad.policy >/tmp/check.out 2>&1
check_eq "check rejects an unknown type with exit 1" 1 "$?"
check "and suggests the near name" grep -q "unknown SELinux type 'protected_tt' (did you mean 'protected_t'?)" /tmp/check.out
diag "$(cat /tmp/check.out)"
check "load puts the policy in force" sh -c 'triagectl load /tmp/site.policy >/tmp/load.out 2>&1'
diag "$(cat /tmp/load.out)"
hash=$(sed -n 's/^policy_hash //p' $TRIAGE/stats)
check "load prints the kernel's policy hash" grep -q "$hash" /tmp/load.out
if triagectl load /tmp/bad.policy >/tmp/load2.out 2>&1; then tap_fail "a bad load is refused"; else tap_ok "a bad load is refused"; fi
check_eq "and the old policy stays in force" "$hash" "$(sed -n 's/^policy_hash //p' $TRIAGE/stats)"
check "status shows the mode and hash" sh -c "triagectl status | grep -q enforce && triagectl status | grep -q $hash"
triagectl status >/dev/null 2>&1
check_eq "status exits 0 with a policy loaded" 0 "$?"
check "status shows the OOM chain with triage in it" sh -c 'triagectl status | grep -q "^OOM chain  *triage classic"'
printf 'protect type=protected_t\n' >/tmp/next.policy
check "load --dry-run shows the change" sh -c 'triagectl load --dry-run /tmp/next.policy | grep -q "^  - sacrifice type=batch_t"'
check_eq "and loads nothing" "$hash" "$(sed -n 's/^policy_hash //p' $TRIAGE/stats)"
check "check - reads the policy from stdin" sh -c 'triagectl check - </tmp/site.policy'
# no permission: its own exit code and a message that says what is needed
tr-asuser 1000 triagectl load --no-selinux /tmp/next.policy >/tmp/perm.out 2>&1
check_eq "an unprivileged load exits 4 (no permission)" 4 "$?"
diag "$(cat /tmp/perm.out)"
check "and says why" grep -qE "needs CAP_MAC_ADMIN|permission denied" /tmp/perm.out
check_eq "and the policy stays" "$hash" "$(sed -n 's/^policy_hash //p' $TRIAGE/stats)"

cg=$(memcg ctl 64M)
hog db protected_t "$cg" 30
hog batch batch_t "$cg" 6
triagectl rank >/tmp/rank.out
diag "$(cat /tmp/rank.out)"
check "rank puts the batch job first" sh -c "sed -n 2p /tmp/rank.out | grep -qw $(pid_of batch)"
triagectl explain "$(pid_of db)" >/tmp/explain.out
diag "$(cat /tmp/explain.out)"
check "explain shows db protected by rule 1" sh -c 'grep -q protect /tmp/explain.out && grep -q "rule 1" /tmp/explain.out'
printf 'never type=protected_t\ndies-first type=batch_t\nbefore type=batch_t < type=protected_t\n' >/tmp/conf.scenario
check "test: the conformance scenario passes (TAP)" sh -c 'triagectl test /tmp/conf.scenario >/tmp/test.out'
diag "$(cat /tmp/test.out)"
push pusher user_t "$cg" 34
check_eq "the OOM killed the batch job" killed:9 "$(status batch)"
triagectl log >/tmp/log.out
diag "$(cat /tmp/log.out)"
check "log shows the decision" grep -qw "$(pid_of batch)" /tmp/log.out
stop_all

# log --follow waits on the decisions file, which the kernel signals: a
# new decision shows within seconds, not at its 30-second fallback look
triagectl log --follow --json >/tmp/follow.out 2>/tmp/follow.err &
follower=$!
nap 1
cg=$(memcg follow 48M)
start fvictim batch_t "$cg" tr-hog --mib 64 --step-mib 4 --step-ms 10
status fvictim >/dev/null
n=0
while [ $n -lt 50 ] && ! grep -qE "\"pid\":$(pid_of fvictim)[,}]" /tmp/follow.out; do
	sleep 0.1
	n=$((n + 1))
done
check "log --follow printed the new decision within 5 s of the kill" \
	grep -qE "\"pid\":$(pid_of fvictim)[,}]" /tmp/follow.out
check_eq_empty "and reported nothing lost" "$(grep lost /tmp/follow.out /tmp/follow.err)"
diag "$(tail -n 2 /tmp/follow.out)"
kill $follower 2>/dev/null
stop_all
