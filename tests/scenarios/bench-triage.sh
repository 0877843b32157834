# make bench: victim-selection time for 1,000 and 10,000 tasks with
# triage's verdicts and on the stock path (the oom_select static key off:
# no LSM asked), and exec cost without and with a triage policy, measured
# side by side in this one boot.  Prints figures; asserts only that they
# were measured.  Not part of make check.
# mem: 2048M
# plan: 3
# timeout: 1500
# TSC as the clock: under TCG the watchdog marks it unstable and the
# fallback (jiffies) cannot time a selection of 1,000 tasks.
# append: tsc=reliable
say() { echo "# $*" >&3; }
policy="protect type=protected_t
sacrifice type=batch_t
adjust -100 type=web_t"

# exec cost: no policy loaded yet, then with the policy, then again
e0=$(tr-execbench 9 300 /bin/true)
load_policy "$policy"
e1=$(tr-execbench 9 300 /bin/true)
say "exec (fork+exec+wait of /bin/true, median of 9x300): no policy ${e0} ns, policy loaded ${e1} ns, ratio $(awk -v a="$e1" -v b="$e0" 'BEGIN {printf "%.3f", a / b}')"

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

for n in 1000 10000; do
	spawn_to $n
	echo 15 >$TRIAGE/bench
	set -- $(cat $TRIAGE/bench)
	say "selection over $2 processes (median of $4): triage on $6 ns, stock path (hook off) $8 ns, ratio $(awk -v a="$6" -v b="$8" 'BEGIN {printf "%.3f", a / b}')"
	check "selection measured for about $n tasks" [ "$2" -ge $((n * 9 / 10)) ]
done
check "exec measured" [ -n "$e0" ] && [ -n "$e1" ]
