// SPDX-License-Identifier: GPL-2.0
/*
 * triage: the record of decisions and the audit trail.
 *
 * Every OOM decision taken while a policy is loaded goes into a ring of
 * TRIAGE_DECISIONS entries (the decisions file) and, from a worker, into
 * an AUDIT_TRIAGE_DECISION record.  Policy loads and switches of
 * enforcement have records of their own.
 */

#define pr_fmt(fmt) "triage: " fmt

#include <linux/audit.h>
#include <linux/math64.h>
#include <linux/oom.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/timekeeping.h>
#include <linux/wait.h>
#include <linux/workqueue.h>
#include <uapi/linux/audit.h>

#include "triage.h"

/* Readers of the decisions file polling for new decisions */
DECLARE_WAIT_QUEUE_HEAD(triage_decisions_wait);

static struct triage_decision triage_ring[TRIAGE_DECISIONS];
static u64 triage_decision_seq;
static u64 triage_audited_seq;
static DEFINE_SPINLOCK(triage_ring_lock);

/**
 * triage_audit_load - an AUDIT_TRIAGE_POLICY_LOAD record
 * @l: the policy put in force, or %NULL for a refused load
 * @old_hash: the hash of the policy in force before (0: none)
 * @error: why the load was refused, or %NULL
 *
 * Who loaded what, replacing what.  Process context.
 */
void triage_audit_load(const struct triage_loaded *l, u64 old_hash,
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

/**
 * triage_audit_status - an AUDIT_TRIAGE_STATUS record
 * @mode: the mode now
 * @old_mode: the mode before
 *
 * Enforcement switched on or off.  Process context.
 */
void triage_audit_status(int mode, int old_mode)
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

static void triage_audit_workfn(struct work_struct *work);
static DECLARE_WORK(triage_audit_work, triage_audit_workfn);

/**
 * triage_record - record an OOM decision
 * @l: the policy in force
 * @oc: the OOM
 * @victim: the task killed, or that would be killed
 * @points: its points
 * @outcome: what happened to it
 *
 * The decision goes into the ring that the decisions file reads; its audit
 * record is written later from a worker, as it allocates.  Under oom_lock,
 * with memory exhausted: takes only a spinlock.
 */
void triage_record(const struct triage_loaded *l,
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
	d->group = oc->nr_group_killed;
	d->memcg = !!oc->memcg;
	if (!triage_pressure_request(oc, &d->pressure))
		d->pressure.statement = 0;
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

/**
 * triage_scope_name - what a decision's OOM was about
 * @d: the decision
 *
 * Return: "global" or "memcg" for an OOM, "pressure" or "memcg-pressure"
 * for an early kill on a pressure statement's request.
 */
const char *triage_scope_name(const struct triage_decision *d)
{
	if (d->pressure.statement)
		return d->memcg ? "memcg-pressure" : "pressure";
	return d->memcg ? "memcg" : "global";
}

const char *const triage_outcome_names[] = {
	[TRIAGE_OUTCOME_KILLED] = "killed",
	[TRIAGE_OUTCOME_WOULD_KILL] = "would-kill",
	[TRIAGE_OUTCOME_FALLBACK_CLASSIC] = "fallback-classic",
	[TRIAGE_OUTCOME_FALLBACK_LEAST_PROTECTED] = "fallback-least-protected",
};

/**
 * triage_decisions_seq - the number of the last decision recorded
 *
 * Return: the decision's sequence number, 0 when none was recorded.
 */
u64 triage_decisions_seq(void)
{
	u64 seq;

	spin_lock(&triage_ring_lock);
	seq = triage_decision_seq;
	spin_unlock(&triage_ring_lock);
	return seq;
}

/*
 * Audit records are allocations: they are written here, after the kill.
 * A decision overwritten in the ring before it was audited, or whose
 * record audit could not start, is counted in audit_drops.
 */
static void triage_audit_lost(u64 lost)
{
	if (!lost)
		return;
	/*
	 * Counted here, not with audit_log_lost(): with audit's failure
	 * mode set to panic, a burst of OOM decisions must not panic the
	 * machine that the OOM killer is saving.
	 */
	atomic_long_add(lost, &triage_counters.audit_drops);
	pr_warn_ratelimited("%llu OOM decisions overwritten before they were audited\n",
			    lost);
}

static void triage_audit_workfn(struct work_struct *work)
{
	struct triage_decision d;
	struct audit_buffer *ab;
	char *label;
	u64 lost;
	u32 ns;

	/* the OOM path cannot wake anybody; its worker tells the pollers */
	wake_up_interruptible(&triage_decisions_wait);
	for (;;) {
		spin_lock(&triage_ring_lock);
		lost = 0;
		if (triage_audited_seq + TRIAGE_DECISIONS < triage_decision_seq) {
			lost = triage_decision_seq - TRIAGE_DECISIONS -
			       triage_audited_seq;
			triage_audited_seq = triage_decision_seq -
					     TRIAGE_DECISIONS;
		}
		if (triage_audited_seq == triage_decision_seq) {
			spin_unlock(&triage_ring_lock);
			triage_audit_lost(lost);
			return;
		}
		d = triage_ring[triage_audited_seq++ % TRIAGE_DECISIONS];
		spin_unlock(&triage_ring_lock);
		triage_audit_lost(lost);

		ab = audit_log_start(NULL, GFP_KERNEL, AUDIT_TRIAGE_DECISION);
		if (!ab) {
			if (audit_enabled)
				atomic_long_inc(&triage_counters.audit_drops);
			continue;
		}
		label = triage_secid_label(d.secid);
		/* the decision's own number and time: the record's are later */
		audit_log_format(ab, "oom_seq=%llu oom_time=%llu.%09u ",
				 d.seq, div_u64_rem(d.time_ns, NSEC_PER_SEC, &ns),
				 ns);
		audit_log_format(ab, "enforcing=%d scope=%s opid=%d ocomm=",
				 d.mode == TRIAGE_MODE_ENFORCE,
				 triage_scope_name(&d), d.pid);
		audit_log_untrustedstring(ab, d.comm);
		audit_log_format(ab, " obj=");
		audit_log_untrustedstring(ab, label ? label : "?");
		audit_log_format(ab, " rule=%d verdict=%s points=%ld outcome=%s",
				 d.rule + 1, triage_verdict_name(d.verdict),
				 d.points, triage_outcome_names[d.outcome]);
		if (d.group)
			audit_log_format(ab, " group_killed=%u", d.group);
		if (d.pressure.statement)
			audit_log_format(ab, " pressure=%u psi=%s:%u.%02u",
					 d.pressure.statement,
					 d.pressure.full ? "full" : "some",
					 d.pressure.psi_avg10 / 100,
					 d.pressure.psi_avg10 % 100);
		audit_log_end(ab);
		kfree(label);
	}
}
