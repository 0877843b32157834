# adjust reorders: a larger web_t task adjusted down outlives a smaller
# user_t task; /proc/PID/oom_score and the ranking reflect the adjustment.
# mem: 256M
# plan: 6
set_oom_policy "triage classic"
cg=$(memcg adjust 64M)
hog web web_t "$cg" 30
hog user user_t "$cg" 20
before=$(cat /proc/$(pid_of web)/oom_score)
check "adjust policy loads" load_policy "adjust -600 type=web_t"
after=$(cat /proc/$(pid_of web)/oom_score)
check "web's oom_score drops under the adjustment ($before -> $after)" [ "$after" -lt "$before" ]
check_eq "ranking puts user first now" "$(pid_of user)" "$(ranked_first)"
push pusher batch_t "$cg" 24
check_eq "user (smaller, not adjusted) was killed" killed:9 "$(status user)"
check "web (larger, adjusted -600) survived" alive web
check_eq "decisions names no rule for the victim" "-" "$(decision_for user rule)"
stop_all
