# A relabel without exec, SELinux's way (setcon: a dynamic transition,
# which the test policy allows init_t), into a protected context that no
# task carried before: the verdict is in force when the write returns,
# before anything could have learnt the label (no fork, no exec, no OOM,
# no ranking read): oom_score says so at once and the next OOM spares the
# task although it is the largest.  lsm-order-selinux does the same with
# triage before SELinux in the LSM list.
# mem: 256M
# plan: 5
check "a policy protecting protected_t loads" load_policy "protect type=protected_t"
set_oom_policy "triage classic"
relabel_then_oom "$(memcg relabel 96M)" system_u:system_r:protected_t:s1 web_t
