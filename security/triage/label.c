// SPDX-License-Identifier: GPL-2.0
/*
 * triage: labels and the rules they match.
 *
 * Labels are matched against the policy in process context only: at policy
 * load, when the major LSM changes its policy, and when a label first shows
 * up (at fork, exec, or a replaced AppArmor profile).  The result is a
 * table from label (secid) to rule, published with the policy under RCU,
 * that the OOM path reads without a lock.
 */

#define pr_fmt(fmt) "triage: " fmt

#include <linux/cred.h>
#include <linux/hash.h>
#include <linux/log2.h>
#include <linux/mm.h>
#include <linux/rcupdate.h>
#include <linux/sched/signal.h>
#include <linux/sched/stat.h>
#include <linux/security.h>
#include <linux/slab.h>
#include <linux/workqueue.h>

#include "triage.h"

/*
 * A slot of the label table: the secid in the low 32 bits, the matching
 * rule + 1 (0: no rule matches) above it, and a bit that tells a used slot
 * from an empty one (secid 0 is the label of every task when no LSM labels
 * tasks).  One word, so that the OOM path reads a slot without a lock.
 */
#define TRIAGE_SLOT_USED	BIT_ULL(63)
#define TRIAGE_SLOT_RULE_SHIFT	32
#define TRIAGE_SLOT_RULE_MASK	0xffffULL

/* Generation of the last table built; under triage_load_mutex */
static u32 triage_last_table_gen;

/* Serial of the last credentials numbered */
static atomic64_t triage_last_cred_serial = ATOMIC64_INIT(0);

/**
 * triage_cred_new_serial - number a new set of credentials
 * @cred: credentials still private to their preparer
 *
 * A serial is never reused (64 bits), so that the OOM selection can tell
 * the credentials a task carries now from those it remembered a verdict for,
 * even when the new ones sit where the old ones were freed.
 */
void triage_cred_new_serial(struct cred *cred)
{
	triage_cred(cred)->serial =
		atomic64_inc_return(&triage_last_cred_serial);
}

/**
 * triage_task_secid - the label of a task, as its major LSM sees it now
 * @p: the task
 *
 * The one place that reads a label (6.13 replaces secids with struct
 * lsm_prop).  security_task_getsecid_obj() answers without allocating on
 * SELinux, Smack and AppArmor; AppArmor answers with the newest version of
 * a replaced profile, which a task otherwise takes only at its next
 * AppArmor hook.  It may be called on the OOM path, under RCU.
 *
 * Return: the secid, 0 when no LSM labels tasks.
 */
u32 triage_task_secid(struct task_struct *p)
{
	u32 secid = 0;

	security_task_getsecid_obj(p, &secid);
	return secid;
}

/* Whether the major LSM still knows @secid (no allocation: length only) */
static bool triage_secid_alive(u32 secid)
{
	u32 len;

	return !secid || !security_secid_to_secctx(secid, NULL, &len);
}

static u64 triage_slot(u32 secid, int rule)
{
	return TRIAGE_SLOT_USED | (u64)(rule + 1) << TRIAGE_SLOT_RULE_SHIFT |
	       secid;
}

static int triage_slot_rule(u64 slot)
{
	return (int)((slot >> TRIAGE_SLOT_RULE_SHIFT) & TRIAGE_SLOT_RULE_MASK) - 1;
}

/* The rule of @secid in @t, TRIAGE_RULE_NONE, or TRIAGE_RULE_MISS */
static int triage_table_lookup(const struct triage_table *t, u32 secid)
{
	unsigned int i = hash_32(secid, 32) & t->mask, n;
	u64 slot;

	for (n = 0; n <= t->mask; n++, i = (i + 1) & t->mask) {
		slot = READ_ONCE(t->slots[i]);
		if (!slot)
			break;
		if ((u32)slot == secid)
			return triage_slot_rule(slot);
	}
	return TRIAGE_RULE_MISS;
}

/* Room for @n labels; process context */
static struct triage_table *triage_table_alloc(unsigned int n)
{
	unsigned int size = roundup_pow_of_two(max(2 * n + 2, 64U));
	struct triage_table *t;

	t = kvzalloc(struct_size(t, slots, size), GFP_KERNEL);
	if (t)
		t->mask = size - 1;
	return t;
}

/* Add @secid -> @rule to @t, which has room; readers may be looking */
static void triage_table_insert(struct triage_table *t, u32 secid, int rule)
{
	unsigned int i = hash_32(secid, 32) & t->mask;

	while (t->slots[i] && (u32)t->slots[i] != secid)
		i = (i + 1) & t->mask;
	if (!t->slots[i])
		t->used++;
	WRITE_ONCE(t->slots[i], triage_slot(secid, rule));
}

static bool triage_table_full(const struct triage_table *t)
{
	return 2 * (t->used + 1) > t->mask + 1;
}

/*
 * Turn a label into a rule index.  Process context only: asking the major
 * LSM for the text of a label allocates.
 */
static int triage_match_secid(const struct triage_loaded *l, u32 secid,
			      int *err)
{
	char *ctx, *label;
	u32 len;
	int rule;

	if (!secid)
		return triage_policy_match(l->policy, "");
	if (security_secid_to_secctx(secid, &ctx, &len))
		return TRIAGE_RULE_NONE;	/* a label with no text */
	label = kmemdup_nul(ctx, strnlen(ctx, len), GFP_KERNEL);
	security_release_secctx(ctx, len);
	if (!label) {
		*err = -ENOMEM;
		return TRIAGE_RULE_NONE;
	}
	rule = triage_policy_match(l->policy, label);
	kfree(label);
	return rule;
}

/**
 * triage_secid_label - the text of a label, for the interface files
 * @secid: the label
 *
 * Process context only.
 *
 * Return: a string the caller frees with kfree(), or %NULL.
 */
char *triage_secid_label(u32 secid)
{
	char *ctx, *label;
	u32 len;

	if (!secid || security_secid_to_secctx(secid, &ctx, &len))
		return kstrdup("-", GFP_KERNEL);
	label = kmemdup_nul(ctx, strnlen(ctx, len), GFP_KERNEL);
	security_release_secctx(ctx, len);
	return label;
}

/**
 * triage_table_build - match every label in use against a policy
 * @l: the policy
 * @prev: the table of the policy in force, or %NULL
 * @errp: set to 0 or -ENOMEM
 *
 * The rule of every label that a task carries now, and of every label of
 * @prev that still exists, matched against @l.  A label that died is left
 * out: the major LSM may give its number to another label (AppArmor did,
 * at once, before this series).  Process context; the caller holds
 * triage_load_mutex.
 *
 * Return: the new table, or %NULL on failure.
 */
struct triage_table *triage_table_build(const struct triage_loaded *l,
					const struct triage_table *prev,
					int *errp)
{
	unsigned int cap = nr_threads + 64, n = 0, i, tasks = 0, unlabelled = 0;
	struct task_struct *g, *t;
	struct triage_table *table;
	u32 *secids;
	int err = 0;

	if (prev)
		cap += prev->used;
	secids = kvmalloc_array(cap, sizeof(*secids), GFP_KERNEL);
	table = triage_table_alloc(cap);
	if (!secids || !table) {
		err = -ENOMEM;
		goto out;
	}
	/* 0 is never a table's: a task's remembered verdict starts invalid */
	table->gen = ++triage_last_table_gen ?: ++triage_last_table_gen;
	/* a table of seen labels doubles as the set of distinct ones */
	rcu_read_lock();
	for_each_process_thread(g, t) {
		u32 secid = triage_task_secid(t);

		tasks++;
		unlabelled += !secid;
		if (n < cap && triage_table_lookup(table, secid) ==
			       TRIAGE_RULE_MISS) {
			triage_table_insert(table, secid, TRIAGE_RULE_NONE);
			secids[n++] = secid;
		}
	}
	rcu_read_unlock();
	/*
	 * Labels of @prev still alive: a task that learnt one into @prev
	 * while this table was built (under triage_load_mutex, before the
	 * build) may carry it after the walk above saw its old label.
	 */
	for (i = 0; prev && i <= prev->mask; i++) {
		u32 secid = (u32)prev->slots[i];

		if (prev->slots[i] && n < cap && triage_secid_alive(secid) &&
		    triage_table_lookup(table, secid) == TRIAGE_RULE_MISS) {
			triage_table_insert(table, secid, TRIAGE_RULE_NONE);
			secids[n++] = secid;
		}
	}
	for (i = 0; i < n && !err; i++) {
		triage_table_insert(table, secids[i],
				    triage_match_secid(l, secids[i], &err));
		cond_resched();
	}
	WRITE_ONCE(triage_counters.resolved_tasks, tasks);
	WRITE_ONCE(triage_counters.unlabelled_tasks, unlabelled);
	if (tasks && unlabelled == tasks)
		pr_warn_once("no LSM labels tasks: only label= rules matching the empty label apply\n");
out:
	kvfree(secids);
	if (err) {
		kvfree(table);
		table = NULL;
	}
	*errp = err;
	return table;
}

/**
 * triage_table_free_rcu - free a table after the readers are gone
 * @head: the table's rcu_head
 */
void triage_table_free_rcu(struct rcu_head *head)
{
	kvfree(container_of(head, struct triage_table, rcu));
}

/**
 * triage_learn_secid - make sure the policy in force knows a label
 * @secid: the label
 *
 * A known label costs one lock-free lookup; a new one is matched against
 * the policy and added to its table.  Process context, may sleep.
 *
 * Return: false if the label could not be matched (out of memory).
 */
bool triage_learn_secid(u32 secid)
{
	bool learned = false;
	struct triage_table *t, *bigger;
	const struct triage_loaded *l;
	int err = 0, rule;
	unsigned int i;

	if (!triage_label_missing(secid))
		return true;

	mutex_lock(&triage_load_mutex);
	l = rcu_dereference_protected(triage_active,
				      lockdep_is_held(&triage_load_mutex));
	if (!l)
		goto out;
	t = rcu_dereference_protected(l->table,
				      lockdep_is_held(&triage_load_mutex));
	learned = true;
	if (triage_table_lookup(t, secid) != TRIAGE_RULE_MISS)
		goto out;
	rule = triage_match_secid(l, secid, &err);
	learned = false;
	if (err)
		goto out;
	if (triage_table_full(t)) {
		bigger = triage_table_alloc(2 * (t->used + 1));
		if (!bigger)
			goto out;
		/* the same rules for the same labels: remembered verdicts hold */
		bigger->gen = t->gen;
		for (i = 0; i <= t->mask; i++)
			if (t->slots[i])
				triage_table_insert(bigger, (u32)t->slots[i],
						    triage_slot_rule(t->slots[i]));
		triage_table_insert(bigger, secid, rule);
		rcu_assign_pointer(((struct triage_loaded *)l)->table, bigger);
		call_rcu(&t->rcu, triage_table_free_rcu);
	} else {
		triage_table_insert(t, secid, rule);
	}
	atomic_long_inc(&triage_counters.labels_learnt);
	learned = true;
out:
	mutex_unlock(&triage_load_mutex);
	return learned;
}

/*
 * The label of the first task that @table lacks.  Its own function: a
 * break inside for_each_process_thread() leaves only the loop over the
 * threads, and the walk would go on with the next process, overwriting
 * the label found.  Under RCU.
 */
static bool triage_first_missing(const struct triage_table *table, u32 *secid)
{
	struct task_struct *g, *t;

	for_each_process_thread(g, t) {
		*secid = triage_task_secid(t);
		if (triage_table_lookup(table, *secid) == TRIAGE_RULE_MISS)
			return true;
	}
	return false;
}

/*
 * Learn the labels of every task: after a miss, from a work item.  Each
 * turn learns a label or stops: a label that cannot be learnt (out of
 * memory) ends the walk instead of being tried again.
 */
static void triage_learn_workfn(struct work_struct *work)
{
	for (;;) {
		const struct triage_loaded *l;
		bool missing = false;
		u32 secid = 0;

		rcu_read_lock();
		l = rcu_dereference(triage_active);
		if (l)
			missing = triage_first_missing(rcu_dereference(l->table),
						       &secid);
		rcu_read_unlock();
		if (!missing || !triage_learn_secid(secid))
			return;
		cond_resched();
	}
}

static DECLARE_WORK(triage_learn_work, triage_learn_workfn);

/**
 * triage_learn_later - learn the labels not yet known, from a work item
 *
 * For the contexts that may not sleep: the OOM path, cred_prepare.
 */
void triage_learn_later(void)
{
	schedule_work(&triage_learn_work);
}

/**
 * triage_label_missing - whether the policy in force lacks a label
 * @secid: the label
 *
 * Lock-free; any context.
 *
 * Return: true if a policy is in force and has never matched @secid.
 */
bool triage_label_missing(u32 secid)
{
	const struct triage_loaded *l;
	bool missing;

	rcu_read_lock();
	l = rcu_dereference(triage_active);
	missing = l && triage_table_lookup(rcu_dereference(l->table), secid) ==
		       TRIAGE_RULE_MISS;
	rcu_read_unlock();
	return missing;
}

/**
 * triage_learn_labels - match every label in use that is not yet known
 *
 * For readers of the interface files, so that what they show is the
 * policy's verdict for every task's current label.  Process context.
 */
void triage_learn_labels(void)
{
	triage_learn_workfn(NULL);
}

/**
 * triage_rule_of - the rule of a policy that matches a task's label
 * @l: the policy
 * @p: the task
 *
 * Allocation-free, O(1), under RCU.  The OOM selection first tries the
 * verdict it remembered for @p (oom.c); /proc/<pid>/oom_score and rankings
 * always look the label up here.
 *
 * Return: the rule's index, %TRIAGE_RULE_NONE when no rule matches, or
 * %TRIAGE_RULE_MISS when @p's label was never matched.
 */
int triage_rule_of(const struct triage_loaded *l, struct task_struct *p)
{
	return triage_rule_of_secid(l, rcu_dereference(l->table),
				    triage_task_secid(p));
}

/**
 * triage_rule_of_secid - the rule of a policy that matches a label
 * @l: the policy
 * @t: @l's table
 * @secid: the label
 *
 * Allocation-free, under RCU.
 *
 * Return: the rule's index, %TRIAGE_RULE_NONE when no rule matches, or
 * %TRIAGE_RULE_MISS when the label was never matched.
 */
int triage_rule_of_secid(const struct triage_loaded *l,
			 const struct triage_table *t, u32 secid)
{
	int rule = triage_table_lookup(t, secid);

	if (unlikely(rule >= (int)l->policy->nr_rules))
		return TRIAGE_RULE_MISS;	/* cannot happen: a bad slot */
	return rule;
}

/* Whether @a and @b give every label the same rule */
static bool triage_table_same(const struct triage_table *a,
			      const struct triage_table *b)
{
	unsigned int i;

	if (a->used != b->used)
		return false;
	for (i = 0; i <= a->mask; i++)
		if (a->slots[i] &&
		    triage_table_lookup(b, (u32)a->slots[i]) !=
		    triage_slot_rule(a->slots[i]))
			return false;
	return true;
}

/**
 * triage_rebuild_table - match every label again against the policy
 *
 * The major LSM changed its policy: labels may mean something else now.
 * Process context, may sleep.
 */
void triage_rebuild_table(void)
{
	struct triage_table *table, *old;
	struct triage_loaded *l;
	int err;

	mutex_lock(&triage_load_mutex);
	l = rcu_dereference_protected(triage_active,
				      lockdep_is_held(&triage_load_mutex));
	/* without a rule no label means anything: setenforce stays stock */
	if (!triage_has_rules(l))
		goto out;
	old = rcu_dereference_protected(l->table,
					lockdep_is_held(&triage_load_mutex));
	table = triage_table_build(l, old, &err);
	if (!table) {
		pr_warn("cannot follow the LSM policy change: %d\n", err);
		goto out;
	}
	atomic_long_inc(&triage_counters.table_rebuilds);
	/* setenforce, a boolean: the verdicts OOMs remembered still hold */
	if (triage_table_same(table, old)) {
		kvfree(table);
		goto out;
	}
	rcu_assign_pointer(l->table, table);
	call_rcu(&old->rcu, triage_table_free_rcu);
out:
	mutex_unlock(&triage_load_mutex);
}
