# blame-parent: a parent whose children keep dying in OOMs is killed
# itself once it reaches the threshold; a parent whose child dies once is
# not.
# mem: 256M
# plan: 4
echo "blame-parent classic" >/proc/sys/vm/oom_policy
echo 3 >/proc/sys/vm/oom_blame_parent_kills
echo 60000 >/proc/sys/vm/oom_blame_parent_window_ms

cg=$(memcg once 48M)
start once-parent batch_t "$cg" tr-forker --children 2 --child-mib 64 --max-alive 1
nap 3
check_eq "a parent whose child died once or twice is not blamed" exited:0 "$(status once-parent)"

cg=$(memcg forker 48M)
start forker batch_t "$cg" tr-forker --children 50 --child-mib 64 --max-alive 1
check_eq "the forking parent is finally killed" killed:9 "$(status forker)"
check "the kernel names blame-parent and its reason" sh -c \
	'dmesg | grep -q "oom policy blame-parent: parent of [0-9]* OOM-killed children"'
check "the parent's pid is the logged victim" oom_killed_in_log forker
stop_all
