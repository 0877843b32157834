# vm.oom_policy: the default, valid orders, and bad writes that are
# refused with the old order kept; a change takes effect on the next OOM.
# mem: 256M
# plan: 16
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
echo "triage classic" >$P
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
