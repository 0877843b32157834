/* SPDX-License-Identifier: GPL-2.0 */
/*
 * triage: choose OOM victims by security label.
 *
 * Shared between the parts of the LSM: the hooks (lsm.c), the label table
 * (label.c), policy loading (load.c), the OOM side (oom.c), decisions and
 * audit (audit.c) and the securityfs interface (fs.c).
 */
#ifndef _SECURITY_TRIAGE_TRIAGE_H
#define _SECURITY_TRIAGE_TRIAGE_H

#include <linux/atomic.h>
#include <linux/cred.h>
#include <linux/lsm_hooks.h>
#include <linux/mutex.h>
#include <linux/oom_select.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/time64.h>
#include <linux/types.h>
#include <linux/wait.h>

#include "policy.h"

struct oom_control;
struct oom_policy;
struct oom_select_verdict;

/* Decisions kept for the decisions file, in a preallocated ring */
#define TRIAGE_DECISIONS	64

/* A rule index, or: no rule matches the label / the label was never matched */
#define TRIAGE_RULE_NONE	(-1)
#define TRIAGE_RULE_MISS	(-2)

/**
 * struct triage_table - the rule of every label seen, for one policy
 * @mask: number of slots - 1 (a power of two)
 * @used: slots in use; the table is never more than half full
 * @gen: tells this table's rules from other tables' (never 0); a table
 *	grown to hold more labels keeps it, as its rules stay the same
 * @rcu: frees the table after readers are gone
 * @slots: open addressing, linear probing (see label.c)
 */
struct triage_table {
	unsigned int mask;
	unsigned int used;
	u32 gen;
	struct rcu_head rcu;
	u64 slots[];
};

/**
 * struct triage_cred - what triage keeps in a set of credentials
 * @serial: numbers the credentials when they are prepared; never reused,
 *	0 for credentials never prepared (the initial ones)
 */
struct triage_cred {
	u64 serial;
};

/**
 * struct triage_task - what triage keeps for a task
 * @cred_serial: serial of the credentials whose label @verdict is for
 * @secid: the label @verdict is for
 * @table_gen: generation of the table the label was matched in
 * @verdict: the verdict of the matching rule, zeroed when none matches
 * @budget: the matching protect rule's budget in pages, 0 for none
 * @learn_work: learns the task's label on its way back to user space,
 *	after it prepared new credentials (lsm.c)
 * @learn_queued: @learn_work is queued; only the task itself sets and
 *	clears it
 *
 * @cred_serial, @table_gen and @verdict are read and written only under
 * oom_lock, by the OOM selection: the next OOM hands out a task's verdict
 * with no label lookup while the task keeps its credentials and the policy
 * in force keeps its table.
 */
struct triage_task {
	u64 cred_serial;
	u32 secid;
	u32 table_gen;
	struct oom_select_verdict verdict;
	unsigned long budget;
	struct callback_head learn_work;
	bool learn_queued;
};

extern struct lsm_blob_sizes triage_blob_sizes;

static inline struct triage_cred *triage_cred(const struct cred *cred)
{
	return cred->security + triage_blob_sizes.lbs_cred;
}

static inline struct triage_task *triage_task(const struct task_struct *p)
{
	return p->security + triage_blob_sizes.lbs_task;
}

/**
 * struct triage_loaded - a policy in force, with what was derived from it
 * @policy: the parsed policy
 * @text: its canonical text, as read back from the policy file
 * @text_len: length of @text
 * @reasons: per rule, "rule N: <canonical rule>", the reason an OOM report
 *	gives when the rule chose the victim
 * @hits: per rule, candidates the rule matched during OOMs
 * @hash: xxh64 of @text
 * @load_time: when the policy was loaded, seconds since the epoch
 * @generation: load counter
 * @table: the rule of every label seen, replaced when the major LSM
 *	changes its policy
 * @verdicts: per rule, the verdict the oom_select hook hands out
 * @pressure_kills: per pressure statement, its early kills; under
 *	triage_load_mutex
 * @rcu: frees the policy after readers are gone
 */
struct triage_loaded {
	struct triage_policy *policy;
	struct triage_table __rcu *table;
	struct oom_select_verdict *verdicts;
	char *text;
	size_t text_len;
	char **reasons;
	atomic_long_t *hits;
	u64 hash;
	time64_t load_time;
	u16 generation;
	unsigned int pressure_kills[TRIAGE_PRESSURE_MAX];
	struct rcu_head rcu;
};

/**
 * struct triage_pressure_request - an early kill asked for by a pressure
 *	statement (pressure.c)
 * @statement: the statement, 1-based; 0 when no request is being served
 * @full: the statement watches PSI's "full" line, else "some"
 * @psi_avg10: the scope's PSI average over 10 s on that line when asked,
 *	in hundredths of a percent
 */
struct triage_pressure_request {
	unsigned int statement;
	bool full;
	unsigned int psi_avg10;
};

/* What became of a decision */
enum triage_outcome {
	TRIAGE_OUTCOME_KILLED,
	TRIAGE_OUTCOME_WOULD_KILL,
	TRIAGE_OUTCOME_FALLBACK_CLASSIC,
	TRIAGE_OUTCOME_FALLBACK_LEAST_PROTECTED,
};

/**
 * struct triage_decision - one OOM decision, as recorded on the OOM path
 * @seq: decision number since boot, from 1
 * @time_ns: wall-clock time of the decision
 * @points: the victim's points after the verdict
 * @secid: the victim's label, turned into text only when read
 * @pid: the victim's pid
 * @rule: index of the rule that matched the victim, -1 for none
 * @verdict: that rule's verdict
 * @mode: the triage mode at the time
 * @outcome: what happened
 * @group: tasks killed with the victim, as its group rule's members
 * @memcg: whether the OOM was a memory cgroup OOM
 * @pressure: for an early kill, the request of the pressure statement
 *	(its @statement is 0 for an OOM)
 * @comm: the victim's command name
 */
struct triage_decision {
	u64 seq;
	u64 time_ns;
	long points;
	u32 secid;
	pid_t pid;
	s16 rule;
	u8 verdict;
	u8 mode;
	u8 outcome;
	u32 group;
	bool memcg;
	struct triage_pressure_request pressure;
	char comm[TASK_COMM_LEN];
};

/**
 * struct triage_counters - what the stats file shows
 * @oom_events: OOM victims chosen while a triage policy was loaded
 * @protected_skipped: candidates skipped as protected
 * @sacrificed: victims chosen by a sacrifice rule
 * @adjusted: candidates whose badness a rule adjusted
 * @label_misses: candidates of an OOM whose label had not been matched
 *	yet (treated as ordinary)
 * @labels_learnt: labels matched one at a time, outside a load, when a
 *	task took a label the policy in force had not seen
 * @audit_drops: decisions that reached neither audit nor a reader of
 *	decisions before the ring overwrote them, or audit refused
 * @fallbacks: OOMs in which every candidate was protected
 * @group_kills: tasks killed along with a victim of a group rule
 * @table_rebuilds: labels matched again because the major LSM changed its
 *	policy (LSM_POLICY_CHANGE: SELinux, and AppArmor with this series)
 * @early_kills: victims killed early, on a pressure statement's request
 * @early_refusals: early kills asked for and not made (rate limit, a
 *	victim still exiting, nothing unprotected to kill, ...)
 * @unlabelled_tasks: tasks without a label at the last full resolution;
 *	all of them means no major LSM labels tasks
 * @resolved_tasks: tasks seen at the last full resolution
 * @selection_ns_last: duration of the last triage selection
 * @selection_ns_max: longest triage selection
 */
struct triage_counters {
	atomic_long_t oom_events;
	atomic_long_t protected_skipped;
	atomic_long_t sacrificed;
	atomic_long_t adjusted;
	atomic_long_t label_misses;
	atomic_long_t labels_learnt;
	atomic_long_t fallbacks;
	atomic_long_t group_kills;
	atomic_long_t audit_drops;
	atomic_long_t table_rebuilds;
	atomic_long_t early_kills;
	atomic_long_t early_refusals;
	unsigned int unlabelled_tasks;
	unsigned int resolved_tasks;
	u64 selection_ns_last;
	u64 selection_ns_max;
};

extern struct triage_loaded __rcu *triage_active;
extern struct triage_counters triage_counters;
extern const char *const triage_outcome_names[];
extern bool triage_enabled;
extern struct mutex triage_load_mutex;
extern int triage_mode;
extern struct oom_policy triage_oom_policy;

/*
 * Whether @l can give a verdict.  The OOM killer asks the LSMs only while
 * one of them has such a policy: triage's share of that count (the
 * oom_select static key) goes on before a policy with rules is published
 * and off after a policy without rules is, so that an OOM under the key
 * always meets one policy whole.
 */
static inline bool triage_has_rules(const struct triage_loaded *l)
{
	return l && l->policy->nr_rules;
}

/* label.c */
u32 triage_task_secid(struct task_struct *p);
struct triage_table *triage_table_build(const struct triage_loaded *l,
					const struct triage_table *prev,
					int *errp);
void triage_table_free_rcu(struct rcu_head *head);
bool triage_learn_secid(u32 secid);
void triage_learn_later(void);
bool triage_label_missing(u32 secid);
void triage_cred_new_serial(struct cred *cred);
int triage_rule_of(const struct triage_loaded *l, struct task_struct *p);
int triage_rule_of_secid(const struct triage_loaded *l,
			 const struct triage_table *t, u32 secid);
void triage_rebuild_table(void);

/* audit.c */
extern struct wait_queue_head triage_decisions_wait;
u64 triage_decisions_seq(void);
const char *triage_scope_name(const struct triage_decision *d);
void triage_audit_load(const struct triage_loaded *l, u64 old_hash,
		       const char *error);
void triage_audit_status(int mode, int old_mode);
void triage_record(const struct triage_loaded *l,
		   const struct oom_control *oc, struct task_struct *victim,
		   long points, enum triage_outcome outcome);

/* pressure.c */
int triage_pressure_fire(u64 generation, unsigned int nr);
bool triage_pressure_request(const struct oom_control *oc,
			     struct triage_pressure_request *req);
char *triage_pressure_text(size_t *len);

/* oom.c */
extern unsigned long triage_last_kill;
int triage_oom_select(struct task_struct *p, const struct oom_control *oc,
		      enum oom_select_purpose purpose,
		      struct oom_select_verdict *verdict);

enum triage_mode triage_get_mode(void);
void triage_set_mode(enum triage_mode mode);
int triage_load_policy(const char *text, size_t len);
size_t triage_load_error(char *buf, size_t size);
unsigned int triage_copy_decisions(struct triage_decision *out,
				   unsigned int max);
char *triage_secid_label(u32 secid);
char *triage_ranking_text(size_t *len);
size_t triage_escape(char *dst, size_t size, const char *src);
void triage_learn_labels(void);

#endif /* _SECURITY_TRIAGE_TRIAGE_H */
