// SPDX-License-Identifier: GPL-2.0
/*
 * triage: choose OOM victims by security label.
 *
 * The administrator's policy gives verdicts (protect, sacrifice, adjust) to
 * security labels.  This file holds the LSM: the hooks that keep the table
 * of labels right as tasks fork, exec and change label (label.c), and the
 * registration of the oom_select hook and of the "triage" OOM policy
 * (oom.c).  Policies are loaded and published by load.c, decisions are
 * recorded and audited by audit.c, and fs.c is the securityfs interface.
 */

#define pr_fmt(fmt) "triage: " fmt

#include <linux/binfmts.h>
#include <linux/cred.h>
#include <linux/lsm_hooks.h>
#include <linux/oom_policy.h>
#include <linux/sched/signal.h>
#include <linux/security.h>
#include <linux/task_work.h>
#include <uapi/linux/lsm.h>

#include "triage.h"

struct triage_loaded __rcu *triage_active;
struct triage_counters triage_counters;

/*
 * Learn the label current carries now.  Runs from current's task work, on
 * its way back to user space: after the system call that prepared new
 * credentials has installed them, in process context, before the task runs
 * another instruction of its own.
 */
static void triage_learn_current(struct callback_head *work)
{
	struct triage_task *tt = container_of(work, struct triage_task,
					      learn_work);

	WRITE_ONCE(tt->learn_queued, false);
	/* a dying task's label decides nothing: let it exit at once */
	if ((current->flags & PF_EXITING) || fatal_signal_pending(current))
		return;
	triage_learn_secid(triage_task_secid(current));
}

/* Whether a policy that can give a verdict is in force */
static bool triage_policy_has_rules(void)
{
	bool rules;

	rcu_read_lock();
	rules = triage_has_rules(rcu_dereference(triage_active));
	rcu_read_unlock();
	return rules;
}

/*
 * Exec: the new credentials are installed; their label is matched before
 * execve() returns, lock-free unless the label is new.  The task work of
 * cred_prepare does not cover every exec: a kernel thread becoming a
 * user process (init, usermode helpers) prepares its credentials while
 * still PF_KTHREAD.
 */
static void triage_bprm_committed_creds(const struct linux_binprm *bprm)
{
	if (rcu_access_pointer(triage_active))
		triage_learn_secid(triage_task_secid(current));
}

/*
 * New credentials: numbered, so that no verdict remembered for the old ones
 * applies to them.  prepare_creds() copies current's credentials, and the
 * caller may then change their label (an SELinux dynamic transition, a
 * write to Smack's attr/current, AppArmor's change_hat, change_profile or
 * its move to a replaced profile) before installing them; no hook runs
 * after that.  So the label is learnt from task work, which runs when
 * current returns to user space, after the change: a task that relabels
 * itself does not get back from that system call before the policy in
 * force knows its new label.
 *
 * The label of @new is not read here: when triage comes before the major
 * LSM in the LSM list, that LSM has not filled in its part of @new yet.
 */
static int triage_cred_prepare(struct cred *new, const struct cred *old,
			       gfp_t gfp)
{
	struct triage_task *tt = triage_task(current);

	triage_cred_new_serial(new);
	if ((current->flags & PF_KTHREAD) || READ_ONCE(tt->learn_queued) ||
	    !triage_policy_has_rules())
		return 0;
	init_task_work(&tt->learn_work, triage_learn_current);
	WRITE_ONCE(tt->learn_queued, true);
	if (task_work_add(current, &tt->learn_work, TWA_RESUME))
		WRITE_ONCE(tt->learn_queued, false);	/* exiting */
	return 0;
}

/* A keyring change's blank credentials take another's: a new number */
static void triage_cred_transfer(struct cred *new, const struct cred *old)
{
	triage_cred_new_serial(new);
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
	LSM_HOOK_INIT(cred_transfer, triage_cred_transfer),
	LSM_HOOK_INIT(bprm_committed_creds, triage_bprm_committed_creds),
	LSM_HOOK_INIT(oom_select, triage_oom_select),
};

bool triage_enabled __ro_after_init;

struct lsm_blob_sizes triage_blob_sizes __ro_after_init = {
	.lbs_cred = sizeof(struct triage_cred),
	.lbs_task = sizeof(struct triage_task),
};

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
