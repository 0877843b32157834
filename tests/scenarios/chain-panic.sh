# The panic policy first in the chain: the OOM panics with the policy's
# message (the runner expects this panic).
# mem: 256M
# plan: 1
# expect-panic: oom policy panic
echo "panic classic" >/proc/sys/vm/oom_policy
check_eq "panic is first in the chain" "panic classic" "$(cat /proc/sys/vm/oom_policy)"
cg=$(memcg panic 32M)
start hog user_t "$cg" tr-hog --mib 64
nap 30
tap_fail "the OOM did not panic"
