# The verdict follows what a label means after an SELinux policy reload
# (LSM_POLICY_CHANGE): reloading the same policy changes nothing; a
# policy without batch_t turns the running batch task's context invalid
# (SELinux shows it unlabeled) and its sacrifice verdict goes; the
# original policy brings both back; the next OOM follows the labels.
# Then a new triage policy: an OOM that met a task under the old policy
# (it lived on, under no rule) must not keep the old policy's answer for
# it in the next OOM, where the new policy sacrifices it.
# mem: 256M
# plan: 16
set_oom_policy "triage classic"
check "policy loads" load_policy "protect type=protected_t
sacrifice type=batch_t"
cg=$(memcg reload 80M)
hog db protected_t "$cg" 36
hog batch batch_t "$cg" 8
# verdict_of NAME: the verdict and rule columns of NAME's ranking row
verdict_of() { awk -F'\t' -v p="$(pid_of "$1")" '$2 == p {print $6, $7}' $TRIAGE/ranking; }
check "SELinux policy reloaded (same policy)" dd if=/etc/selinux/triage-test.bin of=/sys/fs/selinux/load bs=8M
check "the kernel logged the SELinux reload" audit_logged "type=1403"
check_eq "same policy: batch is still sacrificed by rule 2" "sacrifice 2" "$(verdict_of batch)"

check "a policy without batch_t loads" dd if=/etc/selinux/triage-test-nobatch.bin of=/sys/fs/selinux/load bs=8M
diag "batch's context now: $(cat /proc/$(pid_of batch)/attr/current 2>&1)"
check_eq "without batch_t: batch's verdict is gone" "none -" "$(verdict_of batch)"
check_eq "without batch_t: the database is still protected" "protect 1" "$(verdict_of db)"

check "the original policy loads again" dd if=/etc/selinux/triage-test.bin of=/sys/fs/selinux/load bs=8M
check_eq "batch_t back: batch is sacrificed again" "sacrifice 2" "$(verdict_of batch)"
push pusher user_t "$cg" 40
check_eq "batch was sacrificed after the reloads" killed:9 "$(status batch)"
check "db survived" alive db
check_eq "no label misses" 0 "$(sed -n 's/^label_misses //p' $TRIAGE/stats)"
stop_all

check "a policy without a web_t rule loads" load_policy "protect type=protected_t
sacrifice type=batch_t"
cg=$(memcg newpolicy 80M)
hog db2 protected_t "$cg" 36
hog web web_t "$cg" 4
hog ordinary user_t "$cg" 30
# the OOM comes from the bait itself: nobody else charges while its
# memory is freed, so no second victim (the kernel's race when a pusher
# goes on growing) can take the user_t task the next OOM needs
push bait batch_t "$cg" 16
check_eq "first OOM: the batch_t bait dies, web_t (no rule) and user_t live on" "killed:9 yes yes" \
	"$(status bait) $(alive web && echo yes) $(alive ordinary && echo yes)"
check "a policy sacrificing web_t loads" load_policy "protect type=protected_t
sacrifice type=web_t"
# 36 + 4 + 30 + 16 MiB: past the 80 MiB limit whatever the cgroup's own
# overhead (10 MiB, exactly 80, left the OOM to page tables and page
# cache, and a fresh clone's run did not reach it); what comes after
# web's death (another OOM, another victim) is not checked
push pusher2 user_t "$cg" 16
check_eq "the next OOM sacrifices web by the new policy's rule" "killed:9 sacrifice 2" \
	"$(status web) $(decision_for web verdict) $(decision_for web rule)"
stop_all
