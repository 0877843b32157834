// SPDX-License-Identifier: GPL-2.0
/*
 * triage: the OOM side.
 *
 * The oom_select hook hands out the verdict of the rule that matches a
 * candidate's label, and the "triage" OOM policy adds what only triage
 * knows to the classic selection: permissive mode, the fallback when every
 * candidate is protected, group kills and the deciding rule as the reason.
 * The ranking file shows the candidates as an OOM would order them.
 */

#define pr_fmt(fmt) "triage: " fmt

#include <linux/mm.h>
#include <linux/oom.h>
#include <linux/oom_policy.h>
#include <linux/pid_namespace.h>
#include <linux/rcupdate.h>
#include <linux/sched/signal.h>
#include <linux/sched/stat.h>
#include <linux/sched/task.h>
#include <linux/security.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/swap.h>
#include <linux/timekeeping.h>

#include "triage.h"

#define TRIAGE_FALLBACK_PANIC_MESSAGE \
	"oom policy triage: every OOM candidate is protected (fallback panic)"

/*
 * What the triage OOM policy's select tells its notify and group_member,
 * in the OOM's own oom_control (policy_data): the outcome in the low
 * byte, the group rule + 1 above it.
 */
#define TRIAGE_DATA_OUTCOME	GENMASK(7, 0)
#define TRIAGE_DATA_GROUP_SHIFT	8

static void triage_oc_set(struct oom_control *oc, enum triage_outcome outcome,
			  int group_rule)
{
	oc->policy_data = outcome |
		(unsigned long)(group_rule + 1) << TRIAGE_DATA_GROUP_SHIFT;
}

static int triage_oc_group_rule(const struct oom_control *oc)
{
	if (oc->policy != &triage_oom_policy)
		return TRIAGE_RULE_NONE;
	return (int)(oc->policy_data >> TRIAGE_DATA_GROUP_SHIFT) - 1;
}

/*
 * Jiffies of the last victim the OOM policy chain chose, whichever policy
 * chose it and whatever the scope (0: none since boot): early action
 * holds off after every kill.  Written under oom_lock.
 */
unsigned long triage_last_kill;

/* What became of the victim: another policy's victim is plainly killed */
static enum triage_outcome triage_oc_outcome(const struct oom_control *oc)
{
	if (oc->early_trial)
		return TRIAGE_OUTCOME_WOULD_KILL;
	if (oc->policy != &triage_oom_policy)
		return TRIAGE_OUTCOME_KILLED;
	return oc->policy_data & TRIAGE_DATA_OUTCOME;
}

/* A protect rule's budget, in pages; 0 for none */
static unsigned long triage_rule_budget(const struct triage_loaded *l,
					int rule)
{
	return (unsigned long)l->policy->rules[rule].budget_mib <<
	       (20 - PAGE_SHIFT);
}

/*
 * What the OOM killer counts for @p (oom_badness() before oom_score_adj):
 * resident and swapped-out pages and page tables.
 */
static unsigned long triage_task_pages(struct task_struct *p)
{
	unsigned long pages;

	p = find_lock_task_mm(p);
	if (!p)
		return 0;
	pages = get_mm_rss(p->mm) + get_mm_counter(p->mm, MM_SWAPENTS) +
		mm_pgtables_bytes(p->mm) / PAGE_SIZE;
	task_unlock(p);
	return pages;
}

/*
 * A protected task beyond its rule's budget is ordinary: a protected
 * service that leaks must not take the machine with it.
 */
static void triage_apply_budget(struct task_struct *p, unsigned long budget,
				struct oom_select_verdict *verdict)
{
	if (budget && verdict->protect && triage_task_pages(p) > budget)
		verdict->protect = false;
}

/*
 * Look the label up, and remember its verdict for the next OOM.  Returns
 * the matching rule's budget.
 */
static noinline unsigned long triage_oom_lookup(const struct triage_loaded *l,
						const struct triage_table *t,
						u32 secid, u64 serial,
						struct triage_task *tt,
						struct oom_select_verdict *verdict)
{
	int rule = triage_rule_of_secid(l, t, secid);
	unsigned long budget = 0;

	if (unlikely(rule == TRIAGE_RULE_MISS)) {
		/* counted where an OOM decides; learnt for the next one */
		atomic_long_inc(&triage_counters.label_misses);
		triage_learn_later();
		return 0;
	}
	if (rule >= 0) {
		*verdict = l->verdicts[rule];
		budget = triage_rule_budget(l, rule);
	}
	/* the initial credentials have no serial: looked up every time */
	if (serial) {
		tt->cred_serial = serial;
		tt->secid = secid;
		tt->table_gen = t->gen;
		tt->verdict = *verdict;
		tt->budget = budget;
	}
	return budget;
}

/*
 * The verdict on an OOM candidate, as the OOM selection remembered it for
 * the task: handed out with no table lookup while the task keeps its
 * credentials and label and the policy its table (AppArmor moves a task
 * to a replaced profile's new label without new credentials).  Under
 * oom_lock (the only writer and reader of what is remembered) and RCU.
 */
static __always_inline void
triage_oom_verdict(const struct triage_loaded *l, struct task_struct *p,
		   struct oom_select_verdict *verdict)
{
	const struct triage_table *t = rcu_dereference(l->table);
	u64 serial = triage_cred(rcu_dereference(p->real_cred))->serial;
	struct triage_task *tt = triage_task(p);
	u32 secid = triage_task_secid(p);
	unsigned long budget;

	lockdep_assert_held(&oom_lock);
	if (likely(tt->table_gen == t->gen && tt->cred_serial == serial &&
		   tt->secid == secid)) {
		*verdict = tt->verdict;
		budget = tt->budget;
	} else {
		/* out of line: the selection's path keeps few registers */
		budget = triage_oom_lookup(l, t, secid, serial, tt, verdict);
	}
	if (unlikely(budget))
		triage_apply_budget(p, budget, verdict);
}

/**
 * triage_oom_select - the oom_select LSM hook
 * @p: the candidate
 * @oc: the OOM, or %NULL outside one
 * @purpose: why the LSMs are asked
 * @verdict: set to the verdict of the rule that matches @p's label
 *
 * Permissive mode answers only the questions that decide nothing (a trial
 * of the policy, a ranking for the administrator).  A label never matched
 * is counted during an OOM and learnt later.  Called under RCU; never
 * sleeps or allocates.
 *
 * Return: 0.
 */
int triage_oom_select(struct task_struct *p, const struct oom_control *oc,
		      enum oom_select_purpose purpose,
		      struct oom_select_verdict *verdict)
{
	const struct triage_loaded *l;
	int rule;

	if ((purpose == OOM_SELECT_KILL || purpose == OOM_SELECT_SCORE) &&
	    READ_ONCE(triage_mode) != TRIAGE_MODE_ENFORCE)
		return 0;

	/* security_oom_select() calls the hooks under rcu_read_lock() */
	l = rcu_dereference(triage_active);
	if (!l)
		return 0;
	/* an OOM holds oom_lock; other readers look the label up */
	if (oc) {
		triage_oom_verdict(l, p, verdict);
		return 0;
	}
	rule = triage_rule_of(l, p);
	if (rule >= 0) {
		*verdict = l->verdicts[rule];
		triage_apply_budget(p, triage_rule_budget(l, rule), verdict);
	}
	return 0;
}

static const struct triage_loaded *triage_oom_policy_locked(void)
{
	return rcu_dereference_protected(triage_active,
					 lockdep_is_held(&oom_lock));
}

/* Permissive mode: record what triage would kill; the classic victim dies */
static void triage_oom_trial(const struct triage_loaded *l,
			     struct oom_control *oc)
{
	enum oom_policy_result res;

	oc->purpose = OOM_SELECT_TRIAL;
	res = oom_select_classic(oc);
	atomic_long_add(oc->nr_protected, &triage_counters.protected_skipped);
	if (res == OOM_POLICY_PASS && oc->nr_protected)
		res = oom_select_least_protected(oc);
	if (res == OOM_POLICY_VICTIM) {
		triage_record(l, oc, oc->chosen, oc->chosen_points,
			      TRIAGE_OUTCOME_WOULD_KILL);
		put_task_struct(oc->chosen);
	}
	oc->chosen = NULL;
	oc->purpose = OOM_SELECT_KILL;
	oc->nr_protected = 0;
}

/*
 * The "triage" OOM policy: the classic selection, whose candidates the
 * oom_select hook puts in tiers, plus what only triage knows: permissive
 * mode, the fallback when every candidate is protected, group kills and a
 * reason naming the deciding rule.
 */
static enum oom_policy_result triage_oom_policy_select(struct oom_control *oc)
{
	const struct triage_loaded *l = triage_oom_policy_locked();
	enum oom_policy_result res;
	const struct triage_rule *r;
	u64 start, took;
	int rule;

	if (!l)
		return OOM_POLICY_PASS;
	start = ktime_get_ns();
	triage_oc_set(oc, TRIAGE_OUTCOME_KILLED, TRIAGE_RULE_NONE);

	/* a trial of an early kill is the chain's own: nothing to add */
	if (READ_ONCE(triage_mode) == TRIAGE_MODE_PERMISSIVE &&
	    !oc->early_trial) {
		triage_oom_trial(l, oc);
		res = OOM_POLICY_PASS;
		goto out;
	}

	res = oom_select_classic(oc);
	atomic_long_add(oc->nr_protected, &triage_counters.protected_skipped);
	if (res == OOM_POLICY_PASS && oc->nr_protected) {
		atomic_long_inc(&triage_counters.fallbacks);
		if (l->policy->fallback == TRIAGE_FALLBACK_PANIC)
			oom_policy_panic(oc, TRIAGE_FALLBACK_PANIC_MESSAGE);
		/* not a system-wide OOM, or not panic: the least protected */
		res = oom_select_least_protected(oc);
		triage_oc_set(oc, l->policy->fallback == TRIAGE_FALLBACK_CLASSIC ?
			      TRIAGE_OUTCOME_FALLBACK_CLASSIC :
			      TRIAGE_OUTCOME_FALLBACK_LEAST_PROTECTED,
			      TRIAGE_RULE_NONE);
		oc->reason = "every candidate protected, fallback least-protected";
		goto out;
	}
	if (res != OOM_POLICY_VICTIM)
		goto out;
	rcu_read_lock();
	rule = triage_rule_of(l, oc->chosen);
	rcu_read_unlock();
	if (rule < 0) {
		oc->reason = "no rule matched, highest badness";
		goto out;
	}
	oc->reason = l->reasons[rule];
	r = &l->policy->rules[rule];
	if (r->verdict == TRIAGE_VERDICT_SACRIFICE && r->group &&
	    oc->chosen_tier == OOM_TIER_SACRIFICE) {
		triage_oc_set(oc, TRIAGE_OUTCOME_KILLED, rule);
		oc->kill_group = true;
	}
out:
	took = ktime_get_ns() - start;
	WRITE_ONCE(triage_counters.selection_ns_last, took);
	if (took > triage_counters.selection_ns_max)
		WRITE_ONCE(triage_counters.selection_ns_max, took);
	return res;
}

/* A task of the victim's group rule dies with it (after the victim) */
static bool triage_oom_group_member(const struct oom_control *oc,
				    struct task_struct *p)
{
	const struct triage_loaded *l = triage_oom_policy_locked();
	int group_rule = triage_oc_group_rule(oc), rule;

	if (!l || group_rule < 0 || !thread_group_leader(p))
		return false;
	rcu_read_lock();
	rule = triage_rule_of(l, p);
	rcu_read_unlock();
	/* counted and recorded with the victim (oc->nr_group_killed) */
	return rule == group_rule;
}

/*
 * Told of every victim the chain chose, whichever policy chose it, after
 * the kill and its group's: one decision, whatever the group's size.
 */
static void triage_oom_policy_notify(const struct oom_control *oc)
{
	const struct triage_loaded *l = triage_oom_policy_locked();
	enum triage_outcome outcome = triage_oc_outcome(oc);

	if (!oc->early_trial)
		WRITE_ONCE(triage_last_kill, jiffies ?: 1);
	if (!l)
		return;
	if (!oc->early_trial)
		atomic_long_inc(&triage_counters.oom_events);
	atomic_long_add(oc->nr_group_killed, &triage_counters.group_kills);
	triage_record(l, oc, oc->chosen, oc->chosen_points, outcome);
}

struct oom_policy triage_oom_policy = {
	.name		= "triage",
	.select		= triage_oom_policy_select,
	.notify		= triage_oom_policy_notify,
	.group_member	= triage_oom_group_member,
};

struct triage_rank {
	struct oom_candidate c;
	u32 secid;
	pid_t pid;
	int rule;
	enum triage_verdict verdict;
	char comm[TASK_COMM_LEN];
	char *label;
};

static int triage_rank_cmp(const void *a, const void *b)
{
	const struct triage_rank *x = a, *y = b;

	if (x->c.tier != y->c.tier)
		return x->c.tier < y->c.tier ? 1 : -1;
	if (x->c.rank != y->c.rank)
		return x->c.rank < y->c.rank ? 1 : -1;
	if (x->c.points != y->c.points)
		return x->c.points < y->c.points ? 1 : -1;
	return x->pid - y->pid;
}

static const char *const triage_tier_names[] = {
	[OOM_TIER_PROTECTED] = "protected",
	[OOM_TIER_ORDINARY] = "ordinary",
	[OOM_TIER_SACRIFICE] = "sacrifice",
};

/**
 * triage_escape - copy a label or command name for an interface file
 * @dst: the destination
 * @size: size of @dst; 4 times the length of @src plus one is always enough
 * @src: the text, which its task or its LSM chose
 *
 * Every byte that could break a line, a column or a terminal (controls,
 * space, DEL and above) and the backslash itself becomes "\ooo", so that a
 * process naming itself cannot add a row to what the administrator reads.
 * A text that does not fit is cut at a whole character.
 *
 * Return: the length written, without the terminating NUL.
 */
size_t triage_escape(char *dst, size_t size, const char *src)
{
	size_t n = 0;

	if (!size)
		return 0;
	for (; *src && n + 5 <= size; src++) {
		unsigned char c = *src;

		if (c <= ' ' || c >= 0x7f || c == '\\')
			n += scnprintf(dst + n, size - n, "\\%03o", c);
		else
			dst[n++] = c;
	}
	dst[n] = '\0';
	return n;
}

/**
 * triage_ranking_text - the candidates as an OOM would rank them now
 * @len: set to the length of the text
 *
 * The candidates in the reader's pid namespace, evaluated by the OOM
 * killer's own evaluation, with triage's verdicts as if enforcing: tier,
 * sacrifice rank, points.  Takes no lock that an OOM needs.
 *
 * Return: the table described in the triage documentation, to be freed
 * with kvfree(), or %NULL.
 */
char *triage_ranking_text(size_t *len)
{
	unsigned long totalpages = totalram_pages() + total_swap_pages;
	struct pid_namespace *ns = task_active_pid_ns(current);
	const struct triage_loaded *l;
	struct triage_rank *ranks;
	unsigned int n = 0, cap, i;
	struct task_struct *p;
	size_t size, off = 0;
	char *buf = NULL;

	triage_learn_labels();
	cap = nr_threads + 16;
again:
	ranks = kvmalloc_array(cap, sizeof(*ranks), GFP_KERNEL);
	if (!ranks)
		return NULL;

	n = 0;
	rcu_read_lock();
	l = rcu_dereference(triage_active);
	for_each_process(p) {
		struct triage_rank *r = &ranks[n];

		if (n == cap) {
			/* processes were forked since nr_threads was read */
			rcu_read_unlock();
			kvfree(ranks);
			cap *= 2;
			goto again;
		}
		r->label = NULL;
		if (!oom_candidate_eval(p, NULL, totalpages,
					OOM_SELECT_REPORT, &r->c))
			continue;
		r->pid = task_tgid_nr_ns(p, ns);
		if (!r->pid)
			continue;	/* not in the reader's namespace */
		r->secid = triage_task_secid(p);
		r->rule = l ? triage_rule_of(l, p) : TRIAGE_RULE_NONE;
		r->verdict = r->rule >= 0 ? l->policy->rules[r->rule].verdict :
					    TRIAGE_VERDICT_NONE;
		get_task_comm(r->comm, p);
		n++;
	}
	rcu_read_unlock();

	sort(ranks, n, sizeof(*ranks), triage_rank_cmp, NULL);
	size = 96;
	for (i = 0; i < n; i++) {
		ranks[i].label = triage_secid_label(ranks[i].secid);
		size += 128 + 4 * TASK_COMM_LEN +
			4 * (ranks[i].label ? strlen(ranks[i].label) : 1);
	}
	buf = kvmalloc(size, GFP_KERNEL);
	if (!buf)
		goto out;
	off = scnprintf(buf, size,
			"# rank\tpid\ttier\tsrank\tpoints\tverdict\trule\tlabel\tcomm\n");
	for (i = 0; i < n; i++) {
		const struct triage_rank *r = &ranks[i];
		char rank[12] = "-", points[24] = "-", rule[12] = "-";
		char srank[12] = "-";

		if (r->rule >= 0)
			snprintf(rule, sizeof(rule), "%d", r->rule + 1);
		else if (r->rule == TRIAGE_RULE_MISS)
			snprintf(rule, sizeof(rule), "miss");
		if (r->c.tier != OOM_TIER_PROTECTED) {
			snprintf(rank, sizeof(rank), "%u", i + 1);
			snprintf(points, sizeof(points), "%ld", r->c.points);
		}
		if (r->c.tier == OOM_TIER_SACRIFICE)
			snprintf(srank, sizeof(srank), "%u", r->c.rank);
		off += scnprintf(buf + off, size - off, "%s\t%d\t%s\t%s\t%s\t%s\t%s\t",
				 rank, r->pid, triage_tier_names[r->c.tier],
				 srank, points, triage_verdict_name(r->verdict),
				 rule);
		off += triage_escape(buf + off, size - off,
				     r->label ? r->label : "?");
		off += scnprintf(buf + off, size - off, "\t");
		off += triage_escape(buf + off, size - off, r->comm);
		off += scnprintf(buf + off, size - off, "\n");
	}
out:
	for (i = 0; i < n; i++)
		kfree(ranks[i].label);
	kvfree(ranks);
	*len = off;
	return buf;
}
