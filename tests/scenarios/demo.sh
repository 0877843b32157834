# The demo: a database, a web worker and a batch job share a memory cgroup;
# a user's process grows until the cgroup runs out of memory, twice: once
# decided by the stock kernel, once by the triage label policy. Prints an
# account of who ran where, what the kernel decided, and who died.
# mem: 256M
# plan: 4
say() { echo "# $*" >&3; }

# run_round TAG: the same workload in a fresh 96 MiB memory cgroup
run_round() {
	tag=$1
	cg=$(memcg "demo-$tag" 96M)
	dmesg -c >/dev/null
	say "Memory cgroup /demo-$tag is limited to 96 MiB. Starting labelled processes:"
	hog "database-$tag" protected_t "$cg" 40
	hog "web-$tag" web_t "$cg" 16
	hog "batch-$tag" batch_t "$cg" 24
	for n in database web batch; do
		say "$(printf '  %-9s pid %-4s %-36s %s' "$n" "$(pid_of $n-$tag)" \
			"$(cat /proc/$(pid_of $n-$tag)/attr/current)" \
			"$(awk '/VmRSS/ {printf "%d MiB", $2/1024}' /proc/$(pid_of $n-$tag)/status)")"
	done
	say ""
	say "A user_t process now allocates 32 MiB, 2 MiB at a time..."
	start "user-$tag" user_t "$cg" tr-hog --mib 32 --step-mib 2 --step-ms 10 --ready "/run/user-$tag.ready"
	waitfile 30000 "/run/user-$tag.ready"
	nap 0.3
	say ""
	say "The kernel's account:"
	dmesg | grep -E "invoked oom-killer|Killed process|oom-kill:|type=1427" | sed 's/^\[[ 0-9.]*\] //' |
		while IFS= read -r l; do say "  $l"; done
	say ""
	say "Outcome:"
	victim=
	for n in database web batch user; do
		if alive "$n-$tag"; then fate="alive"; else fate="$(status "$n-$tag")"; fi
		case "$fate" in killed:9) fate="KILLED (SIGKILL)"; victim=$n ;; esac
		say "$(printf '  %-9s %-12s %s' "$n" "$(domain_of "$n-$tag")" "$fate")"
	done
	say ""
	first=$(first_victim)
	for n in database web batch user; do
		[ "$(pid_of "$n-$tag")" = "$first" ] && victim=$n
	done
	check "round $tag: the kernel logged an OOM kill" [ -n "$first" ]
	stop_all
}

say ""
say "=== Round 1: the stock choice (vm.oom_policy = classic, no triage policy)"
run_round stock
say "Decision: the stock kernel picked the largest task ($victim) by oom_badness;"
say "labels played no part."
check_eq "round stock: the stock kernel killed the database" database "$victim"

say ""
say "=== Round 2: the same workload, decided by labels"
load_policy "protect type=protected_t
sacrifice type=batch_t
adjust -300 type=web_t"
set_oom_policy "triage classic"
say "vm.oom_policy = $(cat /proc/sys/vm/oom_policy); triage policy:"
sed 's/^/    /' $TRIAGE/policy | while IFS= read -r l; do say "$l"; done
say ""
run_round triage
say "Decision: triage protected the database (protected_t) and sacrificed the"
say "batch job (batch_t), as the site's policy says; a process cannot change"
say "its own label to escape it."
check_eq "round triage: triage killed the batch job" batch "$victim"
