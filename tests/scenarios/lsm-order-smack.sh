# triage listed before Smack: the boot comes up, labels are read only
# once Smack has filled in new credentials, and Smack labels decide an OOM
# and a relabel through attr/smack/current.
# append: lsm=capability,triage,smack
# mem: 256M
# plan: 11
lsm_order_oom "capability,triage,smack" "protect label=Database*
sacrifice label=Batch*" @Database @BatchNightly @Web DatabaseMoved
