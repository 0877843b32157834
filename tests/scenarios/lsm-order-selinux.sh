# triage listed before SELinux: the boot comes up, and SELinux types
# decide an OOM and a dynamic transition (setcon without exec).
# append: lsm=capability,triage,selinux
# mem: 256M
# plan: 11
lsm_order_oom "capability,triage,selinux" "protect type=protected_t
sacrifice type=batch_t" protected_t batch_t web_t system_u:system_r:protected_t:s1
