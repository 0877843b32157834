# The kernel built without the OOM policy chain (kernel/configs/nochain.config,
# and so without the triage LSM): no vm.oom_policy, no triage, and the OOM
# killer decides as upstream does.  Booted only on that kernel (tests/check,
# NOCHAIN_SCENARIOS); on the test kernel every check here would fail.
# mem: 256M
# plan: 6
check "no vm.oom_policy sysctl" [ ! -e /proc/sys/vm/oom_policy ]
check "no triage in the LSM list" sh -c '! grep -q triage /sys/kernel/security/lsm'
check "no triage securityfs directory" [ ! -e /sys/kernel/security/triage ]
cg=$(memcg stock 64M)
hog big web_t "$cg" 36
hog small batch_t "$cg" 8
push pusher user_t "$cg" 24
check_eq "the largest task (big) is killed" killed:9 "$(status big)"
check_eq "it was the first OOM victim" "$(pid_of big)" "$(first_victim)"
check "small lives" alive small
stop_all
