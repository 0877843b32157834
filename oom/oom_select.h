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

/* Highest sacrifice rank; larger ranks are clamped to it. */
#define OOM_SELECT_RANK_MAX	1000U

/**
 * struct oom_select_verdict - what the LSMs say about one OOM candidate
 * @protect: never kill this task (outranks @sacrifice); the OOM killer
 *	ignores protection only when every candidate is protected.
 * @sacrifice: kill this task before any ordinary task.
 * @rank: among sacrificed tasks, a higher rank is killed first
 *	(0..%OOM_SELECT_RANK_MAX).
 * @adj: badness adjustment in oom_score_adj units (-1000..1000), added to
 *	the task's own oom_score_adj.
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
