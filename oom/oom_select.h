/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The verdict of the security_oom_select() LSM hook on one OOM candidate.
 *
 * Kept apart from <linux/oom.h> so that <linux/security.h> can use it
 * without pulling in the mm headers.
 */
#ifndef _LINUX_OOM_SELECT_H
#define _LINUX_OOM_SELECT_H

#include <linux/types.h>
#include <uapi/linux/oom.h>

/**
 * enum oom_select_purpose - why the oom_select LSM hook is asked
 * @OOM_SELECT_KILL: choosing the victim of an OOM (or whether a task dies
 *	on another kill path): the verdicts an LSM enforces.
 * @OOM_SELECT_TRIAL: what an OOM would choose if every LSM enforced its
 *	policy: an LSM in a permissive mode answers as if enforcing, and the
 *	classic victim dies.
 * @OOM_SELECT_SCORE: /proc/<pid>/oom_score, which shows enforced verdicts.
 * @OOM_SELECT_REPORT: a ranking for an administrator, outside any OOM,
 *	answered like @OOM_SELECT_TRIAL.
 */
enum oom_select_purpose {
	OOM_SELECT_KILL,
	OOM_SELECT_TRIAL,
	OOM_SELECT_SCORE,
	OOM_SELECT_REPORT,
};

/* Highest sacrifice rank; larger ranks are clamped to it. */
#define OOM_SELECT_RANK_MAX	1000U

/**
 * struct oom_select_verdict - what the LSMs say about one OOM candidate
 * @protect: never kill this task (outranks @sacrifice); the OOM killer
 *	ignores protection only when every candidate is protected.
 * @sacrifice: kill this task before any ordinary task, whatever either's
 *	badness.
 * @rank: among sacrificed tasks, a higher rank is killed first, whatever
 *	their badness (0..%OOM_SELECT_RANK_MAX).
 * @adj: badness adjustment in oom_score_adj units (-1000..1000), added to
 *	the task's badness like its own oom_score_adj; it orders tasks only
 *	within their tier.
 * @override_score_adj: with @sacrifice, the sacrifice outranks the task's
 *	own oom_score_adj == OOM_SCORE_ADJ_MIN: a mandatory label verdict
 *	over a discretionary score.
 *
 * security_oom_select() hands every LSM its own zeroed verdict and combines
 * the answers; see its kernel-doc for the rules.
 */
struct oom_select_verdict {
	bool protect;
	bool sacrifice;
	unsigned int rank;
	long adj;
	bool override_score_adj;
};

#endif /* _LINUX_OOM_SELECT_H */
