# memory.oom.group kills every task of the memory cgroup; a task a label
# protects is spared there, like a task at oom_score_adj -1000.
# mem: 256M
# plan: 5
# append: kmemleak=off
# (no leak tracking on the debug kernel, for time: the OOM paths this
# adds allocate nothing; see DEBUG_SCENARIOS in the Makefile)
set_oom_policy "triage classic"
check "policy loads" load_policy "protect type=protected_t"
cg=$(memcg oomgroup 80M)
echo 1 >"$cg/memory.oom.group"
hog db protected_t "$cg" 30
hog w1 web_t "$cg" 8
hog w2 web_t "$cg" 8
push pusher user_t "$cg" 60
check_eq "w1 died with the group" killed:9 "$(status w1)"
check_eq "w2 died with the group" killed:9 "$(status w2)"
check "the protected database was spared by memory.oom.group" alive db
check "memory.events counts a group kill" [ "$(memcg_event "$cg" oom_group_kill)" -ge 1 ]
stop_all
