# The only candidate is the allocating task itself: alone in its memory
# cgroup it is killed whatever the policy says of it (sacrificed, no rule,
# protected with each non-panic fallback, protected with triage out of the
# chain); the OOM never livelocks, and each decision says what happened.
# With vm.oom_kill_allocating_task, a global OOM kills the allocating task
# without a selection, unless an LSM protects it: then the chain decides.
# mem: 256M
# plan: 25
set_oom_policy "triage classic"
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
set_oom_policy classic
check "protect policy loads" load_policy "protect type=web_t"
c=$(solo solo-chain web_t)
check_eq "with classic alone in the chain, the protected allocator is still killed" killed:9 \
	"$(status solo-chain)"
check "the kernel says every candidate was protected" sh -c \
	"dmesg | grep -q 'every candidate protected, ignoring protection'"
diag "decision recorded for it: $(decision_for solo-chain verdict) $(decision_for solo-chain outcome)"

# permissive: triage records what it would do, the classic victim (the
# allocator, the only one) dies
set_oom_policy "triage classic"
check "permissive sacrifice policy loads" load_policy "mode permissive
sacrifice type=batch_t"
c=$(solo solo-permissive batch_t)
check_eq "permissive: the lone allocator is killed" killed:9 "$(status solo-permissive)"
check_eq "permissive: triage logged would-kill for it" would-kill \
	"$(awk -F'\t' -v p="$(pid_of solo-permissive)" '$5 == p && $9 == "would-kill" {print $9}' $TRIAGE/decisions | tail -n 1)"
stop_all

# vm.oom_kill_allocating_task=1, a global OOM: the protected grower is the
# allocating task.  With A MiB available, the batch job holds A/2 and the
# grower aims at 3A/4: it runs out at about A/2, and once the batch job is
# gone it ends below A.  Whoever else allocates meanwhile (this shell,
# init_t) would be killed as "the allocating task" too: it is protected.
set_oom_policy classic
check "protect + sacrifice policy loads" load_policy "protect type=protected_t
protect type=init_t
sacrifice type=batch_t"
avail=$(awk '/^MemAvailable:/ {print int($2 / 1024)}' /proc/meminfo)
diag "MemAvailable: $avail MiB"
hog ak-batch batch_t /sys/fs/cgroup $((avail / 2))
dmesg -c >/dev/null
echo 1 >/proc/sys/vm/oom_kill_allocating_task
start ak-grower protected_t /sys/fs/cgroup tr-hog --mib $((avail * 3 / 4)) --step-mib 4 --step-ms 10
check_eq "oom_kill_allocating_task: the sacrificed task dies, not the protected allocator" \
	killed:9 "$(status ak-batch)"
echo 0 >/proc/sys/vm/oom_kill_allocating_task
check_eq "it is the first victim" "$(pid_of ak-batch)" "$(first_victim)"
if alive ak-grower; then
	tap_ok "the protected allocating task was not killed"
else
	tap_fail "the protected allocating task was not killed ($(status_now ak-grower))"
fi
diag "$(dmesg | grep -E 'Killed process|invoked oom-killer')"
stop_all
