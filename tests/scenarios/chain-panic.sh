# The panic policy first in the chain panics where vm.panic_on_oom=1
# would: a memory cgroup OOM passes to the next policy (a tenant cannot
# panic the machine), a system-wide OOM panics with the policy's message
# after the OOM report (the runner expects this panic).
# mem: 256M
# plan: 4
# expect-panic: oom policy panic
echo "panic classic" >/proc/sys/vm/oom_policy
check_eq "panic is first in the chain" "panic classic" "$(cat /proc/sys/vm/oom_policy)"
cg=$(memcg panic 32M)
start hog user_t "$cg" tr-hog --mib 64
check_eq "memcg OOM: the hog was killed by the next policy, no panic" killed:9 "$(status hog)"
check "memcg OOM: classic decided (no policy named in the kill line)" sh -c \
	"dmesg | grep -q 'Memory cgroup out of memory: Killed process $(pid_of hog) '"
check "the OOM report was printed before" sh -c 'dmesg | grep -q "invoked oom-killer"'
start global user_t /sys/fs/cgroup tr-hog --mib 400 --step-mib 4 --step-ms 20
nap 60
tap_fail "the system-wide OOM should have panicked"
