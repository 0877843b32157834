// SPDX-License-Identifier: GPL-2.0-only
/*
 * Test module for the OOM policy chain: a policy, "test-victim-pid", that
 * chooses whatever task the tester names, LSM-protected or not, so that a
 * test can check that the chain refuses a victim an LSM protects
 * (oom_select), or that is no candidate of the OOM (init, a kernel
 * thread, a task at oom_score_adj -1000, a task outside the OOM's memory
 * cgroup), whichever policy chose it.  The pid is one of the initial pid
 * namespace, whichever task runs the OOM.  A real policy must never key
 * on pids; this one exists only to break that rule on purpose.
 *
 *   insmod test_oom_policy.ko
 *   echo PID >/sys/module/test_oom_policy/parameters/victim_pid
 *   echo "test-victim-pid classic" >/proc/sys/vm/oom_policy
 */

#include <linux/module.h>
#include <linux/oom.h>
#include <linux/oom_policy.h>
#include <linux/pid.h>
#include <linux/pid_namespace.h>
#include <linux/sched.h>
#include <linux/sched/task.h>

static int victim_pid;
module_param(victim_pid, int, 0600);
MODULE_PARM_DESC(victim_pid, "the process the policy chooses (0: none)");

static enum oom_policy_result test_victim_select(struct oom_control *oc)
{
	struct task_struct *p;

	rcu_read_lock();
	p = pid_task(find_pid_ns(READ_ONCE(victim_pid), &init_pid_ns),
		     PIDTYPE_PID);
	if (p)
		get_task_struct(p);
	rcu_read_unlock();
	if (!p)
		return OOM_POLICY_PASS;
	oc->chosen = p;
	oc->chosen_points = 0;
	oc->reason = "the pid the test named";
	return OOM_POLICY_VICTIM;
}

static struct oom_policy test_victim_policy = {
	.name = "test-victim-pid",
	.select = test_victim_select,
};

static int __init test_oom_policy_init(void)
{
	return register_oom_policy(&test_victim_policy);
}

static void __exit test_oom_policy_exit(void)
{
	unregister_oom_policy(&test_victim_policy);
}

module_init(test_oom_policy_init);
module_exit(test_oom_policy_exit);
MODULE_DESCRIPTION("Test module: an OOM policy that chooses a named pid");
MODULE_LICENSE("GPL");
