# make bench (scripts/bench), not a test: boots once on Debian's unpatched
# kernel and once on the kernel with our series, both with the same
# harness (tests/bench/oom_select_bench.c), and prints figures as
# "# bench KEY VALUE" lines, nanoseconds (guest instructions when QEMU
# counts them: -icount shift=0), that scripts/bench sets side by side:
#   exec_1, exec_4       fork + exec + wait of /bin/true, one loop, and 4
#                        loops at once on 2 vCPUs (per exec)
#   sel_1k, sel_10k      a global OOM's walk over about 1,000 and 10,000
#                        processes (select_bad_process(), killing nothing)
#   setenforce_10k       a write of 0 or 1 to /sys/fs/selinux/enforce
#                        with 10,000 processes
#   load_4096_10k        a triage policy of 4,096 rules loaded with 10,000
#                        processes (the patched kernel only)
# (under -icount, a figure that includes sleeping, the load's and maybe
# setenforce's, also counts the idle time QEMU skips, not instructions)
# each with the suffix _none (no triage policy: on the unpatched kernel,
# no triage at all) or _policy (a 10-rule policy in force).  Asserts only
# that each figure was measured, and that the policy's verdicts were in
# force while the policy's selections were timed (except on the floor
# kernel, bench_floor on the command line, whose hook takes a candidate's
# rule from its pid, not from its domain).
# mem: 2048M
# smp: 2
# plan: dynamic
# timeout: 3000
# TSC as the clock: under TCG the watchdog marks it unstable and the
# fallback (jiffies) cannot time a selection of 1,000 tasks.
# append: tsc=reliable
bench() { echo "# bench $1 $2" >&3; }
if [ -d $TRIAGE ]; then patched=1; plan 12; else patched=0; plan 5; fi

# three domains as in the other scenarios, seven rules that match nothing
policy10="protect type=protected_t
sacrifice type=batch_t
adjust -100 type=web_t"
for i in 1 2 3 4 5 6 7; do
	policy10="$policy10
adjust -1 label=*:unused${i}_t:*"
done
printf '%s\n' "$policy10" >/tmp/policy10.txt
{
	printf '%s\n' "$policy10" | head -n 3
	i=1
	while [ $i -le 4093 ]; do
		echo "adjust -1 label=*:unused${i}_t:*"
		i=$((i + 1))
	done
} >/tmp/policy4096.txt

no_policy() { [ $patched -eq 0 ] || load_policy "mode enforce"; }
with_policy() { load_policy "$policy10"; }

# exec_1_* and exec_4_*: fork + exec + wait, median of 9 rounds
exec_bench() {
	v=$(tr-execbench 9 300 /bin/true) && bench "exec_1_$1" "$v"
	v=$(tr-execbench --parallel 4 9 100 /bin/true) && bench "exec_4_$1" "$v"
}
no_policy
exec_bench none
check "exec measured without a policy" [ -n "$v" ]
if [ $patched -eq 1 ]; then
	check "the 10-rule policy loads" with_policy
	exec_bench policy
	check "exec measured with the policy" [ -n "$v" ]
fi

# spawn idle processes across three domains until there are $1 in all
spawn_to() {
	have=$(ls -d /proc/[0-9]* | wc -l)
	need=$(( ($1 - have) / 3 + 1 ))
	[ "$need" -gt 0 ] || return 0
	for t in web_t batch_t protected_t; do
		tr-run --name "spawn-$t-$1" --type "$t" --results /run/results -- \
			sh -c "i=0; while [ \$i -lt $need ]; do sleep 100000 & i=\$((i + 1)); done; touch /run/spawned-$t-$1; wait" \
			>/dev/null 2>&1 &
	done
	waitfile 900000 /run/spawned-web_t-$1 /run/spawned-batch_t-$1 /run/spawned-protected_t-$1
}

# selection KEY: time 15 selections; prints the chosen task's domain
selection() {
	echo 15 >/proc/oom_select_bench || return 1
	set -- "$1" $(cat /proc/oom_select_bench)
	bench "$1" "$7"
	bench "${1}_min" "$9"
	bench "${1}_tasks" "$3"
	cut -d: -f3 "/proc/${11}/attr/current" 2>/dev/null
}

for n in 1k 10k; do
	case $n in 1k) spawn_to 1000 ;; 10k) spawn_to 10000 ;; esac
	no_policy
	selection "sel_${n}_none" >/dev/null
	check "selection over $n tasks measured" grep -q "^tasks" /proc/oom_select_bench
	if [ $patched -eq 1 ]; then
		with_policy
		chosen=$(selection "sel_${n}_policy")
		# the floor kernel's verdicts go by pid: any domain may die
		if grep -qw bench_floor /proc/cmdline; then
			check "the floor: selection with the policy measured ($n)" [ -n "$chosen" ]
		else
			check_eq "with the policy, the timed selections chose a sacrificed task ($n)" \
				batch_t "$chosen"
		fi
	fi
done

# with 10,000 processes: setenforce, and a 4,096-rule load
no_policy
v=$(tr-execbench --write 20 /sys/fs/selinux/enforce 0 1) && bench setenforce_10k_none "$v"
check "setenforce measured" [ -n "$v" ]
if [ $patched -eq 1 ]; then
	with_policy
	v=$(tr-execbench --write 20 /sys/fs/selinux/enforce 0 1) && bench setenforce_10k_policy "$v"
	check "setenforce measured with the policy" [ -n "$v" ]
	v=$(tr-execbench --write 5 $TRIAGE/policy @/tmp/policy4096.txt) && bench load_4096_10k "$v"
	check "a 4,096-rule policy loads with 10,000 processes" [ -n "$v" ]
	check_eq "and is in force" 4096 "$(sed -n 's/^policy_rules //p' $TRIAGE/stats)"
fi
check "SELinux still enforcing" [ "$(cat /sys/fs/selinux/enforce)" = 1 ]
