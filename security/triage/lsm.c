// SPDX-License-Identifier: GPL-2.0
/*
 * triage: choose OOM victims by security label.
 *
 * The administrator's policy gives verdicts (protect, sacrifice, adjust) to
 * security labels.  Labels are matched against the policy in process
 * context only: at policy load, when the major LSM changes its policy, and
 * when a label first shows up (at fork, exec, or a replaced AppArmor
 * profile).  The result is a table from label (secid) to rule, published
 * with the policy under RCU.  On the OOM path the oom_select hook reads the
 * label of the candidate's credentials and looks it up in that table: it
 * never sleeps, allocates or formats a string, and writes nothing.
 */

#define pr_fmt(fmt) "triage: " fmt

#include <linux/audit.h>
#include <linux/binfmts.h>
#include <linux/cred.h>
#include <linux/hash.h>
#include <linux/lsm_hooks.h>
#include <linux/math64.h>
#include <linux/memcontrol.h>
#include <linux/mm.h>
#include <linux/oom.h>
#include <linux/oom_policy.h>
#include <linux/pid_namespace.h>
#include <linux/sched/signal.h>
#include <linux/sched/stat.h>
#include <linux/sched/task.h>
#include <linux/security.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/spinlock.h>
#include <linux/swap.h>
#include <linux/timekeeping.h>
#include <linux/workqueue.h>
#include <linux/xxhash.h>
#include <uapi/linux/audit.h>
#include <uapi/linux/lsm.h>

#include "triage.h"

struct triage_loaded __rcu *triage_active;
struct triage_counters triage_counters;

/*
 * Serialises policy loads, table rebuilds and the learning of new labels.
 * Never taken on the OOM path, nor by an exec or fork of a known label.
 */
static DEFINE_MUTEX(triage_load_mutex);
static u16 triage_generation;
static int triage_mode = TRIAGE_MODE_ENFORCE;

#define TRIAGE_FALLBACK_PANIC_MESSAGE \
	"oom policy triage: every OOM candidate is protected (fallback panic)"

/* Between the triage OOM policy's select and notify, under oom_lock */
static enum triage_outcome triage_pending_outcome;
static int triage_group_rule = TRIAGE_RULE_NONE;

static char triage_last_error[128];
static DEFINE_SPINLOCK(triage_error_lock);

static struct triage_decision triage_ring[TRIAGE_DECISIONS];
static u64 triage_decision_seq;
static u64 triage_audited_seq;
static DEFINE_SPINLOCK(triage_ring_lock);

/*
 * A slot of the label table: the secid in the low 32 bits, the matching
 * rule + 1 (0: no rule matches) above it, and a bit that tells a used slot
 * from an empty one (secid 0 is the label of every task when no LSM labels
 * tasks).  One word, so that the OOM path reads a slot without a lock.
 */
#define TRIAGE_SLOT_USED	BIT_ULL(63)
#define TRIAGE_SLOT_RULE_SHIFT	32
#define TRIAGE_SLOT_RULE_MASK	0xffffULL

/**
 * struct triage_table - the rule of every label seen, for one policy
 * @mask: number of slots - 1 (a power of two)
 * @used: slots in use; the table is never more than half full
 * @rcu: frees the table after readers are gone
 * @slots: open addressing, linear probing
 */
struct triage_table {
	unsigned int mask;
	unsigned int used;
	struct rcu_head rcu;
	u64 slots[];
};

/*
 * The label of @cred, 0 when no LSM labels tasks.  Every major LSM answers
 * for a cred without allocating or taking a reference.
 */
static u32 triage_cred_secid(const struct cred *cred)
{
	u32 secid = 0;

	security_cred_getsecid(cred, &secid);
	return secid;
}

/* The label of @p's objective credentials; under RCU */
static u32 triage_task_secid(struct task_struct *p)
{
	return triage_cred_secid(rcu_dereference(p->real_cred));
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

/*
 * A table of the rule of every label that a task carries now, and of every
 * label of @prev (labels seen earlier, which tasks may take again), matched
 * against @l.  Process context; caller holds triage_load_mutex.
 */
static struct triage_table *triage_table_build(const struct triage_loaded *l,
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
	for (i = 0; prev && i <= prev->mask; i++) {
		u32 secid = (u32)prev->slots[i];

		if (prev->slots[i] && n < cap &&
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

static void triage_table_free_rcu(struct rcu_head *head)
{
	kvfree(container_of(head, struct triage_table, rcu));
}

/*
 * Make sure the table of @l knows @secid; process context, may sleep.  A
 * known label costs one lock-free lookup.
 */
static bool triage_learn_secid(u32 secid)
{
	bool learned = false;
	struct triage_table *t, *bigger;
	const struct triage_loaded *l;
	int err = 0, rule;
	unsigned int i;

	rcu_read_lock();
	l = rcu_dereference(triage_active);
	rule = l ? triage_table_lookup(rcu_dereference(l->table), secid) : 0;
	rcu_read_unlock();
	if (rule != TRIAGE_RULE_MISS)
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
	learned = true;
out:
	mutex_unlock(&triage_load_mutex);
	return learned;
}

/* Learn the labels of every task: after a miss, from a work item */
static void triage_learn_workfn(struct work_struct *work)
{
	struct task_struct *g, *t;
	u32 secid;

	for (;;) {
		bool missing = false;
		const struct triage_loaded *l;

		secid = 0;
		rcu_read_lock();
		l = rcu_dereference(triage_active);
		if (l) {
			const struct triage_table *table = rcu_dereference(l->table);

			for_each_process_thread(g, t) {
				secid = triage_task_secid(t);
				if (triage_table_lookup(table, secid) ==
				    TRIAGE_RULE_MISS) {
					missing = true;
					break;
				}
			}
		}
		rcu_read_unlock();
		if (!missing || !triage_learn_secid(secid))
			return;
		cond_resched();
	}
}

static DECLARE_WORK(triage_learn_work, triage_learn_workfn);

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

/*
 * The rule that matches @p under @l: TRIAGE_RULE_NONE when no rule does,
 * TRIAGE_RULE_MISS when @p's label was never matched.  Allocation-free,
 * O(1), under RCU.
 */
static int triage_rule_of(const struct triage_loaded *l, struct task_struct *p)
{
	int rule = triage_table_lookup(rcu_dereference(l->table),
				       triage_task_secid(p));

	if (unlikely(rule >= (int)l->policy->nr_rules))
		return TRIAGE_RULE_MISS;	/* cannot happen: a bad slot */
	return rule;
}

static void triage_loaded_free(struct triage_loaded *l)
{
	unsigned int i;

	if (!l)
		return;
	if (l->reasons)
		for (i = 0; i < l->policy->nr_rules; i++)
			kfree(l->reasons[i]);
	kfree(l->reasons);
	kvfree(l->verdicts);
	kvfree(l->hits);
	kvfree(l->text);
	kvfree(rcu_access_pointer(l->table));
	triage_policy_free(l->policy);
	kfree(l);
}

/* The reason an OOM report gives for rule @i: its canonical line */
static char *triage_rule_reason(const struct triage_loaded *l, unsigned int i)
{
	const char *line = l->text;
	unsigned int skip = 3 + i;	/* three settings lead the text */
	const char *end;

	while (skip-- && line)
		line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL;
	if (!line)
		return kasprintf(GFP_KERNEL, "rule %u", i + 1);
	end = strchrnul(line, '\n');
	return kasprintf(GFP_KERNEL, "rule %u: %.*s", i + 1,
			 (int)(end - line), line);
}

/* The hook's answer for a task that @r matches, worked out once per load */
static void triage_rule_verdict(const struct triage_policy *policy,
				const struct triage_rule *r,
				struct oom_select_verdict *v)
{
	switch (r->verdict) {
	case TRIAGE_VERDICT_PROTECT:
		v->protect = true;
		break;
	case TRIAGE_VERDICT_SACRIFICE:
		v->sacrifice = true;
		v->rank = r->rank;
		v->override_score_adj = !policy->respect_score_adj;
		break;
	case TRIAGE_VERDICT_ADJUST:
		v->adj = r->adjust;
		break;
	default:
		break;
	}
}

static struct triage_loaded *triage_loaded_new(struct triage_policy *policy)
{
	struct triage_loaded *l;
	unsigned int i;
	int len;

	l = kzalloc(sizeof(*l), GFP_KERNEL);
	if (!l)
		return NULL;
	l->policy = policy;
	len = triage_policy_print(policy, NULL, 0);
	l->text = kvmalloc(len + 1, GFP_KERNEL);
	l->hits = kvcalloc(max(policy->nr_rules, 1U), sizeof(*l->hits),
			   GFP_KERNEL);
	l->reasons = kcalloc(max(policy->nr_rules, 1U), sizeof(*l->reasons),
			     GFP_KERNEL);
	l->verdicts = kvcalloc(max(policy->nr_rules, 1U), sizeof(*l->verdicts),
			       GFP_KERNEL);
	if (!l->text || !l->hits || !l->reasons || !l->verdicts)
		goto fail;
	for (i = 0; i < policy->nr_rules; i++)
		triage_rule_verdict(policy, &policy->rules[i], &l->verdicts[i]);
	l->text_len = triage_policy_print(policy, l->text, len + 1);
	for (i = 0; i < policy->nr_rules; i++) {
		l->reasons[i] = triage_rule_reason(l, i);
		if (!l->reasons[i])
			goto fail;
	}
	l->hash = xxh64(l->text, l->text_len, 0);
	l->load_time = ktime_get_real_seconds();
	return l;
fail:
	triage_loaded_free(l);
	return NULL;
}

static void triage_set_error(const char *fmt, ...)
{
	va_list args;

	spin_lock(&triage_error_lock);
	va_start(args, fmt);
	vsnprintf(triage_last_error, sizeof(triage_last_error), fmt, args);
	va_end(args);
	spin_unlock(&triage_error_lock);
}

/* The hash of the policy in force, 0 when none */
static u64 triage_active_hash(void)
{
	const struct triage_loaded *l;
	u64 hash;

	rcu_read_lock();
	l = rcu_dereference(triage_active);
	hash = l ? l->hash : 0;
	rcu_read_unlock();
	return hash;
}

/* An AUDIT_TRIAGE_POLICY_LOAD record: who loaded what, replacing what */
static void triage_audit_load(const struct triage_loaded *l, u64 old_hash,
			      const char *error)
{
	struct audit_buffer *ab;

	ab = audit_log_start(audit_context(), GFP_KERNEL,
			     AUDIT_TRIAGE_POLICY_LOAD);
	if (!ab)
		return;
	if (l)
		audit_log_format(ab, "policy_hash=%016llx policy_rules=%u policy_generation=%u",
				 l->hash, l->policy->nr_rules, l->generation);
	else
		audit_log_format(ab, "policy_hash=? policy_rules=? policy_generation=?");
	audit_log_format(ab, " old_policy_hash=%016llx auid=%u ses=%u",
			 old_hash,
			 from_kuid(&init_user_ns, audit_get_loginuid(current)),
			 audit_get_sessionid(current));
	if (error) {
		audit_log_format(ab, " error=");
		audit_log_untrustedstring(ab, error);
	}
	audit_log_format(ab, " res=%d", !error);
	audit_log_end(ab);
}

/* An AUDIT_TRIAGE_STATUS record: enforcement switched on or off */
static void triage_audit_status(int mode, int old_mode)
{
	struct audit_buffer *ab;

	ab = audit_log_start(audit_context(), GFP_KERNEL, AUDIT_TRIAGE_STATUS);
	if (!ab)
		return;
	audit_log_format(ab, "enforcing=%d old_enforcing=%d auid=%u ses=%u res=1",
			 mode == TRIAGE_MODE_ENFORCE,
			 old_mode == TRIAGE_MODE_ENFORCE,
			 from_kuid(&init_user_ns, audit_get_loginuid(current)),
			 audit_get_sessionid(current));
	audit_log_end(ab);
}

/*
 * The OOM killer asks the LSMs only while one of them has a policy that can
 * give a verdict: keep triage's share of that count right as policies
 * replace each other.  The key goes on before a policy with rules is
 * published and off after a policy without rules is, so that an OOM under
 * the key always meets one policy whole.  Under triage_load_mutex.
 */
static bool triage_has_rules(const struct triage_loaded *l)
{
	return l && l->policy->nr_rules;
}

/**
 * triage_load_policy - parse a policy and put it in force
 * @text: the policy text
 * @len: its length
 *
 * A policy that does not parse, or whose labels cannot all be matched, is
 * rejected whole; the policy in force stays in force and
 * triage_load_error() tells why.  Process context.
 *
 * Return: 0, -EINVAL for a bad policy, -E2BIG for a policy over the size
 * limits, -ENOMEM.
 */
int triage_load_policy(const char *text, size_t len)
{
	struct triage_parse_error err = {};
	struct triage_table *table, *old_table;
	struct triage_loaded *l, *old;
	struct triage_policy *policy;
	int rc, old_mode;
	u64 old_hash;

	rc = triage_policy_parse(text, len, &policy, &err);
	if (rc) {
		char why[sizeof(triage_last_error)];

		snprintf(why, sizeof(why), "%u:%u: %s", err.line, err.column,
			 err.reason);
		triage_set_error("%s", why);
		pr_warn("policy rejected: %s\n", why);
		triage_audit_load(NULL, triage_active_hash(), why);
		return rc;
	}
	l = triage_loaded_new(policy);
	if (!l) {
		triage_policy_free(policy);
		triage_set_error("0:0: out of memory");
		triage_audit_load(NULL, triage_active_hash(), "out of memory");
		return -ENOMEM;
	}

	mutex_lock(&triage_load_mutex);
	old = rcu_dereference_protected(triage_active,
					lockdep_is_held(&triage_load_mutex));
	old_hash = old ? old->hash : 0;
	old_table = old ? rcu_dereference_protected(old->table,
			lockdep_is_held(&triage_load_mutex)) : NULL;
	table = triage_table_build(l, old_table, &rc);
	if (!table) {
		mutex_unlock(&triage_load_mutex);
		triage_loaded_free(l);
		triage_set_error("0:0: out of memory matching the labels in use");
		pr_warn("policy rejected: out of memory matching the labels in use\n");
		triage_audit_load(NULL, old_hash, "out of memory");
		return rc;
	}
	rcu_assign_pointer(l->table, table);
	l->generation = ++triage_generation;
	if (triage_has_rules(l) && !triage_has_rules(old))
		security_oom_select_enable();
	/* an OOM sees the old policy or the new one, never a mix */
	mutex_lock(&oom_lock);
	rcu_replace_pointer(triage_active, l, lockdep_is_held(&oom_lock));
	old_mode = triage_mode;
	WRITE_ONCE(triage_mode, policy->mode);
	mutex_unlock(&oom_lock);
	if (triage_has_rules(old) && !triage_has_rules(l))
		security_oom_select_disable();
	mutex_unlock(&triage_load_mutex);

	triage_set_error("%s", "");
	pr_info("policy %u loaded: %u rules, %s, hash %016llx\n",
		l->generation, policy->nr_rules,
		triage_mode_name(policy->mode), l->hash);
	triage_audit_load(l, old_hash, NULL);
	if (old_mode != policy->mode)
		triage_audit_status(policy->mode, old_mode);
	/* labels that appeared while the table was built */
	triage_learn_labels();

	synchronize_rcu();
	triage_loaded_free(old);
	return 0;
}

/* The major LSM changed its policy: labels may mean something else now */
static void triage_rebuild_table(void)
{
	struct triage_table *table, *old;
	struct triage_loaded *l;
	int err;

	mutex_lock(&triage_load_mutex);
	l = rcu_dereference_protected(triage_active,
				      lockdep_is_held(&triage_load_mutex));
	if (!l)
		goto out;
	old = rcu_dereference_protected(l->table,
					lockdep_is_held(&triage_load_mutex));
	table = triage_table_build(l, old, &err);
	if (!table) {
		pr_warn("cannot follow the LSM policy change: %d\n", err);
		goto out;
	}
	rcu_assign_pointer(l->table, table);
	call_rcu(&old->rcu, triage_table_free_rcu);
out:
	mutex_unlock(&triage_load_mutex);
}

/**
 * triage_load_error - why the last policy load was rejected
 * @buf: where to put "LINE:COLUMN: REASON"
 * @size: size of @buf
 *
 * Return: length of the text, 0 when the last load succeeded.
 */
size_t triage_load_error(char *buf, size_t size)
{
	size_t len;

	spin_lock(&triage_error_lock);
	len = strscpy(buf, triage_last_error, size);
	spin_unlock(&triage_error_lock);
	return len > 0 ? len : 0;
}

/**
 * triage_get_mode - the mode in force
 *
 * Return: %TRIAGE_MODE_ENFORCE or %TRIAGE_MODE_PERMISSIVE.
 */
enum triage_mode triage_get_mode(void)
{
	return READ_ONCE(triage_mode);
}

/**
 * triage_set_mode - switch between enforcing and permissive
 * @mode: the new mode; it holds until the next policy load
 *
 * Audited, as a switch to permissive turns protection off.
 */
void triage_set_mode(enum triage_mode mode)
{
	int old;

	mutex_lock(&oom_lock);
	old = triage_mode;
	WRITE_ONCE(triage_mode, mode);
	mutex_unlock(&oom_lock);
	pr_info("mode %s\n", triage_mode_name(mode));
	triage_audit_status(mode, old);
}

/*
 * The oom_select hook: the verdict of the rule that matches @p's label.
 * Permissive mode answers only the questions that decide nothing (a trial
 * of the policy, a ranking for the administrator).
 */
static int triage_oom_select(struct task_struct *p,
			     const struct oom_control *oc,
			     enum oom_select_purpose purpose,
			     struct oom_select_verdict *verdict)
{
	const struct triage_loaded *l;
	int rule;

	if ((purpose == OOM_SELECT_KILL || purpose == OOM_SELECT_SCORE) &&
	    READ_ONCE(triage_mode) != TRIAGE_MODE_ENFORCE)
		return 0;

	rcu_read_lock();
	l = rcu_dereference(triage_active);
	if (!l)
		goto out;
	rule = triage_rule_of(l, p);
	if (unlikely(rule == TRIAGE_RULE_MISS)) {
		/* counted where an OOM decides; learnt for the next one */
		if (oc) {
			atomic_long_inc(&triage_counters.label_misses);
			schedule_work(&triage_learn_work);
		}
		goto out;
	}
	if (rule >= 0)
		*verdict = l->verdicts[rule];
out:
	rcu_read_unlock();
	return 0;
}

static void triage_audit_workfn(struct work_struct *work);
static DECLARE_WORK(triage_audit_work, triage_audit_workfn);

/* Record a decision in the ring; the audit record follows from a worker */
static void triage_record(const struct triage_loaded *l,
			  const struct oom_control *oc, struct task_struct *victim,
			  long points, enum triage_outcome outcome)
{
	struct triage_decision *d;
	int rule;

	rcu_read_lock();
	rule = triage_rule_of(l, victim);
	rcu_read_unlock();
	spin_lock(&triage_ring_lock);
	d = &triage_ring[triage_decision_seq % TRIAGE_DECISIONS];
	d->seq = ++triage_decision_seq;
	d->time_ns = ktime_get_real_ns();
	d->points = points;
	rcu_read_lock();
	d->secid = triage_task_secid(victim);
	rcu_read_unlock();
	d->pid = task_tgid_nr(victim);
	d->rule = rule < 0 ? -1 : rule;
	d->verdict = rule < 0 ? TRIAGE_VERDICT_NONE :
				l->policy->rules[rule].verdict;
	d->mode = READ_ONCE(triage_mode);
	d->outcome = outcome;
	d->memcg = !!oc->memcg;
	memcpy(d->comm, victim->comm, TASK_COMM_LEN);
	d->comm[TASK_COMM_LEN - 1] = '\0';
	spin_unlock(&triage_ring_lock);

	if (rule >= 0)
		atomic_long_inc(&l->hits[rule]);
	if (d->verdict == TRIAGE_VERDICT_ADJUST)
		atomic_long_inc(&triage_counters.adjusted);
	if (d->verdict == TRIAGE_VERDICT_SACRIFICE &&
	    outcome == TRIAGE_OUTCOME_KILLED)
		atomic_long_inc(&triage_counters.sacrificed);
	schedule_work(&triage_audit_work);
}

/**
 * triage_copy_decisions - the recorded decisions, oldest first
 * @out: room for @max decisions
 * @max: at most this many are copied
 *
 * Return: the number of decisions copied.
 */
unsigned int triage_copy_decisions(struct triage_decision *out,
				   unsigned int max)
{
	unsigned int n = 0;
	u64 seq, first;

	spin_lock(&triage_ring_lock);
	first = triage_decision_seq > TRIAGE_DECISIONS ?
		triage_decision_seq - TRIAGE_DECISIONS + 1 : 1;
	for (seq = first; seq <= triage_decision_seq && n < max; seq++)
		out[n++] = triage_ring[(seq - 1) % TRIAGE_DECISIONS];
	spin_unlock(&triage_ring_lock);
	return n;
}

const char *const triage_outcome_names[] = {
	[TRIAGE_OUTCOME_KILLED] = "killed",
	[TRIAGE_OUTCOME_WOULD_KILL] = "would-kill",
	[TRIAGE_OUTCOME_FALLBACK_CLASSIC] = "fallback-classic",
	[TRIAGE_OUTCOME_FALLBACK_LEAST_PROTECTED] = "fallback-least-protected",
	[TRIAGE_OUTCOME_GROUP_KILLED] = "group-killed",
};

/*
 * Audit records are allocations: they are written here, after the kill.
 * A decision overwritten in the ring before it was audited, or whose
 * record audit could not start, is counted in audit_drops.
 */
static void triage_audit_workfn(struct work_struct *work)
{
	struct triage_decision d;
	struct audit_buffer *ab;
	char *label;

	for (;;) {
		spin_lock(&triage_ring_lock);
		if (triage_audited_seq + TRIAGE_DECISIONS < triage_decision_seq) {
			atomic_long_add(triage_decision_seq - TRIAGE_DECISIONS -
					triage_audited_seq,
					&triage_counters.audit_drops);
			triage_audited_seq = triage_decision_seq -
					     TRIAGE_DECISIONS;
		}
		if (triage_audited_seq == triage_decision_seq) {
			spin_unlock(&triage_ring_lock);
			return;
		}
		d = triage_ring[triage_audited_seq++ % TRIAGE_DECISIONS];
		spin_unlock(&triage_ring_lock);

		ab = audit_log_start(NULL, GFP_KERNEL, AUDIT_TRIAGE_DECISION);
		if (!ab) {
			if (audit_enabled)
				atomic_long_inc(&triage_counters.audit_drops);
			continue;
		}
		label = triage_secid_label(d.secid);
		audit_log_format(ab, "enforcing=%d scope=%s opid=%d ocomm=",
				 d.mode == TRIAGE_MODE_ENFORCE,
				 d.memcg ? "memcg" : "global", d.pid);
		audit_log_untrustedstring(ab, d.comm);
		audit_log_format(ab, " obj=");
		audit_log_untrustedstring(ab, label ? label : "?");
		audit_log_format(ab, " rule=%d verdict=%s points=%ld outcome=%s",
				 d.rule + 1, triage_verdict_name(d.verdict),
				 d.points, triage_outcome_names[d.outcome]);
		audit_log_end(ab);
		kfree(label);
	}
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
	triage_pending_outcome = TRIAGE_OUTCOME_KILLED;
	triage_group_rule = TRIAGE_RULE_NONE;

	if (READ_ONCE(triage_mode) == TRIAGE_MODE_PERMISSIVE) {
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
		triage_pending_outcome =
			l->policy->fallback == TRIAGE_FALLBACK_CLASSIC ?
			TRIAGE_OUTCOME_FALLBACK_CLASSIC :
			TRIAGE_OUTCOME_FALLBACK_LEAST_PROTECTED;
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
		triage_group_rule = rule;
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
	int rule;

	if (!l || triage_group_rule < 0 || !thread_group_leader(p))
		return false;
	rcu_read_lock();
	rule = triage_rule_of(l, p);
	rcu_read_unlock();
	if (rule != triage_group_rule)
		return false;
	atomic_long_inc(&triage_counters.group_kills);
	triage_record(l, oc, p, 0, TRIAGE_OUTCOME_GROUP_KILLED);
	return true;
}

/* Told of every victim the chain chose, whichever policy chose it */
static void triage_oom_policy_notify(const struct oom_control *oc)
{
	const struct triage_loaded *l = triage_oom_policy_locked();
	enum triage_outcome outcome = triage_pending_outcome;

	if (!l)
		return;
	triage_pending_outcome = TRIAGE_OUTCOME_KILLED;
	atomic_long_inc(&triage_counters.oom_events);
	triage_record(l, oc, oc->chosen, oc->chosen_points, outcome);
}

static struct oom_policy triage_oom_policy = {
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
	ranks = kvmalloc_array(cap, sizeof(*ranks), GFP_KERNEL);
	if (!ranks)
		return NULL;

	rcu_read_lock();
	l = rcu_dereference(triage_active);
	for_each_process(p) {
		struct triage_rank *r = &ranks[n];

		if (n == cap)
			break;
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

#ifdef CONFIG_SECURITY_TRIAGE_BENCH
/* Selections per timing: a coarse clock (jiffies under emulation) needs it */
#define TRIAGE_BENCH_BATCH	8

static u64 triage_bench_once(struct oom_control *oc)
{
	unsigned int i;
	u64 start;

	start = ktime_get_ns();
	for (i = 0; i < TRIAGE_BENCH_BATCH; i++) {
		oc->purpose = OOM_SELECT_TRIAL;
		if (oom_select_classic(oc) == OOM_POLICY_VICTIM)
			put_task_struct(oc->chosen);
		oc->chosen = NULL;
	}
	return div_u64(ktime_get_ns() - start, TRIAGE_BENCH_BATCH);
}

static int triage_u64_cmp(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

/**
 * triage_bench_selection - time victim selection with and without a policy
 * @rounds: selections of each kind, alternated so that both see the same
 *	system (at most 64)
 * @on_ns: median time of a selection under the policy in force
 * @off_ns: median time of a selection on the stock path, no LSM asked
 *
 * Runs the classic selection over every task as a global OOM would, under
 * oom_lock, without killing anything; for the "off" rounds triage's share
 * of the oom_select key is dropped, so that unless another LSM holds it
 * they time the stock code.  A benchmark, not a test.
 *
 * Return: the number of processes seen.
 */
unsigned int triage_bench_selection(unsigned int rounds, u64 *on_ns,
				    u64 *off_ns)
{
	struct oom_control oc = { .order = 0 };
	struct triage_loaded *l;
	u64 on[64], off[64];
	struct task_struct *p;
	unsigned int i, tasks = 0;
	bool keyed;

	rounds = clamp(rounds, 1U, 64U);
	oc.totalpages = totalram_pages() + total_swap_pages;
	/* no load may change triage's share of the key meanwhile */
	mutex_lock(&triage_load_mutex);
	l = rcu_dereference_protected(triage_active,
				      lockdep_is_held(&triage_load_mutex));
	keyed = triage_has_rules(l);
	for (i = 0; i < rounds; i++) {
		mutex_lock(&oom_lock);
		on[i] = triage_bench_once(&oc);
		mutex_unlock(&oom_lock);
		/* "off" is the stock OOM path, where no LSM is asked */
		if (keyed)
			security_oom_select_disable();
		mutex_lock(&oom_lock);
		off[i] = triage_bench_once(&oc);
		mutex_unlock(&oom_lock);
		if (keyed)
			security_oom_select_enable();
	}
	mutex_unlock(&triage_load_mutex);

	sort(on, rounds, sizeof(u64), triage_u64_cmp, NULL);
	sort(off, rounds, sizeof(u64), triage_u64_cmp, NULL);
	*on_ns = on[rounds / 2];
	*off_ns = off[rounds / 2];
	rcu_read_lock();
	for_each_process(p)
		tasks++;
	rcu_read_unlock();
	return tasks;
}
#endif

/* Fork: a new label (rare: the parent's usually) is matched at once */
static int triage_task_alloc(struct task_struct *task,
			     unsigned long clone_flags)
{
	if (rcu_access_pointer(triage_active))
		triage_learn_secid(triage_cred_secid(task->real_cred));
	return 0;
}

/*
 * Exec: the new credentials are still private; their label is matched
 * before they are installed, lock-free unless the label is new.
 */
static void triage_bprm_committing_creds(const struct linux_binprm *bprm)
{
	if (rcu_access_pointer(triage_active))
		triage_learn_secid(triage_cred_secid(bprm->cred));
}

/*
 * New credentials: AppArmor gives them the newest label of a replaced
 * profile.  Learning may sleep, so a new label is learnt from a work item.
 */
static int triage_cred_prepare(struct cred *new, const struct cred *old,
			       gfp_t gfp)
{
	const struct triage_loaded *l;
	u32 secid = triage_cred_secid(new);

	rcu_read_lock();
	l = rcu_dereference(triage_active);
	if (l && triage_table_lookup(rcu_dereference(l->table), secid) ==
		 TRIAGE_RULE_MISS)
		schedule_work(&triage_learn_work);
	rcu_read_unlock();
	return 0;
}

/* The major LSM reloaded its policy: labels may mean something else now */
static int triage_lsm_notify(struct notifier_block *nb, unsigned long event,
			     void *data)
{
	if (event != LSM_POLICY_CHANGE)
		return NOTIFY_DONE;
	triage_rebuild_table();
	return NOTIFY_OK;
}

static struct notifier_block triage_lsm_nb = {
	.notifier_call = triage_lsm_notify,
};

static const struct lsm_id triage_lsmid = {
	.name = "triage",
	.id = LSM_ID_TRIAGE,
};

static struct security_hook_list triage_hooks[] __ro_after_init = {
	LSM_HOOK_INIT(cred_prepare, triage_cred_prepare),
	LSM_HOOK_INIT(task_alloc, triage_task_alloc),
	LSM_HOOK_INIT(bprm_committing_creds, triage_bprm_committing_creds),
	LSM_HOOK_INIT(oom_select, triage_oom_select),
};

bool triage_enabled __ro_after_init;

static int __init triage_init(void)
{
	security_add_hooks(triage_hooks, ARRAY_SIZE(triage_hooks),
			   &triage_lsmid);
	triage_enabled = true;
	pr_info("label-driven OOM selection ready\n");
	return 0;
}

static int __init triage_late_init(void)
{
	int rc;

	if (!triage_enabled)
		return 0;
	rc = register_oom_policy(&triage_oom_policy);
	if (rc)
		pr_err("cannot register the triage OOM policy: %d\n", rc);
	rc = register_blocking_lsm_notifier(&triage_lsm_nb);
	if (rc)
		pr_err("cannot follow LSM policy changes: %d\n", rc);
	return 0;
}
late_initcall(triage_late_init);

DEFINE_LSM(triage) = {
	.name = "triage",
	.init = triage_init,
};
