# Reloading the SELinux policy (LSM_POLICY_CHANGE) re-resolves every
# task's verdict: no misses, and the next OOM still follows the labels.
# mem: 256M
# plan: 7
echo "triage classic" >/proc/sys/vm/oom_policy
check "policy loads" load_policy "protect type=protected_t
sacrifice type=batch_t"
cg=$(memcg reload 80M)
hog db protected_t "$cg" 36
hog batch batch_t "$cg" 8
check "SELinux policy reloaded" dd if=/etc/selinux/triage-test.bin of=/sys/fs/selinux/load bs=8M
check "the kernel logged the SELinux reload" sh -c 'dmesg | grep -q "type=1403"'
check_eq "ranking still puts batch first" "$(pid_of batch)" "$(ranked_first)"
push pusher user_t "$cg" 40
check_eq "batch was sacrificed after the reload" killed:9 "$(status batch)"
check "db survived" alive db
check_eq "no label misses" 0 "$(sed -n 's/^label_misses //p' $TRIAGE/stats)"
stop_all
