# The demo: a database, a web worker and a batch job share a memory cgroup;
# a user's process grows until the cgroup runs out of memory. Prints an
# account of who ran where, what the kernel decided, and who died.
# mem: 256M
cg=$(memcg demo 96M)
say() { echo "# $*" >&3; }
say ""
say "Memory cgroup /demo is limited to 96 MiB. Starting labelled processes:"
hog database protected_t "$cg" 40
hog web web_t "$cg" 16
hog batch batch_t "$cg" 24
for n in database web batch; do
	say "$(printf '  %-9s pid %-4s %-36s %s' "$n" "$(pid_of $n)" \
		"$(cat /proc/$(pid_of $n)/attr/current)" \
		"$(awk '/VmRSS/ {printf "%d MiB", $2/1024}' /proc/$(pid_of $n)/status)")"
done
say ""
say "A user_t process now allocates 32 MiB, 2 MiB at a time..."
start user user_t "$cg" tr-hog --mib 32 --step-mib 2 --step-ms 10 --ready /run/user.ready
tr-waitfile --timeout-ms 30000 /run/user.ready
sleep 0.2
say ""
say "The kernel's account:"
dmesg | grep -E "invoked oom-killer|Killed process|oom-kill:" | sed 's/^\[[ 0-9.]*\] //' |
	while IFS= read -r l; do say "  $l"; done
say ""
say "Outcome:"
for n in database web batch user; do
	if alive $n; then fate="alive"; else fate="$(status $n)"; fi
	case "$fate" in killed:9) fate="KILLED (SIGKILL)" ;; esac
	say "$(printf '  %-9s %-12s %s' "$n" "$(cut -d: -f3 /proc/$(pid_of $n)/attr/current 2>/dev/null || context_of $n | cut -d: -f3)" "$fate")"
done
say ""
victim=
for n in database web batch user; do
	[ "$(status_now $n)" = killed:9 ] && victim=$n
done
say "Decision: the stock kernel picked the largest task ($victim) by oom_badness;"
say "labels played no part. triage makes the site's labels decide."
check_eq "the OOM killed exactly one process" 1 "$(memcg_event "$cg" oom_kill)"
check "the victim's pid is in the kernel's log" oom_killed_in_log "$victim"
stop_all
