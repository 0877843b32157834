# sacrifice ... group: when one task of the domain is chosen, every task
# of that domain in the OOM's scope dies with it; other domains live.
# mem: 256M
# plan: 9
echo "triage classic" >/proc/sys/vm/oom_policy
check "group policy loads" load_policy "protect type=protected_t
sacrifice type=batch_t group"
cg=$(memcg group 96M)
hog db protected_t "$cg" 30
hog b1 batch_t "$cg" 6
hog b2 batch_t "$cg" 6
hog b3 batch_t "$cg" 6
hog web web_t "$cg" 12
push pusher user_t "$cg" 40
for b in b1 b2 b3; do
	check_eq "$b (batch_t) died with its group" killed:9 "$(status $b)"
done
check "db (protected_t) survived" alive db
check "web (web_t) survived" alive web
check "the first OOM victim was one of the group" sh -c "echo \" $(pid_of b1) $(pid_of b2) $(pid_of b3) \" | grep -q \" $(first_victim) \""
check_eq "stats counts two group kills" 2 "$(sed -n 's/^group_kills //p' $TRIAGE/stats)"
check_eq "decisions lists the group kills" 2 \
	"$(awk -F'\t' '$9 == "group-killed"' $TRIAGE/decisions | wc -l | tr -d ' ')"
stop_all
