// SPDX-License-Identifier: GPL-2.0
/*
 * triage: choose OOM victims by security label.
 *
 * The administrator's policy gives verdicts (protect, sacrifice, adjust) to
 * security labels.  The label of a task is turned into a verdict in process
 * context, when the task execs, when a policy is loaded and when the major
 * LSM reloads its own policy, and cached in the task's security blob and in
 * the blob of its credentials.  On the OOM path the oom_select hook hands
 * out the cached verdict: it never sleeps, allocates or formats a string.
 */

#define pr_fmt(fmt) "triage: " fmt

#include <linux/audit.h>
#include <linux/binfmts.h>
#include <linux/lsm_hooks.h>
#include <linux/math64.h>
#include <linux/memcontrol.h>
#include <linux/mm.h>
#include <linux/oom.h>
#include <linux/oom_policy.h>
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

/* Serialises policy loads and full re-resolutions */
static DEFINE_MUTEX(triage_load_mutex);
static u16 triage_generation;
static int triage_mode = TRIAGE_MODE_ENFORCE;

/*
 * Set under oom_lock while the triage OOM policy runs a selection whose
 * verdicts must (shadow: permissive mode) or must not (bypass: the classic
 * fallback) apply, and while the ranking file is built (quiet: no counting).
 */
static bool triage_shadow;
static bool triage_bypass;
static bool triage_quiet;

/*
 * The benchmark's floor (CONFIG_SECURITY_TRIAGE_BENCH only): verdicts are
 * handed out by pid, without reading any per-task state.
 */
static bool triage_bench_stateless;
static enum triage_outcome triage_pending_outcome;

static char triage_last_error[128];
static DEFINE_SPINLOCK(triage_error_lock);

static struct triage_decision triage_ring[TRIAGE_DECISIONS];
static u64 triage_decision_seq;
static u64 triage_audited_seq;
static DEFINE_SPINLOCK(triage_ring_lock);

/*
 * A cached verdict, one word so that the OOM path reads it without a lock:
 * the label (secid) it was resolved for, the policy generation it was
 * resolved against, the matching rule + 1 (0: no rule) and, in a cred's
 * cache, whether it was resolved from that very cred's label.
 */
#define TRIAGE_CACHE_RULE_SHIFT	48
#define TRIAGE_CACHE_RULE_MASK	0x7fffULL
#define TRIAGE_CACHE_VERIFIED	BIT_ULL(63)

/*
 * The task's verdict, copied at fork.  Its label may change without triage
 * being told (a dyntransition through /proc/PID/attr/current), so it is
 * used only while its secid is the task's label.
 */
struct triage_task {
	u64 cache;
};

/*
 * The verdict of a cred's label.  A committed cred never changes, so a
 * verdict resolved from it (TRIAGE_CACHE_VERIFIED) holds for every task
 * using it until the next policy generation: the OOM path then needs no
 * call into the major LSM.  A new cred starts zeroed, unverified.
 */
struct triage_cred {
	u64 cache;
};

static struct lsm_blob_sizes triage_blob_sizes __ro_after_init = {
	.lbs_task = sizeof(struct triage_task),
	.lbs_cred = sizeof(struct triage_cred),
};

static struct triage_task *triage_task(const struct task_struct *p)
{
	return p->security + triage_blob_sizes.lbs_task;
}

static struct triage_cred *triage_cred(const struct cred *cred)
{
	return cred->security + triage_blob_sizes.lbs_cred;
}

static u64 triage_pack(u32 secid, u16 generation, int rule)
{
	return (u64)secid | (u64)generation << 32 |
	       ((u64)(rule + 1) & TRIAGE_CACHE_RULE_MASK) << TRIAGE_CACHE_RULE_SHIFT;
}

static int triage_cache_rule(u64 cache)
{
	return (int)((cache >> TRIAGE_CACHE_RULE_SHIFT) & TRIAGE_CACHE_RULE_MASK) - 1;
}

static u16 triage_cache_generation(u64 cache)
{
	return (u16)(cache >> 32);
}

/*
 * The label of @p's objective credentials, 0 when no LSM labels tasks.
 * Every major LSM answers this; not all answer security_cred_getsecid().
 */
static u32 triage_task_secid(struct task_struct *p)
{
	u32 secid = 0;

	security_task_getsecid_obj(p, &secid);
	return secid;
}

/*
 * The rule that matches @p under @l, from a cache: -1 when no rule
 * matches, -2 when neither cache holds (a miss).  Allocation-free, O(1):
 * the verdict of @p's cred when it was resolved from that cred, else the
 * task's own if it was resolved for @p's label.
 */
static int triage_cached_rule(struct task_struct *p,
			      const struct triage_loaded *l)
{
	u64 cache;

	rcu_read_lock();
	cache = READ_ONCE(triage_cred(rcu_dereference(p->real_cred))->cache);
	rcu_read_unlock();
	if ((cache & TRIAGE_CACHE_VERIFIED) &&
	    triage_cache_generation(cache) == l->generation)
		return triage_cache_rule(cache);

	cache = READ_ONCE(triage_task(p)->cache);
	if ((u32)cache != triage_task_secid(p) ||
	    triage_cache_generation(cache) != l->generation)
		return -2;
	return triage_cache_rule(cache);
}

/*
 * Turn a label into a rule index.  Process context only: asking the major
 * LSM for the text of a label allocates.
 */
static int triage_match_secid(const struct triage_loaded *l, u32 secid)
{
	char *ctx, *label;
	u32 len;
	int rule;

	if (!secid)
		return triage_policy_match(l->policy, "");
	if (security_secid_to_secctx(secid, &ctx, &len))
		return -1;
	label = kmemdup_nul(ctx, strnlen(ctx, len), GFP_KERNEL);
	security_release_secctx(ctx, len);
	if (!label)
		return -1;
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

/* Store @p's verdict in its own cache and in @cred's (@p's real_cred) */
static void triage_store(struct task_struct *p, const struct cred *cred,
			 u64 cache)
{
	WRITE_ONCE(triage_task(p)->cache, cache);
	WRITE_ONCE(triage_cred(cred)->cache, cache | TRIAGE_CACHE_VERIFIED);
}

/*
 * Resolve current's verdict after an exec, which always brings a new cred.
 * The label usually stays: the task's cache then gives the rule, and no
 * label text is matched.  Caller holds triage_load_mutex.
 */
static void triage_resolve_current(const struct triage_loaded *l)
{
	const struct cred *cred = current_real_cred();
	u64 cache = READ_ONCE(triage_task(current)->cache);
	u32 secid = triage_task_secid(current);

	if ((u32)cache != secid ||
	    triage_cache_generation(cache) != l->generation)
		cache = triage_pack(secid, l->generation,
				    triage_match_secid(l, secid));
	triage_store(current, cred, cache);
}

/*
 * The verdict of every label in use, computed in process context (matching
 * a label allocates) so that writing the tasks' caches does not have to.
 */
struct triage_resolution {
	unsigned int n;
	u32 *secids;
	int *rules;
};

static int triage_resolution_prepare(const struct triage_loaded *l,
				     struct triage_resolution *r)
{
	unsigned int cap = nr_threads + 64, i;
	struct task_struct *g, *t;

	r->n = 0;
	r->secids = kvmalloc_array(cap, sizeof(*r->secids), GFP_KERNEL);
	r->rules = kvmalloc_array(cap, sizeof(*r->rules), GFP_KERNEL);
	if (!r->secids || !r->rules)
		return -ENOMEM;

	rcu_read_lock();
	for_each_process_thread(g, t) {
		u32 secid = triage_task_secid(t);

		for (i = 0; i < r->n && r->secids[i] != secid; i++)
			;
		if (i == r->n && r->n < cap)
			r->secids[r->n++] = secid;
	}
	rcu_read_unlock();

	for (i = 0; i < r->n; i++)
		r->rules[i] = triage_match_secid(l, r->secids[i]);
	return 0;
}

/* Write every task's cache from @r.  Never sleeps nor allocates. */
static void triage_resolution_apply(const struct triage_loaded *l,
				    const struct triage_resolution *r)
{
	unsigned int i, tasks = 0, unlabelled = 0;
	struct task_struct *g, *t;

	rcu_read_lock();
	for_each_process_thread(g, t) {
		const struct cred *cred = __task_cred(t);
		u32 secid = triage_task_secid(t);
		u64 cache;

		tasks++;
		if (!secid)
			unlabelled++;
		for (i = 0; i < r->n && r->secids[i] != secid; i++)
			;
		if (i == r->n)
			continue;
		cache = triage_pack(secid, l->generation, r->rules[i]);
		/*
		 * Credentials only ever move forward: if @t still has @cred,
		 * the label read through @t is @cred's; if not, only the
		 * task's cache, checked against the label on use, is written.
		 */
		if (rcu_access_pointer(t->real_cred) == cred)
			triage_store(t, cred, cache);
		else
			WRITE_ONCE(triage_task(t)->cache, cache);
	}
	rcu_read_unlock();
	WRITE_ONCE(triage_counters.resolved_tasks, tasks);
	WRITE_ONCE(triage_counters.unlabelled_tasks, unlabelled);
	if (tasks && unlabelled == tasks)
		pr_warn_once("no LSM labels tasks: only label= rules matching the empty label apply\n");
}

static void triage_resolution_free(struct triage_resolution *r)
{
	kvfree(r->secids);
	kvfree(r->rules);
}

/* Resolve every task's verdict under @l, the policy in force */
static void triage_resolve_all(const struct triage_loaded *l)
{
	struct triage_resolution r;

	if (!triage_resolution_prepare(l, &r))
		triage_resolution_apply(l, &r);
	triage_resolution_free(&r);
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

static void triage_audit_load_error(const char *reason)
{
	struct audit_buffer *ab;

	ab = audit_log_start(audit_context(), GFP_KERNEL, AUDIT_TRIAGE);
	if (!ab)
		return;
	audit_log_format(ab, "op=load res=0 reason=");
	audit_log_untrustedstring(ab, reason);
	audit_log_end(ab);
}

/**
 * triage_load_policy - parse a policy and put it in force
 * @text: the policy text
 * @len: its length
 *
 * A policy that does not parse is rejected whole; the policy in force
 * stays in force and triage_load_error() tells why.  Process context.
 *
 * Return: 0, -EINVAL for a bad policy, -E2BIG for a policy over the size
 * limits, -ENOMEM.
 */
int triage_load_policy(const char *text, size_t len)
{
	struct triage_parse_error err = {};
	struct triage_resolution r;
	struct triage_policy *policy;
	struct triage_loaded *l, *old;
	bool resolved;
	int rc;

	rc = triage_policy_parse(text, len, &policy, &err);
	if (rc) {
		spin_lock(&triage_error_lock);
		snprintf(triage_last_error, sizeof(triage_last_error),
			 "%u:%u: %s", err.line, err.column, err.reason);
		spin_unlock(&triage_error_lock);
		pr_warn("policy rejected: %u:%u: %s\n", err.line, err.column,
			err.reason);
		triage_audit_load_error(triage_last_error);
		return rc;
	}
	l = triage_loaded_new(policy);
	if (!l) {
		triage_policy_free(policy);
		return -ENOMEM;
	}

	mutex_lock(&triage_load_mutex);
	l->generation = ++triage_generation;
	resolved = !triage_resolution_prepare(l, &r);
	/*
	 * Every OOM holds oom_lock: it sees the old policy with the old
	 * verdicts in the caches, or the new with the new, never a mix.
	 */
	mutex_lock(&oom_lock);
	if (resolved)
		triage_resolution_apply(l, &r);
	old = rcu_replace_pointer(triage_active, l,
				  lockdep_is_held(&oom_lock));
	WRITE_ONCE(triage_mode, policy->mode);
	mutex_unlock(&oom_lock);
	triage_resolution_free(&r);
	/* labels that appeared while resolving (execs wait for the mutex) */
	triage_resolve_all(l);
	mutex_unlock(&triage_load_mutex);

	spin_lock(&triage_error_lock);
	triage_last_error[0] = '\0';
	spin_unlock(&triage_error_lock);
	pr_info("policy %u loaded: %u rules, %s, hash %016llx\n",
		l->generation, policy->nr_rules,
		triage_mode_name(policy->mode), l->hash);

	synchronize_rcu();
	triage_loaded_free(old);
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
 */
void triage_set_mode(enum triage_mode mode)
{
	mutex_lock(&oom_lock);
	WRITE_ONCE(triage_mode, mode);
	mutex_unlock(&oom_lock);
	pr_info("mode %s\n", triage_mode_name(mode));
}

/* Whether verdicts apply now (see triage_shadow) */
static bool triage_applies(void)
{
	if (READ_ONCE(triage_bypass))
		return false;
	return READ_ONCE(triage_mode) == TRIAGE_MODE_ENFORCE ||
	       READ_ONCE(triage_shadow);
}

/* Count only what real OOM selections see */
static bool triage_counting(void)
{
	return mutex_is_locked(&oom_lock) && !READ_ONCE(triage_quiet);
}

static int triage_oom_select(struct task_struct *p,
			     struct oom_select_verdict *verdict)
{
	const struct triage_loaded *l;
	int rule;

	if (!triage_applies())
		return 0;

	rcu_read_lock();
	l = rcu_dereference(triage_active);
	if (!l)
		goto out;
	if (IS_ENABLED(CONFIG_SECURITY_TRIAGE_BENCH) &&
	    READ_ONCE(triage_bench_stateless))
		rule = (p->pid & 3) < l->policy->nr_rules ? (p->pid & 3) : -1;
	else
		rule = triage_cached_rule(p, l);
	if (unlikely(rule == -2) && triage_counting())
		atomic_long_inc(&triage_counters.label_misses);
	if (rule < 0)
		goto out;
	/*
	 * Nothing is counted per candidate: an atomic per task would cost
	 * more than the verdict.  The chain counts protected candidates in
	 * the oom_control; the victim's rule is counted when it is recorded.
	 */
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
	int rule = triage_cached_rule(victim, l);

	spin_lock(&triage_ring_lock);
	d = &triage_ring[triage_decision_seq % TRIAGE_DECISIONS];
	d->seq = ++triage_decision_seq;
	d->time_ns = ktime_get_real_ns();
	d->points = points;
	d->secid = triage_task_secid(victim);
	d->pid = task_pid_nr(victim);
	d->rule = rule < 0 ? -1 : rule;
	d->verdict = rule < 0 ? TRIAGE_VERDICT_NONE :
				l->policy->rules[rule].verdict;
	d->mode = READ_ONCE(triage_mode);
	d->outcome = outcome;
	d->memcg = !!oc->memcg;
	memcpy(d->comm, victim->comm, TASK_COMM_LEN);
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

/* Audit records are allocations: they are written here, after the kill */
static void triage_audit_workfn(struct work_struct *work)
{
	struct triage_decision d;
	struct audit_buffer *ab;
	char *label;

	for (;;) {
		spin_lock(&triage_ring_lock);
		if (triage_audited_seq + TRIAGE_DECISIONS < triage_decision_seq)
			triage_audited_seq = triage_decision_seq -
					     TRIAGE_DECISIONS;
		if (triage_audited_seq == triage_decision_seq) {
			spin_unlock(&triage_ring_lock);
			return;
		}
		d = triage_ring[triage_audited_seq++ % TRIAGE_DECISIONS];
		spin_unlock(&triage_ring_lock);

		ab = audit_log_start(NULL, GFP_KERNEL, AUDIT_TRIAGE);
		if (!ab)
			continue;
		label = triage_secid_label(d.secid);
		audit_log_format(ab, "mode=%s scope=%s pid=%d comm=",
				 triage_mode_name(d.mode),
				 d.memcg ? "memcg" : "global", d.pid);
		audit_log_untrustedstring(ab, d.comm);
		audit_log_format(ab, " label=");
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

/*
 * The "triage" OOM policy: the classic selection with the label verdicts
 * applied, plus what only triage knows: permissive mode, the fallback when
 * every candidate is protected, and a reason naming the deciding rule.
 */
static enum oom_policy_result triage_oom_policy_select(struct oom_control *oc)
{
	const struct triage_loaded *l = triage_oom_policy_locked();
	enum oom_policy_result res;
	u64 start, took;
	int rule;

	if (!l)
		return OOM_POLICY_PASS;
	start = ktime_get_ns();
	triage_pending_outcome = TRIAGE_OUTCOME_KILLED;

	if (READ_ONCE(triage_mode) == TRIAGE_MODE_PERMISSIVE) {
		/* record triage's choice; the classic victim dies */
		WRITE_ONCE(triage_shadow, true);
		res = oom_select_classic(oc);
		WRITE_ONCE(triage_shadow, false);
		atomic_long_add(oc->nr_protected,
				&triage_counters.protected_skipped);
		if (res == OOM_POLICY_VICTIM) {
			triage_record(l, oc, oc->chosen, oc->chosen_points,
				      TRIAGE_OUTCOME_WOULD_KILL);
			put_task_struct(oc->chosen);
		}
		oc->chosen = NULL;
		oc->nr_protected = 0;
		res = OOM_POLICY_PASS;
		goto out;
	}

	oc->nr_protected = 0;
	res = oom_select_classic(oc);
	atomic_long_add(oc->nr_protected, &triage_counters.protected_skipped);
	if (res == OOM_POLICY_PASS && oc->nr_protected) {
		atomic_long_inc(&triage_counters.fallbacks);
		switch (l->policy->fallback) {
		case TRIAGE_FALLBACK_PANIC:
			panic("triage: every OOM candidate is protected (fallback panic)\n");
			break;
		case TRIAGE_FALLBACK_LEAST_PROTECTED:
			oc->ignore_protection = true;
			res = oom_select_classic(oc);
			oc->ignore_protection = false;
			triage_pending_outcome =
				TRIAGE_OUTCOME_FALLBACK_LEAST_PROTECTED;
			oc->reason = "every candidate protected, fallback least-protected";
			break;
		default:
			WRITE_ONCE(triage_bypass, true);
			res = oom_select_classic(oc);
			WRITE_ONCE(triage_bypass, false);
			triage_pending_outcome = TRIAGE_OUTCOME_FALLBACK_CLASSIC;
			oc->reason = "every candidate protected, fallback classic";
			break;
		}
		goto out;
	}
	if (res == OOM_POLICY_VICTIM) {
		rule = triage_cached_rule(oc->chosen, l);
		oc->reason = rule >= 0 ? l->reasons[rule] : "no rule matched, highest badness";
	}
out:
	took = ktime_get_ns() - start;
	WRITE_ONCE(triage_counters.selection_ns_last, took);
	if (took > triage_counters.selection_ns_max)
		WRITE_ONCE(triage_counters.selection_ns_max, took);
	return res;
}

struct triage_group {
	const struct triage_loaded *l;
	const struct oom_control *oc;
	int rule;
};

/*
 * A member of the victim's group: kill it too.  SIGKILL is sent without
 * allocating (no siginfo is queued for it); the OOM killer itself kills
 * the victim.
 */
static int triage_group_member(struct task_struct *p, void *arg)
{
	struct triage_group *g = arg;

	if (same_thread_group(p, g->oc->chosen) || is_global_init(p) ||
	    (p->flags & PF_KTHREAD) || !thread_group_leader(p) ||
	    (g->l->policy->respect_score_adj &&
	     p->signal->oom_score_adj == OOM_SCORE_ADJ_MIN))
		return 0;
	if (triage_cached_rule(p, g->l) != g->rule)
		return 0;
	do_send_sig_info(SIGKILL, SEND_SIG_PRIV, p, PIDTYPE_TGID);
	atomic_long_inc(&triage_counters.group_kills);
	triage_record(g->l, g->oc, p, 0, TRIAGE_OUTCOME_GROUP_KILLED);
	return 0;
}

/* Kill every task of the victim's label group, within the OOM's scope */
static void triage_kill_group(const struct triage_loaded *l,
			      const struct oom_control *oc, int rule)
{
	struct triage_group g = { .l = l, .oc = oc, .rule = rule };
	struct task_struct *p;

	if (oc->memcg) {
		mem_cgroup_scan_tasks(oc->memcg, triage_group_member, &g);
		return;
	}
	rcu_read_lock();
	for_each_process(p)
		triage_group_member(p, &g);
	rcu_read_unlock();
}

/* Told of every victim the chain chose, whichever policy chose it */
static void triage_oom_policy_notify(const struct oom_control *oc)
{
	const struct triage_loaded *l = triage_oom_policy_locked();
	enum triage_outcome outcome = triage_pending_outcome;
	int rule;

	if (!l)
		return;
	triage_pending_outcome = TRIAGE_OUTCOME_KILLED;
	atomic_long_inc(&triage_counters.oom_events);
	triage_record(l, oc, oc->chosen, oc->chosen_points, outcome);

	rule = triage_cached_rule(oc->chosen, l);
	if (outcome == TRIAGE_OUTCOME_KILLED && rule >= 0 &&
	    l->policy->rules[rule].verdict == TRIAGE_VERDICT_SACRIFICE &&
	    l->policy->rules[rule].group && triage_applies())
		triage_kill_group(l, oc, rule);
}

static struct oom_policy triage_oom_policy = {
	.name	= "triage",
	.select	= triage_oom_policy_select,
	.notify	= triage_oom_policy_notify,
};

struct triage_rank {
	long points;
	u32 secid;
	pid_t pid;
	int rule;
	bool protect;
	char comm[TASK_COMM_LEN];
};

static int triage_rank_cmp(const void *a, const void *b)
{
	const struct triage_rank *x = a, *y = b;

	if (x->protect != y->protect)
		return x->protect ? 1 : -1;
	if (x->points != y->points)
		return x->points < y->points ? 1 : -1;
	return x->pid - y->pid;
}

/**
 * triage_ranking_text - the candidates as an OOM would rank them now
 * @len: set to the length of the text
 *
 * Takes oom_lock, so the ranking is what an OOM at this moment would see,
 * and runs the oom_select hook of every LSM with triage's verdicts applied
 * even in permissive mode.
 *
 * Return: the table described in the triage documentation, to be freed
 * with kvfree(), or %NULL.
 */
char *triage_ranking_text(size_t *len)
{
	unsigned long totalpages = totalram_pages() + total_swap_pages;
	const struct triage_loaded *l;
	struct triage_rank *ranks;
	unsigned int n = 0, cap, i;
	struct task_struct *p;
	size_t size, off = 0;
	char *buf = NULL;

	cap = nr_threads + 16;
	ranks = kvmalloc_array(cap, sizeof(*ranks), GFP_KERNEL);
	if (!ranks)
		return NULL;

	mutex_lock(&oom_lock);
	WRITE_ONCE(triage_quiet, true);
	WRITE_ONCE(triage_shadow, true);
	l = triage_oom_policy_locked();
	rcu_read_lock();
	for_each_process(p) {
		long base = oom_badness(p, totalpages);
		long points = oom_policy_badness(p, totalpages);

		/* unkillable whatever the verdict: not a candidate */
		if ((base == LONG_MIN && points == LONG_MIN) || n == cap)
			continue;
		ranks[n].points = points;
		ranks[n].protect = points == LONG_MIN;
		ranks[n].pid = task_pid_nr(p);
		ranks[n].secid = triage_task_secid(p);
		ranks[n].rule = l ? triage_cached_rule(p, l) : -1;
		get_task_comm(ranks[n].comm, p);
		n++;
	}
	rcu_read_unlock();
	WRITE_ONCE(triage_shadow, false);
	WRITE_ONCE(triage_quiet, false);

	sort(ranks, n, sizeof(*ranks), triage_rank_cmp, NULL);
	size = 64 + (size_t)n * 384;
	buf = kvmalloc(size, GFP_KERNEL);
	if (!buf)
		goto out;
	off = scnprintf(buf, size, "# rank\tpid\tpoints\tverdict\trule\tlabel\tcomm\n");
	for (i = 0; i < n; i++) {
		const struct triage_rank *r = &ranks[i];
		enum triage_verdict v = TRIAGE_VERDICT_NONE;
		char *label = triage_secid_label(r->secid);
		char rank[12] = "-", points[24] = "-", rule[12] = "-";

		if (l && r->rule >= 0) {
			v = l->policy->rules[r->rule].verdict;
			snprintf(rule, sizeof(rule), "%d", r->rule + 1);
		} else if (r->rule == -2) {
			snprintf(rule, sizeof(rule), "miss");
		}
		if (!r->protect) {
			snprintf(rank, sizeof(rank), "%u", i + 1);
			snprintf(points, sizeof(points), "%ld", r->points);
		}
		off += scnprintf(buf + off, size - off, "%s\t%d\t%s\t%s\t%s\t%s\t%s\n",
				 rank, r->pid, points, triage_verdict_name(v),
				 rule, label ? label : "?", r->comm);
		kfree(label);
	}
out:
	mutex_unlock(&oom_lock);
	kvfree(ranks);
	*len = off;
	return buf;
}

#ifdef CONFIG_SECURITY_TRIAGE_BENCH
/* Selections per timing: a coarse clock (jiffies under emulation) needs it */
#define TRIAGE_BENCH_BATCH	8

static u64 triage_bench_once(struct oom_control *oc, bool verdicts,
			     bool stateless)
{
	unsigned int i;
	u64 start;

	WRITE_ONCE(triage_bypass, !verdicts);
	WRITE_ONCE(triage_shadow, verdicts);
	WRITE_ONCE(triage_bench_stateless, stateless);
	start = ktime_get_ns();
	for (i = 0; i < TRIAGE_BENCH_BATCH; i++) {
		if (oom_select_classic(oc) == OOM_POLICY_VICTIM)
			put_task_struct(oc->chosen);
		oc->chosen = NULL;
	}
	start = ktime_get_ns() - start;
	WRITE_ONCE(triage_bench_stateless, false);
	WRITE_ONCE(triage_shadow, false);
	WRITE_ONCE(triage_bypass, false);
	return div_u64(start, TRIAGE_BENCH_BATCH);
}

static int triage_u64_cmp(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

/**
 * triage_bench_selection - time victim selection with and without triage
 * @rounds: selections of each kind, alternated so that both see the same
 *	system (at most 64)
 * @on_ns: median time of a selection with triage's verdicts applied
 * @off_ns: median time of a selection with triage's verdicts bypassed
 * @floor_ns: median time of a selection with verdicts handed out by pid,
 *	without reading any per-task state: what the hook costs at the least
 *
 * Runs the classic selection over every task as a global OOM would, under
 * oom_lock, without killing anything: a benchmark, not a test.
 *
 * Return: the number of processes seen by the last selection.
 */
unsigned int triage_bench_selection(unsigned int rounds, u64 *on_ns,
				    u64 *off_ns, u64 *floor_ns)
{
	struct oom_control oc = { .order = 0 };
	u64 on[64], off[64], floor[64];
	struct task_struct *p;
	unsigned int i, tasks = 0;

	rounds = clamp(rounds, 1U, 64U);
	oc.totalpages = totalram_pages() + total_swap_pages;
	mutex_lock(&oom_lock);
	WRITE_ONCE(triage_quiet, true);
	for (i = 0; i < rounds; i++) {
		on[i] = triage_bench_once(&oc, true, false);
		off[i] = triage_bench_once(&oc, false, false);
		floor[i] = triage_bench_once(&oc, true, true);
	}
	WRITE_ONCE(triage_quiet, false);
	mutex_unlock(&oom_lock);

	sort(on, rounds, sizeof(u64), triage_u64_cmp, NULL);
	sort(off, rounds, sizeof(u64), triage_u64_cmp, NULL);
	sort(floor, rounds, sizeof(u64), triage_u64_cmp, NULL);
	*on_ns = on[rounds / 2];
	*off_ns = off[rounds / 2];
	*floor_ns = floor[rounds / 2];
	rcu_read_lock();
	for_each_process(p)
		tasks++;
	rcu_read_unlock();
	return tasks;
}
#endif

static int triage_task_alloc(struct task_struct *task,
			     unsigned long clone_flags)
{
	/* same credentials as the parent: same label, same verdict */
	triage_task(task)->cache = READ_ONCE(triage_task(current)->cache);
	return 0;
}

static void triage_bprm_committed_creds(const struct linux_binprm *bprm)
{
	const struct triage_loaded *l;

	if (!rcu_access_pointer(triage_active))
		return;
	/* serialised with loads and re-resolutions: none undoes another */
	mutex_lock(&triage_load_mutex);
	l = rcu_dereference_protected(triage_active,
				      lockdep_is_held(&triage_load_mutex));
	if (l)
		triage_resolve_current(l);
	mutex_unlock(&triage_load_mutex);
}

/* The major LSM reloaded its policy: labels may mean something else now */
static int triage_lsm_notify(struct notifier_block *nb, unsigned long event,
			     void *data)
{
	const struct triage_loaded *l;

	if (event != LSM_POLICY_CHANGE)
		return NOTIFY_DONE;
	mutex_lock(&triage_load_mutex);
	l = rcu_dereference_protected(triage_active,
				      lockdep_is_held(&triage_load_mutex));
	if (l)
		triage_resolve_all(l);
	mutex_unlock(&triage_load_mutex);
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
	LSM_HOOK_INIT(task_alloc, triage_task_alloc),
	LSM_HOOK_INIT(bprm_committed_creds, triage_bprm_committed_creds),
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
	.blobs = &triage_blob_sizes,
};
