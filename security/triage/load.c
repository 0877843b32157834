// SPDX-License-Identifier: GPL-2.0
/*
 * triage: policy objects and their publication.
 *
 * A policy is parsed, given its derived data (canonical text, hash, the
 * verdict and report reason of each rule) and the table of the labels in
 * use, then published whole under oom_lock: an OOM sees the old policy or
 * the new one, never a mix.
 */

#define pr_fmt(fmt) "triage: " fmt

#include <linux/mutex.h>
#include <linux/oom.h>
#include <linux/rcupdate.h>
#include <linux/security.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/timekeeping.h>
#include <linux/xxhash.h>

#include "triage.h"

/*
 * Serialises policy loads, table rebuilds and the learning of new labels.
 * Never taken on the OOM path, nor by an exec or fork of a known label.
 */
DEFINE_MUTEX(triage_load_mutex);
static u16 triage_generation;
int triage_mode = TRIAGE_MODE_ENFORCE;

static char triage_last_error[128];
static DEFINE_SPINLOCK(triage_error_lock);

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

static void triage_loaded_free_rcu(struct rcu_head *head)
{
	triage_loaded_free(container_of(head, struct triage_loaded, rcu));
}

/*
 * The reason an OOM report gives for each rule: its canonical line,
 * printed here, in process context, so that the OOM path only points at
 * it.
 */
static int triage_rule_reasons(struct triage_loaded *l)
{
	const struct triage_rule *rule;
	unsigned int i;
	size_t size;
	int n;

	for (i = 0; i < l->policy->nr_rules; i++) {
		rule = &l->policy->rules[i];
		size = sizeof("rule 4294967295: ") +
		       triage_rule_print(rule, NULL, 0);
		l->reasons[i] = kmalloc(size, GFP_KERNEL);
		if (!l->reasons[i])
			return -ENOMEM;
		n = scnprintf(l->reasons[i], size, "rule %u: ", i + 1);
		triage_rule_print(rule, l->reasons[i] + n, size - n);
	}
	return 0;
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
	if (triage_rule_reasons(l))
		goto fail;
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
	/*
	 * Still under the mutex: once it is dropped, the next load may
	 * replace @l and free it after a grace period.
	 */
	triage_set_error("%s", "");
	pr_info("policy %u loaded: %u rules, %s, hash %016llx\n",
		l->generation, policy->nr_rules,
		triage_mode_name(policy->mode), l->hash);
	triage_audit_load(l, old_hash, NULL);
	if (old_mode != policy->mode)
		triage_audit_status(policy->mode, old_mode);
	mutex_unlock(&triage_load_mutex);

	/* labels that appeared while the table was built */
	triage_learn_labels();

	/* not synchronize_rcu(): a load must not wait for a grace period */
	if (old)
		call_rcu(&old->rcu, triage_loaded_free_rcu);
	return 0;
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
 * Audited, as a switch to permissive turns protection off.  Waits for an
 * early kill being made, and for a running OOM.
 */
void triage_set_mode(enum triage_mode mode)
{
	int old;

	/*
	 * triage_load_mutex: an early kill decided in one mode is made in
	 * that mode (triage_pressure_fire() holds it across the kill);
	 * oom_lock: an OOM sees one mode from start to end.
	 */
	mutex_lock(&triage_load_mutex);
	mutex_lock(&oom_lock);
	old = triage_mode;
	WRITE_ONCE(triage_mode, mode);
	mutex_unlock(&oom_lock);
	mutex_unlock(&triage_load_mutex);
	pr_info("mode %s\n", triage_mode_name(mode));
	triage_audit_status(mode, old);
}
