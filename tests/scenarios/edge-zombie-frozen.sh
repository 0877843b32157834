# A zombie of a sacrificed domain is never chosen (it has no memory to
# give back: choosing it would livelock), and a task of a sacrificed
# domain in a frozen cgroup is chosen and dies (SIGKILL thaws it).
# mem: 256M
# plan: 12
set_oom_policy "triage classic"
check "policy loads" load_policy "sacrifice type=batch_t rank=1000
protect type=protected_t"
batch_ctx=$(sed 's/:init_t:/:batch_t:/' /proc/self/attr/current)

# the zombie: a batch_t child that exited, of a web_t parent that never waits
cg=$(memcg zombie 64M)
start zparent web_t "$cg" sh -c "tr-storm --hop '$batch_ctx' -- true & exec sleep 1000"
zombie=
for i in $(seq 50); do
	for d in /proc/[0-9]*; do
		read -r pid _ state ppid _ <"$d/stat" 2>/dev/null || continue
		[ "$state" = Z ] && [ "$ppid" = "$(pid_of zparent)" ] && zombie=$pid
	done
	[ -n "$zombie" ] && break
	nap 0.1
done
check "a zombie child of the web_t parent exists" [ -n "$zombie" ]
check_eq "the zombie is batch_t" batch_t "$(cut -d: -f3 /proc/$zombie/attr/current)"
check "ranking does not list the zombie" sh -c \
	"! awk -F'\t' 'NR > 1 {print \$2}' $TRIAGE/ranking | grep -qx '$zombie'"
# the largest live task grows into the OOM itself: nobody else charges
# while its memory is freed, so no second victim (the kernel's race when
# another task goes on charging) can take the user_t task
hog other user_t "$cg" 20
push big web_t "$cg" 50
check_eq "the OOM killed the largest live task instead" killed:9 "$(status big)"
check "the user_t task lived" alive other
check "the zombie is still a zombie (nothing was done to it)" sh -c \
	"read -r _ _ s _ </proc/$zombie/stat && [ \$s = Z ]"
check_eq_empty "no decision names the zombie" \
	"$(awk -F'\t' -v z=$zombie 'NR > 1 && $5 == z' $TRIAGE/decisions)"
stop_all

# the frozen task
fz=$(memcg frozen 64M)
echo +memory >$fz/cgroup.subtree_control
mkdir -p $fz/ice $fz/run
hog icy batch_t "$fz/ice" 8
echo 1 >$fz/ice/cgroup.freeze
for i in $(seq 50); do grep -qx 'frozen 1' $fz/ice/cgroup.events && break; nap 0.1; done
check_eq "the batch_t task's cgroup is frozen" "frozen 1" "$(grep frozen $fz/ice/cgroup.events)"
diag "frozen task state: $(read -r _ _ s _ </proc/$(pid_of icy)/stat; echo $s)"
hog big2 web_t "$fz/run" 30
start pusher2 user_t "$fz/run" tr-hog --mib 30 --step-mib 2 --step-ms 10 --ready /run/pusher2.ready
waitfile 30000 /run/pusher2.ready
check_eq "the frozen sacrificed task was killed" killed:9 "$(status icy)"
check_eq "as a sacrifice" "sacrifice killed" "$(decision_for icy verdict) $(decision_for icy outcome)"
# the frozen task cannot be the one that charges: while its memory is
# freed the pusher may meet a second OOM (the kernel's race, as without
# triage), so what is checked is the order, not who outlives the race
check_eq "the frozen task died first, before the larger web_t task and the pusher" \
	"$(pid_of icy)" "$(awk -F'\t' -v a="$(pid_of icy)" -v b="$(pid_of big2)" -v c="$(pid_of pusher2)" \
		'NR > 1 && ($5 == a || $5 == b || $5 == c) {print $5; exit}' $TRIAGE/decisions)"
stop_all
