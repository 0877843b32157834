# vm.oom_policy: the default, valid orders, and bad writes that are
# refused with the old order kept; a change takes effect on the next OOM.
# mem: 256M
# plan: 20
P=/proc/sys/vm/oom_policy
check_eq "the default chain is classic" classic "$(cat $P)"
check "an order naming known policies is accepted" sh -c "echo 'blame-parent classic' >$P"
check_eq "and reads back" "blame-parent classic" "$(cat $P)"
for bad in bogus "classic classic" "" "panic nosuch"; do
	if sh -c "echo '$bad' >$P" 2>/dev/null; then
		tap_fail "'$bad' is refused"
	else
		tap_ok "'$bad' is refused"
	fi
	check_eq "after '$bad' the old order is kept" "blame-parent classic" "$(cat $P)"
done
check_eq "panic_on_oom keeps its meaning (default 0)" 0 "$(cat /proc/sys/vm/panic_on_oom)"

# a change at run time decides the next OOM: the label policy protects
# the largest task only once triage is in the chain and enforcing
load_policy "protect type=protected_t" >/dev/null
echo permissive >$TRIAGE/mode
set_oom_policy "triage classic"
cg=$(memcg order 64M)
hog db protected_t "$cg" 36
hog other web_t "$cg" 8
push pusher user_t "$cg" 24
check_eq "permissive: the classic victim (db, largest) dies" killed:9 "$(status db)"
check_eq "permissive: triage recorded what it would have killed" would-kill \
	"$(awk -F'\t' 'NR > 1 {print $9}' $TRIAGE/decisions | head -n 1)"
stop_all
echo enforce >$TRIAGE/mode
cg=$(memcg order2 64M)
hog db2 protected_t "$cg" 36
hog other2 web_t "$cg" 8
push pusher2 user_t "$cg" 24
nap 0.3
check "enforce, switched at run time: the protected db survives" alive db2
check "and a smaller task died instead" sh -c "[ \"$(status_now other2)\" = killed:9 ] || [ \"$(status_now pusher2)\" = killed:9 ]"
stop_all

# switching the chain itself between two OOMs: with a group rule, classic
# alone kills one batch task (the verdict comes from the hook, the group
# from the triage OOM policy); with triage first the whole group dies
load_policy "protect type=protected_t
sacrifice type=batch_t group" >/dev/null
set_oom_policy classic
cg=$(memcg chain1 64M)
hog db3 protected_t "$cg" 30
hog b1 batch_t "$cg" 8
# the OOM comes from b2, the larger of the two, which dies: nothing
# charges on for a second OOM while its pages are freed
push b2 batch_t "$cg" 30
nap 0.5
check_eq "chain classic: one batch task died, the other lives" "1 1" \
	"$( (status_now b1; status_now b2) | grep -c killed:9) $( (alive b1 && echo x; alive b2 && echo x) | grep -c x)"
stop_all
echo "triage classic" >$P
check_eq "the chain switched at run time" "triage classic" "$(cat $P)"
cg=$(memcg chain2 64M)
hog db4 protected_t "$cg" 30
hog b3 batch_t "$cg" 8
hog b4 batch_t "$cg" 8
push pusher4 user_t "$cg" 22
check_eq "chain triage classic: the whole group died" "killed:9 killed:9" "$(status b3) $(status b4)"
check "the protected database lived through both" sh -c "kill -0 $(pid_of db4)"
stop_all
