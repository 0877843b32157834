# The only candidate is the allocating task itself: alone in its memory
# cgroup it is killed whatever the policy says of it (sacrificed, no rule,
# protected with each non-panic fallback, protected with triage out of the
# chain); the OOM never livelocks, and each decision says what happened.
# mem: 256M
# plan: 21
echo "triage classic" >/proc/sys/vm/oom_policy
fallbacks() { sed -n 's/^fallbacks //p' $TRIAGE/stats; }

# solo NAME TYPE: NAME, of TYPE, alone in a fresh 32M cgroup, allocates
# 64 MiB; prints its cgroup
solo() {
	c=$(memcg "$1" 32M)
	start "$1" "$2" "$c" tr-hog --mib 64
	echo "$c"
}

check "sacrifice policy loads" load_policy "sacrifice type=batch_t"
c=$(solo solo-sacrificed batch_t)
check_eq "a sacrificed allocator alone in its cgroup is killed" killed:9 "$(status solo-sacrificed)"
check_eq "memory.events counts one oom_kill" 1 "$(memcg_event "$c" oom_kill)"
check_eq "the decision: sacrifice, killed, memcg" "sacrifice killed memcg" \
	"$(decision_for solo-sacrificed verdict) $(decision_for solo-sacrificed outcome) $(decision_for solo-sacrificed scope)"

check "a policy that names another domain loads" load_policy "protect type=protected_t"
c=$(solo solo-unmatched web_t)
check_eq "an allocator no rule matches, alone, is killed" killed:9 "$(status solo-unmatched)"
check_eq "the decision: no verdict, killed" "none killed" \
	"$(decision_for solo-unmatched verdict) $(decision_for solo-unmatched outcome)"

f0=$(fallbacks)
check "protect + fallback classic loads" load_policy "fallback classic
protect type=web_t"
c=$(solo solo-classic web_t)
check_eq "a protected allocator alone is killed by fallback classic" killed:9 "$(status solo-classic)"
check_eq "the decision says fallback-classic" fallback-classic "$(decision_for solo-classic outcome)"
check_eq "stats counts the fallback" $((f0 + 1)) "$(fallbacks)"

check "protect + fallback least-protected loads" load_policy "fallback least-protected
protect type=web_t"
c=$(solo solo-least web_t)
check_eq "a protected allocator alone is killed by fallback least-protected" killed:9 "$(status solo-least)"
check_eq "the decision says fallback-least-protected" fallback-least-protected \
	"$(decision_for solo-least outcome)"
check_eq "stats counts the fallback" $((f0 + 2)) "$(fallbacks)"

# triage out of the chain: the LSM hook still protects, the chain's last
# resort ignores the protection rather than kill nothing
echo classic >/proc/sys/vm/oom_policy
check "protect policy loads" load_policy "protect type=web_t"
c=$(solo solo-chain web_t)
check_eq "with classic alone in the chain, the protected allocator is still killed" killed:9 \
	"$(status solo-chain)"
check "the kernel says every candidate was protected" sh -c \
	"dmesg | grep -q 'every candidate protected, ignoring protection'"
diag "decision recorded for it: $(decision_for solo-chain verdict) $(decision_for solo-chain outcome)"

# permissive: triage records what it would do, the classic victim (the
# allocator, the only one) dies
echo "triage classic" >/proc/sys/vm/oom_policy
check "permissive sacrifice policy loads" load_policy "mode permissive
sacrifice type=batch_t"
c=$(solo solo-permissive batch_t)
check_eq "permissive: the lone allocator is killed" killed:9 "$(status solo-permissive)"
check_eq "permissive: triage logged would-kill for it" would-kill \
	"$(awk -F'\t' -v p="$(pid_of solo-permissive)" '$5 == p && $9 == "would-kill" {print $9}' $TRIAGE/decisions | tail -n 1)"
stop_all
