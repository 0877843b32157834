# triage listed before AppArmor (an admin's lsm= in any order): the boot
# comes up, labels are read only once AppArmor has filled in new
# credentials, and AppArmor profiles decide an OOM and a change_profile.
# append: lsm=capability,triage,apparmor
# mem: 256M
# plan: 11
lsm_order_oom "capability,triage,apparmor" "protect label=protected_job*
protect label=moved_job*
sacrifice label=batch_job*
protect label=unconfined" @protected_job @batch_job @web_job moved_job
