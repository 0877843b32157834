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
 * is atomic with respect to a running OOM, and a policy being unregistered
 * (a module being removed) is not running when unregister_oom_policy()
 * returns.  Readers of vm.oom_policy take only oom_chain_lock, which
 * writers also hold: a reader never delays an OOM.
 *
 * The candidates' tiers come from the oom_select LSM hook, through
 * oom_candidate_eval() in mm/oom_kill.c.
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
#include <linux/spinlock.h>
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
/* Taken inside oom_lock by writers, alone by readers of the sysctl */
static DEFINE_SPINLOCK(oom_chain_lock);

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
	spin_lock(&oom_chain_lock);
	for (i = 0; i < oom_chain_len; i++)
		if (oom_chain[i] != policy)
			oom_chain[n++] = oom_chain[i];
	if (!n)
		oom_chain[n++] = &oom_policy_classic;
	oom_chain_len = n;
	spin_unlock(&oom_chain_lock);
	list_del_init(&policy->list);
	mutex_unlock(&oom_lock);
}
EXPORT_SYMBOL_GPL(unregister_oom_policy);

/*
 * Victims a policy chose although an LSM protects them (oom_select) or
 * they are no candidates of the OOM, and which the chain therefore
 * refused.  Read by the triage LSM's stats.
 */
atomic_long_t oom_protection_refusals = ATOMIC_LONG_INIT(0);
EXPORT_SYMBOL_GPL(oom_protection_refusals);

/* A trial of an early kill asks the LSMs what they would enforce */
static enum oom_select_purpose oom_policy_purpose(const struct oom_control *oc)
{
	return oc->early_trial ? OOM_SELECT_TRIAL : OOM_SELECT_KILL;
}

/*
 * The protected task that oom_select_least_protected() chose in this OOM,
 * the one protected victim the chain lets through: a flag in the OOM's
 * oom_control could be set by any policy.  Under oom_lock.
 */
static struct task_struct *oom_waived_victim;

/*
 * Whether the chain refuses the victim @oc->chosen.  The rules are
 * enforced here, where the kill happens, whichever policy chose the
 * victim: it must be a candidate of this OOM (oom_victim_eligible(): not
 * init, not a kernel thread, not exempt through oom_score_adj, inside the
 * OOM's memory cgroup or nodes), and not protected by an LSM unless
 * oom_select_least_protected(), the documented fallback when every
 * candidate is protected, chose it.
 */
static bool oom_policy_victim_refused(struct oom_policy *policy,
				      struct oom_control *oc)
{
	struct oom_candidate c;
	const char *why;

	if (!oom_victim_eligible(oc->chosen, oc, oom_policy_purpose(oc), &c)) {
		why = "which is not a candidate of this OOM";
		goto refuse;
	}
	if (c.tier == OOM_TIER_PROTECTED && oc->chosen != oom_waived_victim) {
		why = "which an LSM protects";
		goto refuse;
	}
	/* an early kill takes a sacrificed task, unless asked for more */
	if (oc->early && !oc->early_ordinary && c.tier != OOM_TIER_SACRIFICE)
		return true;
	return false;
refuse:
	atomic_long_inc(&oom_protection_refusals);
	pr_warn_ratelimited("oom policy %s chose pid %d, %s: refused\n",
			    policy->name, task_pid_nr(oc->chosen), why);
	return true;
}

/*
 * Run one policy, and check that it kept the rules about oc->chosen and
 * the LSMs' protection.
 */
static enum oom_policy_result oom_policy_call(struct oom_policy *policy,
					      struct oom_control *oc)
{
	enum oom_policy_result res;

	oc->chosen = NULL;
	oc->chosen_points = LONG_MIN;
	oc->reason = NULL;
	oc->purpose = oom_policy_purpose(oc);
	oc->nr_protected = 0;
	oc->ignore_protection = false;
	oc->protection_waived = false;
	oom_waived_victim = NULL;
	oc->kill_group = false;
	oc->nr_group_killed = 0;
	oc->policy_data = 0;

	res = policy->select(oc);
	switch (res) {
	case OOM_POLICY_VICTIM:
		if (WARN_ON_ONCE(!oc->chosen || oc->chosen == (void *)-1UL))
			break;
		if (!oom_policy_victim_refused(policy, oc))
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
	/* A broken policy, or a protected victim: drop what it chose, pass */
	if (oc->chosen && oc->chosen != (void *)-1UL)
		put_task_struct(oc->chosen);
	oc->chosen = NULL;
	return OOM_POLICY_PASS;
}

/**
 * oom_select_least_protected - choose among protected candidates
 * @oc: an OOM in which the LSMs protected every candidate
 *
 * The one fallback when every candidate is protected: the classic choice
 * with protection ignored (the tiers of other verdicts still apply), so that
 * an OOM that would otherwise kill nothing does not livelock the allocator
 * or end in "System is deadlocked on memory".  A sysrq-triggered OOM and
 * an early kill on memory pressure (oom_kill_early()) are requests, not
 * shortages: they never kill a protected task.
 *
 * Return: as oom_select_classic().
 */
enum oom_policy_result oom_select_least_protected(struct oom_control *oc)
{
	enum oom_policy_result res;

	if (oc->order == -1 || oc->early)
		return OOM_POLICY_PASS;
	pr_warn_ratelimited("oom: every candidate protected, ignoring protection\n");
	oc->ignore_protection = true;
	res = oom_select_classic(oc);
	oc->ignore_protection = false;
	if (res == OOM_POLICY_VICTIM) {
		oc->reason = "every candidate protected";
		oc->protection_waived = true;
		oom_waived_victim = oc->chosen;
	}
	return res;
}

/* The end of every chain: the classic killer, then the fallback */
static enum oom_policy_result oom_policy_last_resort(struct oom_control *oc)
{
	enum oom_policy_result res;

	res = oom_policy_call(&oom_policy_classic, oc);
	if (res != OOM_POLICY_PASS || !oc->nr_protected)
		return res;
	return oom_select_least_protected(oc);
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
 * oom_policy_notify - tell the policies of a victim the chain chose
 * @oc: the OOM being handled, its victim killed (or, for an early kill's
 *	trial, chosen), @oc->chosen still referenced
 *
 * Called by the OOM killer after the kill and the deciding policy's group
 * kill, so that what a policy records is what happened: a victim killed
 * with @oc->nr_group_killed others.  Nothing for a victim the chain did
 * not choose (vm.oom_kill_allocating_task).
 */
void oom_policy_notify(struct oom_control *oc)
{
	struct oom_policy *policy;

	lockdep_assert_held(&oom_lock);

	if (!oc->policy)
		return;
	list_for_each_entry(policy, &oom_policies, list)
		if (policy->notify)
			policy->notify(oc);
}

/**
 * oom_policy_group_member - whether a task dies with the victim
 * @oc: the OOM being handled, after its victim was killed
 * @p: a killable task in the OOM's scope, not the victim
 *
 * Asks the deciding policy, which asked for a group kill by setting
 * @oc->kill_group.  An LSM-protected task is never a member.
 *
 * Return: true if @p is to be killed with the victim.
 */
bool oom_policy_group_member(struct oom_control *oc, struct task_struct *p)
{
	struct oom_candidate c;

	if (!oom_candidate_eval(p, oc, oc->totalpages, OOM_SELECT_KILL, &c) ||
	    c.tier == OOM_TIER_PROTECTED)
		return false;
	return oc->policy->group_member(oc, p);
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
	spin_lock(&oom_chain_lock);
	for (i = 0; i < oom_chain_len; i++)
		len += scnprintf(buf + len, size - len, "%s%s", i ? " " : "",
				 oom_chain[i]->name);
	spin_unlock(&oom_chain_lock);
}

/* Parse a new chain from @names and install it; oom_lock held */
static int oom_chain_set(char *names)
{
	struct oom_policy *chain[OOM_POLICY_CHAIN_MAX];
	struct oom_policy *policy;
	unsigned int len = 0, i;
	char *name;

	lockdep_assert_held(&oom_lock);

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

	spin_lock(&oom_chain_lock);
	memcpy(oom_chain, chain, len * sizeof(chain[0]));
	oom_chain_len = len;
	spin_unlock(&oom_chain_lock);
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
		oom_chain_show(names, sizeof(names));
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
