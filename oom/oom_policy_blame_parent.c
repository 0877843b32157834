// SPDX-License-Identifier: GPL-2.0-only
/*
 * The "blame-parent" OOM policy.
 *
 * When one parent keeps forking children that die in OOM, killing yet
 * another child does not help: the parent is the real culprit.  This
 * policy, from the 2003 OOM notifier discussion, kills the parent instead
 * once its children were OOM-killed often enough.
 *
 * Bookkeeping: the chain tells every policy about each victim it chose;
 * this policy records the victim's parent in a fixed ring, allocated at
 * build time, so nothing is allocated on the OOM path.  A parent is recorded
 * as the struct pid of its thread group, compared by address and never
 * dereferenced (no reference is taken), together with its start time, which
 * tells it apart from a later process that reuses the same struct pid
 * memory.
 *
 * On an OOM the policy finds the task the classic killer would kill.  If
 * that task's parent had at least vm.oom_blame_parent_kills children
 * OOM-killed within the last vm.oom_blame_parent_window_ms milliseconds,
 * and the parent may itself be killed for this OOM (not init or another
 * pid namespace's init, not a child subreaper, not a kernel thread, not
 * exempt through oom_score_adj, not protected by an LSM, inside the OOM's
 * memory cgroup or cpuset), the parent is chosen.  Otherwise the policy
 * passes.
 *
 * Everything runs under oom_lock, which serializes the ring.
 */

#include <linux/init.h>
#include <linux/jiffies.h>
#include <linux/kernel.h>
#include <linux/oom.h>
#include <linux/oom_policy.h>
#include <linux/pid.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/sched/task.h>
#include <linux/sysctl.h>

/* Kills remembered: also the highest vm.oom_blame_parent_kills */
#define OOM_BLAME_RING_SIZE	64
/* Longest vm.oom_blame_parent_window_ms: one hour */
#define OOM_BLAME_WINDOW_MAX	(60 * 60 * 1000)

struct oom_blame_kill {
	struct pid *parent;	/* compared only, no reference held */
	u64 parent_start;	/* parent's start_time */
	unsigned long when;	/* jiffies at the kill */
};

static struct oom_blame_kill oom_blame_ring[OOM_BLAME_RING_SIZE];
static unsigned int oom_blame_next;

static int sysctl_oom_blame_parent_kills = 3;
static int sysctl_oom_blame_parent_window_ms = 10000;

/* The parent process of @p; RCU read lock held */
static struct task_struct *oom_blame_parent_of(struct task_struct *p)
{
	return rcu_dereference(p->real_parent)->group_leader;
}

/* Remember that a child of @oc->chosen's parent was chosen as a victim */
static void oom_blame_parent_notify(const struct oom_control *oc)
{
	struct oom_blame_kill *kill;
	struct task_struct *parent;

	lockdep_assert_held(&oom_lock);

	if (oc->early_trial)
		return;	/* nothing was killed */

	rcu_read_lock();
	/*
	 * Told after the kill: a victim already reaped keeps a stale
	 * real_parent, which may be gone (its group's walk yields the CPU).
	 */
	if (!pid_alive(oc->chosen)) {
		rcu_read_unlock();
		return;
	}
	kill = &oom_blame_ring[oom_blame_next];
	oom_blame_next = (oom_blame_next + 1) % OOM_BLAME_RING_SIZE;
	parent = oom_blame_parent_of(oc->chosen);
	kill->parent = task_tgid(parent);
	kill->parent_start = parent->start_time;
	kill->when = jiffies;
	rcu_read_unlock();
}

/* Children of @parent OOM-killed within the window; RCU read lock held */
static int oom_blame_kills(struct task_struct *parent)
{
	int window_ms = READ_ONCE(sysctl_oom_blame_parent_window_ms);
	unsigned long window = msecs_to_jiffies(window_ms);
	struct pid *pid = task_tgid(parent);
	int i, kills = 0;

	for (i = 0; i < OOM_BLAME_RING_SIZE; i++) {
		struct oom_blame_kill *kill = &oom_blame_ring[i];

		if (kill->parent == pid &&
		    kill->parent_start == parent->start_time &&
		    time_before_eq(jiffies, kill->when + window))
			kills++;
	}
	return kills;
}

/* Parents that are never blamed, whatever their children do */
static bool oom_blame_exempt(struct task_struct *parent)
{
	struct pid *pid = task_tgid(parent);

	return !pid || is_child_reaper(pid) ||
	       (parent->flags & PF_KTHREAD) ||
	       parent->signal->is_child_subreaper;
}

static enum oom_policy_result oom_blame_parent_select(struct oom_control *oc)
{
	static char reason[48];
	struct task_struct *victim, *parent;
	enum oom_policy_result res;
	long points;
	int kills;

	lockdep_assert_held(&oom_lock);

	res = oom_select_classic(oc);
	if (res != OOM_POLICY_VICTIM)
		return res;
	victim = oc->chosen;

	rcu_read_lock();
	parent = oom_blame_parent_of(victim);
	if (oom_blame_exempt(parent)) {
		rcu_read_unlock();
		goto pass;
	}
	kills = oom_blame_kills(parent);
	if (kills < READ_ONCE(sysctl_oom_blame_parent_kills)) {
		rcu_read_unlock();
		goto pass;
	}
	get_task_struct(parent);
	rcu_read_unlock();

	points = oom_task_points(oc, parent);
	if (points == LONG_MIN) {
		put_task_struct(parent);
		goto pass;
	}

	put_task_struct(victim);
	oc->chosen = parent;
	oc->chosen_points = points;
	snprintf(reason, sizeof(reason), "parent of %d OOM-killed children",
		 kills);
	oc->reason = reason;
	return OOM_POLICY_VICTIM;

pass:
	put_task_struct(victim);
	oc->chosen = NULL;
	return OOM_POLICY_PASS;
}

static struct oom_policy oom_policy_blame_parent = {
	.name	= "blame-parent",
	.select	= oom_blame_parent_select,
	.notify	= oom_blame_parent_notify,
};

#ifdef CONFIG_SYSCTL
static int oom_blame_ring_size = OOM_BLAME_RING_SIZE;
static int oom_blame_window_max = OOM_BLAME_WINDOW_MAX;

static struct ctl_table vm_oom_blame_parent_table[] = {
	{
		.procname	= "oom_blame_parent_kills",
		.data		= &sysctl_oom_blame_parent_kills,
		.maxlen		= sizeof(sysctl_oom_blame_parent_kills),
		.mode		= 0644,
		.proc_handler	= proc_dointvec_minmax,
		.extra1		= SYSCTL_ONE,
		.extra2		= &oom_blame_ring_size,
	},
	{
		.procname	= "oom_blame_parent_window_ms",
		.data		= &sysctl_oom_blame_parent_window_ms,
		.maxlen		= sizeof(sysctl_oom_blame_parent_window_ms),
		.mode		= 0644,
		.proc_handler	= proc_dointvec_minmax,
		.extra1		= SYSCTL_ONE,
		.extra2		= &oom_blame_window_max,
	},
};
#endif /* CONFIG_SYSCTL */

static int __init oom_policy_blame_parent_init(void)
{
#ifdef CONFIG_SYSCTL
	register_sysctl_init("vm", vm_oom_blame_parent_table);
#endif
	return register_oom_policy(&oom_policy_blame_parent);
}
subsys_initcall(oom_policy_blame_parent_init);
