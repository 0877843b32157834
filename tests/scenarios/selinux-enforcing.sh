# The labels are real: the policy is enforced and a process cannot move
# itself into a protected domain.
# mem: 256M
# plan: 7
check_eq "SELinux is enforcing" 1 "$(cat /sys/fs/selinux/enforce)"
for t in protected_t batch_t web_t user_t; do
	start "in-$t" "$t" /sys/fs/cgroup tr-hog --mib 1 --ready "/run/in-$t.ready"
	waitfile 10000 "/run/in-$t.ready"
	check_eq "a process started in $t runs in $t" "$t" \
		"$(cut -d: -f3 "/proc/$(pid_of "in-$t")/attr/current")"
done
# web_t may not enter protected_t: tr-run reports the refused exec
start escape web_t /sys/fs/cgroup tr-run --name inner --type protected_t --results /run/results -- true
check_eq "web_t cannot exec into protected_t" exited:127 "$(status escape)"
check "the refusal is an SELinux denial in the log" \
	audit_logged "avc:  denied  \\{ transition \\}.*tcontext=[^ ]*:protected_t"
stop_all
