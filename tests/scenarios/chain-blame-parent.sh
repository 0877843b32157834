# blame-parent: a parent whose children keep dying in OOMs is killed
# itself once it reaches the threshold; a parent whose children died fewer times is
# not (the threshold is checked exactly), nor one whose children died
# further apart than the window, nor a child subreaper (a service
# manager: its children are not its fault).
# mem: 256M
# plan: 6
# append: kmemleak=off
# (no leak tracking on the debug kernel, for time: the OOM paths this
# adds allocate nothing; see DEBUG_SCENARIOS in the Makefile)
set_oom_policy "blame-parent classic"
echo 3 >/proc/sys/vm/oom_blame_parent_kills
echo 60000 >/proc/sys/vm/oom_blame_parent_window_ms

# The threshold is exact: with 3, a parent whose children died twice is
# spared at the third OOM, and one whose children died three times is
# killed at the fourth (an off-by-one either way fails one of the two).
cg=$(memcg twice 48M)
start twice-parent batch_t "$cg" tr-forker --children 3 --child-mib 64 --max-alive 1 --wait
waitfile 120000 "$RESULTS/twice-parent" >/dev/null 2>&1
check_eq "a parent whose children died twice (threshold 3) is not blamed at the third OOM" \
	exited:0 "$(status twice-parent)"

cg=$(memcg thrice 48M)
start thrice-parent batch_t "$cg" tr-forker --children 4 --child-mib 64 --max-alive 1 --wait
waitfile 120000 "$RESULTS/thrice-parent" >/dev/null 2>&1
check_eq "a parent whose children died three times is killed at the fourth OOM" \
	killed:9 "$(status thrice-parent)"
check "the kernel names blame-parent and its reason" sh -c \
	'dmesg | grep -q "oom policy blame-parent: parent of [0-9]* OOM-killed children"'
check "the parent's pid is the logged victim" oom_killed_in_log thrice-parent
stop_all

# the window: four children OOM-killed 1.5 s apart, the window 1 s
echo 1000 >/proc/sys/vm/oom_blame_parent_window_ms
cg=$(memcg apart 48M)
start apart-parent batch_t "$cg" tr-forker --children 4 --child-mib 64 --max-alive 1 \
	--interval-ms 1500 --wait
waitfile 120000 "$RESULTS/apart-parent" >/dev/null 2>&1
check_eq "a parent whose children died further apart than the window is not blamed" \
	exited:0 "$(status apart-parent)"
echo 60000 >/proc/sys/vm/oom_blame_parent_window_ms
stop_all

# a child subreaper, whose four children die within the window
cg=$(memcg subreaper 48M)
start reaper-parent batch_t "$cg" tr-forker --children 4 --child-mib 64 --max-alive 1 \
	--subreaper --wait
waitfile 120000 "$RESULTS/reaper-parent" >/dev/null 2>&1
check_eq "a child subreaper whose children died four times is not blamed" \
	exited:0 "$(status reaper-parent)"
stop_all
