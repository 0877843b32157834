# A memory cgroup OOM among labelled processes, decided by the stock
# kernel: the largest task dies, whatever its label.
# mem: 256M
# plan: 7
cg=$(memcg stock 64M)
hog big web_t "$cg" 36
hog small batch_t "$cg" 8
check_eq "big runs in web_t" web_t "$(cut -d: -f3 /proc/$(pid_of big)/attr/current)"
check_eq "small runs in batch_t" batch_t "$(cut -d: -f3 /proc/$(pid_of small)/attr/current)"

# the pusher grows past the limit; at that moment it is smaller than big
push pusher user_t "$cg" 24

check_eq "big (web_t, largest) was SIGKILLed" killed:9 "$(status big)"
check "the kernel logged big as the OOM victim" oom_killed_in_log big
check_eq "big was the first OOM victim" "$(pid_of big)" "$(first_victim)"
check "memory.events counts the oom_kill" [ "$(memcg_event "$cg" oom_kill)" -ge 1 ]
check "small (batch_t) survived" alive small
stop_all
