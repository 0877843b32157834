// SPDX-License-Identifier: GPL-2.0-only
/*
 * The OOM policy chain.
 *
 * What an out-of-memory condition kills is decided by an ordered chain of
 * named policies.  The administrator chooses the chain at run time with the
 * vm.oom_policy sysctl; out_of_memory() runs it for global and memory cgroup
 * OOMs alike, where it used to call select_bad_process().  The policies run
 * in order until one decides (a victim, or an abort because memory is on its
 * way back); when none decides, the classic OOM killer does.  The default
 * chain, "classic", is the classic killer alone.
 *
 * Everything here runs under oom_lock, which every OOM holds: the chain and
 * the list of policies are changed under oom_lock too, so a change of order
 * is atomic with respect to a running OOM and no RCU is needed.
 *
 * The chain also applies the oom_select LSM hook to every candidate the
 * classic selection looks at (oom_evaluate_task()), and to
 * /proc/<pid>/oom_score.
 */

#include <linux/ctype.h>
#include <linux/init.h>
#include <linux/kernel.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/oom.h>
#include <linux/oom_policy.h>
#include <linux/printk.h>
#include <linux/sched.h>
#include <linux/security.h>
#include <linux/string.h>
#include <linux/sysctl.h>

#include <trace/events/oom.h>

static struct oom_policy oom_policy_classic = {
	.name	= "classic",
	.select	= oom_select_classic,
};

/* Registered policies, and the administrator's chain: under oom_lock */
static LIST_HEAD(oom_policies);
static struct oom_policy *oom_chain[OOM_POLICY_CHAIN_MAX] = {
	&oom_policy_classic,
};

static unsigned int oom_chain_len = 1;

static struct oom_policy *oom_policy_find(const char *name)
{
	struct oom_policy *policy;

	list_for_each_entry(policy, &oom_policies, list)
		if (!strcmp(policy->name, name))
			return policy;
	return NULL;
}

/**
 * register_oom_policy - make an OOM policy available to the chain
 * @policy: the policy, with @policy->name and @policy->select set
 *
 * Make @policy available to the administrator, who puts it in the chain
 * with the vm.oom_policy sysctl.  Registering does not make it active.
 * Takes oom_lock, so it may sleep.
 *
 * Return: 0 on success, -EINVAL if the name is empty, too long or contains
 * whitespace, -EEXIST if a policy of that name is already registered.
 */
int register_oom_policy(struct oom_policy *policy)
{
	const char *c;
	int ret = 0;

	if (!policy->name || !policy->select || !policy->name[0] ||
	    strlen(policy->name) >= OOM_POLICY_NAME_MAX)
		return -EINVAL;
	for (c = policy->name; *c; c++)
		if (isspace(*c))
			return -EINVAL;

	mutex_lock(&oom_lock);
	if (oom_policy_find(policy->name))
		ret = -EEXIST;
	else
		list_add_tail(&policy->list, &oom_policies);
	mutex_unlock(&oom_lock);
	return ret;
}
EXPORT_SYMBOL_GPL(register_oom_policy);

/**
 * unregister_oom_policy - withdraw an OOM policy
 * @policy: a policy registered with register_oom_policy()
 *
 * Remove @policy from the chain, if it is there, and from the registered
 * policies.  If the chain becomes empty, it falls back to "classic".  Takes
 * oom_lock: when this returns, no OOM is running @policy.  May sleep.
 */
void unregister_oom_policy(struct oom_policy *policy)
{
	unsigned int i, n = 0;

	mutex_lock(&oom_lock);
	for (i = 0; i < oom_chain_len; i++)
		if (oom_chain[i] != policy)
			oom_chain[n++] = oom_chain[i];
	if (!n)
		oom_chain[n++] = &oom_policy_classic;
	oom_chain_len = n;
	list_del_init(&policy->list);
	mutex_unlock(&oom_lock);
}
EXPORT_SYMBOL_GPL(unregister_oom_policy);

/*
 * Run one policy, and check that it kept the rules about oc->chosen.
 */
static enum oom_policy_result oom_policy_call(struct oom_policy *policy,
					      struct oom_control *oc)
{
	enum oom_policy_result res;

	oc->chosen = NULL;
	oc->chosen_points = LONG_MIN;
	oc->reason = NULL;
	oc->nr_protected = 0;
	oc->ignore_protection = false;

	res = policy->select(oc);
	switch (res) {
	case OOM_POLICY_VICTIM:
		if (!WARN_ON_ONCE(!oc->chosen || oc->chosen == (void *)-1UL))
			return res;
		break;
	case OOM_POLICY_ABORT:
		if (!WARN_ON_ONCE(oc->chosen && oc->chosen != (void *)-1UL))
			return res;
		break;
	case OOM_POLICY_PASS:
		if (!WARN_ON_ONCE(oc->chosen))
			return res;
		break;
	default:
		WARN_ONCE(1, "oom policy %s: bad result %d\n", policy->name, res);
		break;
	}
	/* A broken policy: drop what it chose and pass */
	if (oc->chosen && oc->chosen != (void *)-1UL)
		put_task_struct(oc->chosen);
	oc->chosen = NULL;
	return OOM_POLICY_PASS;
}

/*
 * The end of every chain: the classic killer.  If it found nothing because
 * the LSMs protected every candidate, run it once more ignoring protection:
 * an OOM that kills nothing would livelock or panic the machine.
 */
static enum oom_policy_result oom_policy_last_resort(struct oom_control *oc)
{
	enum oom_policy_result res;

	res = oom_policy_call(&oom_policy_classic, oc);
	if (res != OOM_POLICY_PASS || !oc->nr_protected)
		return res;

	pr_warn("oom: every candidate protected, ignoring protection\n");
	oc->ignore_protection = true;
	res = oom_select_classic(oc);
	oc->ignore_protection = false;
	if (res == OOM_POLICY_VICTIM)
		oc->reason = "every candidate protected";
	return res;
}

/**
 * oom_policy_run - run the OOM policy chain
 * @oc: the OOM being handled
 *
 * Run the administrator's policies in order until one decides; if none
 * does, the classic killer decides.  Called by out_of_memory() with
 * oom_lock held, in place of the classic selection, after panic_on_oom and
 * oom_kill_allocating_task had their say.
 *
 * On return @oc->chosen is the referenced victim, (void *)-1UL to kill
 * nothing this time, or %NULL if no task can be killed; @oc->policy and
 * @oc->reason tell who decided and why.
 */
void oom_policy_run(struct oom_control *oc)
{
	enum oom_policy_result res = OOM_POLICY_PASS;
	struct oom_policy *policy = NULL;
	unsigned int i;

	lockdep_assert_held(&oom_lock);

	for (i = 0; i < oom_chain_len && res == OOM_POLICY_PASS; i++) {
		policy = oom_chain[i];
		res = oom_policy_call(policy, oc);
	}
	if (res == OOM_POLICY_PASS) {
		policy = &oom_policy_classic;
		res = oom_policy_last_resort(oc);
	}

	oc->policy = policy;
	if (!oc->reason)
		oc->reason = "no reason given";

	switch (res) {
	case OOM_POLICY_VICTIM:
		trace_oom_policy_decision(policy->name, oc->chosen, oc->reason,
					  oc->chosen_points);
		list_for_each_entry(policy, &oom_policies, list)
			if (policy->notify)
				policy->notify(oc);
		break;
	case OOM_POLICY_ABORT:
		oc->chosen = (void *)-1UL;
		break;
	default:
		oc->chosen = NULL;
		break;
	}
}

/**
 * oom_policy_verdict - apply the LSMs' verdict to a candidate's badness
 * @p: the candidate task
 * @totalpages: the pages the OOM is about, as for oom_badness()
 * @points: @p's badness, or %NULL to check protection only
 *
 * Ask the LSMs about @p through the oom_select hook.  A sacrificed task gets
 * (2 + rank) * @totalpages added, which puts it above every ordinary task
 * (whose badness is at most about 2 * @totalpages) and orders sacrificed
 * tasks by rank, then by size.  The LSMs' badness adjustment is scaled like
 * oom_score_adj.  Must not sleep.
 *
 * Return: false if an LSM protects @p, true otherwise.
 */
bool oom_policy_verdict(struct task_struct *p, unsigned long totalpages,
			long *points)
{
	struct oom_select_verdict verdict;

	security_oom_select(p, &verdict);
	if (verdict.protect)
		return false;
	if (!points)
		return true;
	if (verdict.sacrifice)
		*points += (2 + (long)verdict.rank) * (long)totalpages;
	*points += verdict.adj * (long)(totalpages / 1000);
	return true;
}

/**
 * oom_policy_protected - whether an LSM protects a task from the OOM killer
 * @p: the task
 *
 * Return: true if an LSM's oom_select verdict protects @p.
 */
bool oom_policy_protected(struct task_struct *p)
{
	return !oom_policy_verdict(p, 0, NULL);
}

/**
 * oom_policy_override_adj - whether a sacrifice outranks oom_score_adj -1000
 * @p: a task oom_badness() calls unkillable
 * @totalpages: the pages the OOM is about, as for oom_badness()
 * @points: set to @p's badness at oom_score_adj 0 when the answer is yes
 *
 * oom_score_adj is discretionary: a task with CAP_SYS_RESOURCE may set
 * its own to OOM_SCORE_ADJ_MIN.  An LSM's sacrifice verdict that says it
 * outranks that score makes @p a candidate again; the verdict itself is
 * applied afterwards like for any candidate.  Must not sleep.
 *
 * Return: true if @p is a candidate after all.
 */
bool oom_policy_override_adj(struct task_struct *p, unsigned long totalpages,
			     long *points)
{
	struct oom_select_verdict verdict;
	long base = oom_badness_adj_min(p, totalpages);

	if (base == LONG_MIN)
		return false;
	security_oom_select(p, &verdict);
	if (!verdict.sacrifice || !verdict.override_score_adj)
		return false;
	*points = base;
	return true;
}

/**
 * oom_policy_badness - a task's badness as the OOM policy chain sees it
 * @p: the task
 * @totalpages: total present RAM allowed for page allocation
 *
 * oom_badness() with the LSMs' oom_select verdict applied, for
 * /proc/<pid>/oom_score.  Must not sleep.
 *
 * Return: the badness, or %LONG_MIN if @p must not be killed.
 */
long oom_policy_badness(struct task_struct *p, unsigned long totalpages)
{
	long points = oom_badness(p, totalpages);

	if (points == LONG_MIN &&
	    !oom_policy_override_adj(p, totalpages, &points))
		return LONG_MIN;
	if (!oom_policy_verdict(p, totalpages, &points))
		return LONG_MIN;
	return points;
}

static bool oom_policy_decided(struct oom_control *oc)
{
	return oc->policy && oc->policy != &oom_policy_classic;
}

/**
 * oom_policy_message - the kill message, naming a non-classic policy
 * @oc: the OOM being handled, after oom_policy_run()
 * @message: the classic message, e.g. "Out of memory"
 *
 * When a policy other than classic chose the victim, return @message
 * followed by the policy and its reason, e.g. "Out of memory (oom policy
 * blame-parent: parent of 3 OOM-killed children)", so that default kill
 * messages stay as they were.  The text is built in a static buffer, which
 * oom_lock protects; nothing is allocated.
 *
 * Return: the message to print with the kill.
 */
const char *oom_policy_message(struct oom_control *oc, const char *message)
{
	static char buf[160];

	lockdep_assert_held(&oom_lock);

	if (!oom_policy_decided(oc))
		return message;
	scnprintf(buf, sizeof(buf), "%s (oom policy %s: %s)", message,
		  oc->policy->name, oc->reason);
	return buf;
}

/**
 * oom_policy_report - name the deciding policy in the OOM report
 * @oc: the OOM being handled, after oom_policy_run()
 *
 * Print which policy chose the victim and why, unless classic did: the
 * default OOM report stays unchanged.
 */
void oom_policy_report(struct oom_control *oc)
{
	if (oom_policy_decided(oc))
		pr_info("oom-kill:policy=%s,reason=%s\n", oc->policy->name,
			oc->reason);
}

#ifdef CONFIG_SYSCTL
/* Room for a full chain of the longest names, separated by spaces */
#define OOM_POLICY_SYSCTL_LEN	(OOM_POLICY_CHAIN_MAX * OOM_POLICY_NAME_MAX)

static void oom_chain_show(char *buf, size_t size)
{
	size_t len = 0;
	unsigned int i;

	buf[0] = '\0';
	for (i = 0; i < oom_chain_len; i++)
		len += scnprintf(buf + len, size - len, "%s%s", i ? " " : "",
				 oom_chain[i]->name);
}

/* Parse a new chain from @names and install it; oom_lock held */
static int oom_chain_set(char *names)
{
	struct oom_policy *chain[OOM_POLICY_CHAIN_MAX];
	struct oom_policy *policy;
	unsigned int len = 0, i;
	char *name;

	while ((name = strsep(&names, " \t\n")) != NULL) {
		if (!*name)
			continue;
		policy = oom_policy_find(name);
		if (!policy || len == OOM_POLICY_CHAIN_MAX)
			return -EINVAL;
		for (i = 0; i < len; i++)
			if (chain[i] == policy)
				return -EINVAL;
		chain[len++] = policy;
	}
	if (!len)
		return -EINVAL;

	memcpy(oom_chain, chain, len * sizeof(chain[0]));
	oom_chain_len = len;
	return 0;
}

static int oom_policy_sysctl(const struct ctl_table *table, int write,
			     void *buffer, size_t *lenp, loff_t *ppos)
{
	char names[OOM_POLICY_SYSCTL_LEN];
	struct ctl_table tbl = {
		.data	= names,
		.maxlen	= sizeof(names),
	};
	int ret;

	if (!write) {
		mutex_lock(&oom_lock);
		oom_chain_show(names, sizeof(names));
		mutex_unlock(&oom_lock);
		return proc_dostring(&tbl, write, buffer, lenp, ppos);
	}

	/* A chain is written whole: no partial or overlong writes */
	if (*ppos || *lenp >= sizeof(names))
		return -EINVAL;
	ret = proc_dostring(&tbl, write, buffer, lenp, ppos);
	if (ret)
		return ret;

	if (mutex_lock_killable(&oom_lock))
		return -EINTR;
	ret = oom_chain_set(names);
	mutex_unlock(&oom_lock);
	return ret;
}

static struct ctl_table vm_oom_policy_table[] = {
	{
		.procname	= "oom_policy",
		.maxlen		= OOM_POLICY_SYSCTL_LEN,
		.mode		= 0644,
		.proc_handler	= oom_policy_sysctl,
	},
};
#endif /* CONFIG_SYSCTL */

static int __init oom_policy_init(void)
{
	WARN_ON(register_oom_policy(&oom_policy_classic));
#ifdef CONFIG_SYSCTL
	register_sysctl_init("vm", vm_oom_policy_table);
#endif
	return 0;
}
subsys_initcall(oom_policy_init);
