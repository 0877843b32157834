/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The OOM policy chain: an ordered list of named policies, chosen by the
 * administrator through the vm.oom_policy sysctl, that decides what an
 * out-of-memory condition kills.  See mm/oom_policy.c.
 */
#ifndef _LINUX_OOM_POLICY_H
#define _LINUX_OOM_POLICY_H

#include <linux/atomic.h>
#include <linux/bits.h>
#include <linux/list.h>
#include <linux/oom.h>

/* Longest policy name, including the terminating NUL. */
#define OOM_POLICY_NAME_MAX	24
/* Most policies in the administrator's chain. */
#define OOM_POLICY_CHAIN_MAX	8

/**
 * enum oom_policy_result - what an OOM policy decided
 * @OOM_POLICY_PASS: no decision; the next policy in the chain runs.  When
 *	every policy passes, the classic OOM killer decides.
 * @OOM_POLICY_VICTIM: kill @oc->chosen, which the policy set (holding a
 *	task reference) together with @oc->chosen_points and @oc->reason.
 * @OOM_POLICY_ABORT: kill nothing now because memory is already on its
 *	way back, e.g. an earlier victim is still exiting.
 *
 * A policy that does not return %OOM_POLICY_VICTIM must leave @oc->chosen
 * %NULL (or, for %OOM_POLICY_ABORT, the classic killer's (void *)-1UL).
 * A policy may also not return at all: the panic policy panics.
 */
enum oom_policy_result {
	OOM_POLICY_PASS,
	OOM_POLICY_VICTIM,
	OOM_POLICY_ABORT,
};

/**
 * struct oom_policy - a named OOM policy
 * @name: name used in the vm.oom_policy sysctl: no spaces, shorter than
 *	%OOM_POLICY_NAME_MAX.
 * @select: choose a victim for @oc, or pass.  Called with oom_lock held,
 *	from any task, with memory exhausted: it must not sleep, must not
 *	allocate memory and must finish in time linear in the number of
 *	tasks.  A victim that an LSM protects (oom_select) is refused, and
 *	the next policy runs, unless oom_select_least_protected() chose it.
 *	What the policy wants to carry to its @notify and @group_member
 *	for this OOM goes in @oc->policy_data (0 at the start of @select),
 *	never in globals that would outlive the OOM.
 * @notify: optional; told of every victim the chain chose, whichever
 *	policy chose it, once the victim was killed together with the
 *	deciding policy's group (@oc->nr_group_killed tasks), or once an
 *	early kill's trial chose it (@oc->early_trial: nothing was killed).
 *	Called with oom_lock held and @oc->chosen referenced, for every
 *	registered policy, active or not; same rules as @select.
 * @group_member: optional; when @select chose a victim and set
 *	@oc->kill_group, asked after the kill for every other killable task
 *	in the OOM's scope that no LSM protects: return true to kill it
 *	too, through the OOM killer's own kill path.  Same rules as @select.
 * @list: entry in the list of registered policies, owned by the chain.
 */
struct oom_policy {
	const char *name;
	enum oom_policy_result (*select)(struct oom_control *oc);
	void (*notify)(const struct oom_control *oc);
	bool (*group_member)(const struct oom_control *oc,
			     struct task_struct *p);
	struct list_head list;
};

#ifdef CONFIG_OOM_POLICY_CHAIN
int register_oom_policy(struct oom_policy *policy);
void unregister_oom_policy(struct oom_policy *policy);

extern atomic_long_t oom_protection_refusals;

/* Helpers for policies */
enum oom_policy_result oom_select_classic(struct oom_control *oc);
enum oom_policy_result oom_select_least_protected(struct oom_control *oc);
long oom_task_points(struct oom_control *oc, struct task_struct *p);
bool oom_policy_panic(struct oom_control *oc, const char *why);

/* Early action: run the chain on memory pressure (mm/oom_kill.c) */
#define OOM_EARLY_TRIAL		BIT(0)	/* choose, tell the policies, kill nothing */
#define OOM_EARLY_ORDINARY	BIT(1)	/* an ordinary task may be taken too */
int oom_kill_early(struct mem_cgroup *memcg, const char *message,
		   unsigned int flags);

/* For mm/ only */
bool oom_victim_eligible(struct task_struct *p, struct oom_control *oc,
			 enum oom_select_purpose purpose,
			 struct oom_candidate *c);
void oom_policy_run(struct oom_control *oc);
void oom_policy_notify(struct oom_control *oc);
bool oom_policy_group_member(struct oom_control *oc, struct task_struct *p);
const char *oom_policy_message(struct oom_control *oc, const char *message);
void oom_policy_report(struct oom_control *oc);
#else
static inline void oom_policy_run(struct oom_control *oc)
{
}

static inline void oom_policy_notify(struct oom_control *oc)
{
}

static inline const char *oom_policy_message(struct oom_control *oc,
					     const char *message)
{
	return message;
}

static inline void oom_policy_report(struct oom_control *oc)
{
}
#endif /* CONFIG_OOM_POLICY_CHAIN */

#endif /* _LINUX_OOM_POLICY_H */
