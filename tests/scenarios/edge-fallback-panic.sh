# Every candidate protected and the policy's fallback is panic: the kernel
# panics with triage's message (honouring kernel.panic; here panic=-1
# reboots at once, which ends QEMU) instead of livelocking.
# mem: 256M
# plan: 1
# expect-panic: every OOM candidate is protected (fallback panic)
echo "triage classic" >/proc/sys/vm/oom_policy
check "fallback panic policy loads" load_policy "fallback panic
protect type=web_t
protect type=protected_t"
cg=$(memcg fbpanic 32M)
hog p protected_t "$cg" 8
start solo web_t "$cg" tr-hog --mib 64
nap 20
tap_fail "the kernel should have panicked"
