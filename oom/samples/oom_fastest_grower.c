// SPDX-License-Identifier: GPL-2.0-only
/*
 * A loadable OOM policy: blame the fastest grower.
 *
 * The classic OOM killer kills the biggest task.  On a desktop of 2003 the
 * biggest task was often a long-lived server that had done nothing wrong,
 * while the browser that had just eaten the memory ("blame Mozilla", as
 * the original OOM notifier discussion put it) was younger and smaller.
 * This policy kills the task that gained memory fastest over its life: the
 * highest badness per second since it started.  A task younger than a
 * second counts as one second old, so that a new small task does not win
 * by its age alone.
 *
 * It shows how a module plugs into the OOM policy chain:
 *
 *	insmod oom_fastest_grower.ko
 *	echo "fastest-grower classic" > /proc/sys/vm/oom_policy
 *
 * Every candidate is weighed through oom_task_points(), so a task that the
 * classic killer could not kill for this OOM (outside its memory cgroup or
 * cpuset, exempt through oom_score_adj, or protected by an LSM) is not
 * chosen either, and an earlier victim still exiting in the OOM's scope
 * makes it wait, as the classic killer does.  The LSMs' sacrifice tiers
 * are not followed: this policy orders by growth alone.
 *
 * Unloading is safe while OOMs run: unregister_oom_policy() takes
 * oom_lock, which every OOM holds while it runs a policy, and the chain
 * keeps no pointer to the policy or its reason afterwards.
 */

#include <linux/ktime.h>
#include <linux/math64.h>
#include <linux/module.h>
#include <linux/oom.h>
#include <linux/oom_policy.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/sched/task.h>

/* Written under oom_lock, read by the kill report under oom_lock */
static char oom_grower_reason[64];

static enum oom_policy_result oom_grower_select(struct oom_control *oc)
{
	u64 now = ktime_get_boottime_ns();
	struct task_struct *p, *chosen = NULL;
	u64 rate, chosen_rate = 0;
	long points, chosen_points = 0;
	enum oom_policy_result res;

	/*
	 * The classic selection tells whether an earlier victim in this
	 * OOM's scope is still exiting (abort: memory is on its way back)
	 * or nothing may be killed at all (pass).
	 */
	res = oom_select_classic(oc);
	if (res != OOM_POLICY_VICTIM)
		return res;
	put_task_struct(oc->chosen);
	oc->chosen = NULL;

	rcu_read_lock();
	for_each_process(p) {
		points = oom_task_points(oc, p);
		if (points == LONG_MIN)
			continue;
		rate = points <= 0 ? 0 :
		       div64_u64((u64)points * NSEC_PER_SEC,
				 max_t(u64, now - p->start_boottime,
				       NSEC_PER_SEC));
		if (!chosen || rate > chosen_rate) {
			chosen = p;
			chosen_rate = rate;
			chosen_points = points;
		}
	}
	if (chosen)
		get_task_struct(chosen);
	rcu_read_unlock();

	if (!chosen) {
		oc->chosen = NULL;
		return OOM_POLICY_PASS;
	}
	oc->chosen = chosen;
	oc->chosen_points = chosen_points;
	snprintf(oom_grower_reason, sizeof(oom_grower_reason),
		 "fastest grower, %llu pages/s", chosen_rate);
	oc->reason = oom_grower_reason;
	return OOM_POLICY_VICTIM;
}

static struct oom_policy oom_grower_policy = {
	.name = "fastest-grower",
	.select = oom_grower_select,
};

static int __init oom_grower_init(void)
{
	return register_oom_policy(&oom_grower_policy);
}

static void __exit oom_grower_exit(void)
{
	unregister_oom_policy(&oom_grower_policy);
}

module_init(oom_grower_init);
module_exit(oom_grower_exit);
MODULE_DESCRIPTION("Sample OOM policy: kill the task that grew fastest");
MODULE_LICENSE("GPL");
