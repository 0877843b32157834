// SPDX-License-Identifier: GPL-2.0
/*
 * triage: early action on memory pressure.
 *
 * A policy's "pressure" statements are thresholds of the kernel's pressure
 * stall information (PSI): "pressure full 10% 2s" fires when every
 * non-idle task was stalled on memory for 10% of a 2 s window.  PSI
 * triggers have no in-kernel consumer in this kernel, so a small
 * privileged daemon (triage-pressured) arms them from the pressure file
 * and, when one fires, asks here for an early kill in that statement's
 * scope.  Only the trigger lives in user space: the victim is chosen in
 * the kernel, by the OOM policy chain (oom_kill_early()), exactly as an
 * OOM of that scope would choose it, except that a protected task is
 * never taken, nor is an ordinary one: early action takes sacrificed
 * tasks only.  What a request can do is bounded by the policy in force:
 * the statement's own scope; for the whole system, only while the system
 * as a whole is short (TRIAGE_PRESSURE_AVAILABLE_PCT), as a memory
 * cgroup's stalls against its own limit count in the system's pressure
 * too; no kill within TRIAGE_PRESSURE_HOLDOFF_MS of any kill the OOM
 * policy chain decided; in permissive mode a would-kill is recorded and
 * nothing is killed.
 */

#define pr_fmt(fmt) "triage: " fmt

#include <linux/cgroup.h>
#include <linux/jiffies.h>
#include <linux/memcontrol.h>
#include <linux/mm.h>
#include <linux/oom.h>
#include <linux/oom_policy.h>
#include <linux/psi.h>
#include <linux/sched/loadavg.h>
#include <linux/slab.h>

#include "triage.h"

/*
 * The request being served, for triage_record(): set and cleared under
 * triage_load_mutex, around the one early kill that may run at a time,
 * and read under oom_lock by the OOM side of that same kill.
 */
static struct triage_pressure_request triage_pressure_now;

/* The kill line's prefix: formatted here, as the OOM path formats nothing */
static char triage_pressure_message[96];

#ifdef CONFIG_PSI
/* The scope's PSI average over 10 s, in hundredths of a percent */
static unsigned int triage_psi_avg10(struct mem_cgroup *memcg, bool full)
{
	struct psi_group *group = &psi_system;
	unsigned long avg;

#ifdef CONFIG_MEMCG
	if (memcg)
		group = cgroup_psi(memcg->css.cgroup);
#endif
	if (!group)
		return 0;	/* booted with psi=0 */
	avg = READ_ONCE(group->avg[full ? PSI_MEM_FULL : PSI_MEM_SOME][0]);
	return LOAD_INT(avg) * 100 + LOAD_FRAC(avg);
}
#else
static unsigned int triage_psi_avg10(struct mem_cgroup *memcg, bool full)
{
	return 0;
}
#endif

/*
 * Whether the system as a whole is short of memory, rather than one memory
 * cgroup against its own limit: a tenant stalling behind a small
 * memory.high shows in /proc/pressure/memory, but leaves MemAvailable high.
 */
static bool triage_system_short(void)
{
	return (u64)si_mem_available() * 100 <
	       (u64)totalram_pages() * TRIAGE_PRESSURE_AVAILABLE_PCT;
}

/*
 * When the last request walked the tasks under oom_lock (a kill, a trial,
 * or nothing to take); under triage_load_mutex.
 */
static unsigned long triage_pressure_last_walk;

/*
 * Within the hold-off of the last kill the OOM policy chain decided, or
 * within the shortest window of the last request that walked the tasks:
 * a PSI trigger fires at most once a window, so a writer that asks more
 * often is not a trigger, and must not keep oom_lock busy.
 */
static bool triage_pressure_held_off(void)
{
	unsigned long last = READ_ONCE(triage_last_kill);

	if (triage_pressure_last_walk &&
	    time_before(jiffies, triage_pressure_last_walk +
			msecs_to_jiffies(TRIAGE_PRESSURE_WINDOW_MIN_MS)))
		return true;
	return last && time_before(jiffies, last +
				   msecs_to_jiffies(TRIAGE_PRESSURE_HOLDOFF_MS));
}

#ifdef CONFIG_MEMCG
/*
 * The memory cgroup a statement names, in the requester's cgroup
 * namespace, with a reference: the cgroup's own, not an ancestor's.
 */
static struct mem_cgroup *triage_pressure_memcg(const char *path)
{
	struct cgroup_subsys_state *css;
	struct cgroup *cgrp;

	cgrp = cgroup_get_from_path(path);
	if (IS_ERR(cgrp))
		return ERR_CAST(cgrp);
	css = cgroup_get_e_css(cgrp, &memory_cgrp_subsys);
	if (!css || css->cgroup != cgrp) {
		/* no memory controller of its own: its parent has it off */
		if (css)
			css_put(css);
		cgroup_put(cgrp);
		return ERR_PTR(-EOPNOTSUPP);
	}
	cgroup_put(cgrp);
	return mem_cgroup_from_css(css);
}
#else
static struct mem_cgroup *triage_pressure_memcg(const char *path)
{
	return ERR_PTR(-EOPNOTSUPP);
}
#endif

/**
 * triage_pressure_fire - an early kill asked for by a pressure statement
 * @generation: the policy generation the requester read the statement from
 * @nr: the statement, 1-based, in policy order
 *
 * Called by the pressure file's writer (CAP_MAC_ADMIN), when the PSI
 * trigger of statement @nr fired.  One request runs at a time, and the
 * mode cannot change while it runs (triage_set_mode()).
 *
 * Return: 0 when a victim was killed; -ESTALE when another policy was
 * loaded since, -EINVAL when there is no statement @nr, -EAGAIN when the
 * OOM policy chain chose a victim less than %TRIAGE_PRESSURE_HOLDOFF_MS
 * ago, -ENODATA when a system-wide statement fires while the system is
 * not short of memory, -ENOENT or -EOPNOTSUPP when its cgroup is gone or
 * has no memory controller, -ECANCELED in permissive mode (a would-kill is
 * recorded when there is a victim to take), or what oom_kill_early()
 * returns.
 */
int triage_pressure_fire(u64 generation, unsigned int nr)
{
	const struct triage_pressure *p;
	struct mem_cgroup *memcg = NULL;
	struct triage_loaded *l;
	unsigned int i;
	bool trial;
	int rc;

	mutex_lock(&triage_load_mutex);
	l = rcu_dereference_protected(triage_active,
				      lockdep_is_held(&triage_load_mutex));
	rc = -ESTALE;
	if (!l || l->generation != generation)
		goto out;
	rc = -EINVAL;
	if (!nr || nr > l->policy->nr_pressure)
		goto out;
	i = nr - 1;
	p = &l->policy->pressure[i];
	trial = triage_get_mode() != TRIAGE_MODE_ENFORCE;
	rc = -EAGAIN;
	if (triage_pressure_held_off())
		goto out;
	rc = -ENODATA;
	if (!p->cgroup && !triage_system_short())
		goto out;
	if (p->cgroup) {
		memcg = triage_pressure_memcg(p->cgroup);
		if (IS_ERR(memcg)) {
			rc = PTR_ERR(memcg);
			goto out;
		}
	}
	triage_pressure_now.statement = nr;
	triage_pressure_now.full = p->full;
	triage_pressure_now.psi_avg10 = triage_psi_avg10(memcg, p->full);
	snprintf(triage_pressure_message, sizeof(triage_pressure_message),
		 "Memory pressure (%s avg10=%u.%02u, pressure statement %u)",
		 p->full ? "full" : "some",
		 triage_pressure_now.psi_avg10 / 100,
		 triage_pressure_now.psi_avg10 % 100, nr);
	rc = oom_kill_early(memcg, triage_pressure_message,
			    trial ? OOM_EARLY_TRIAL : 0);
	triage_pressure_now.statement = 0;
	triage_pressure_last_walk = jiffies ?: 1;
	/* a trial holds off as the kill it stands for would */
	if (!rc && trial)
		WRITE_ONCE(triage_last_kill, jiffies ?: 1);
	mem_cgroup_put(memcg);
	if (!rc && trial)
		rc = -ECANCELED;
	if (!rc) {
		l->pressure_kills[i]++;
		atomic_long_inc(&triage_counters.early_kills);
	}
out:
	/* a request for a statement in force that killed nothing */
	if (rc && rc != -ESTALE && rc != -EINVAL)
		atomic_long_inc(&triage_counters.early_refusals);
	mutex_unlock(&triage_load_mutex);
	return rc;
}

/**
 * triage_pressure_request - the early kill being served, if any
 * @oc: the OOM side of a kill
 * @req: set to the request of @oc when it is an early kill
 *
 * Called under oom_lock by the OOM side of the kill, which
 * triage_pressure_fire() runs under triage_load_mutex: the request cannot
 * change meanwhile.
 *
 * Return: true when @oc is an early kill asked for by a pressure statement.
 */
bool triage_pressure_request(const struct oom_control *oc,
			     struct triage_pressure_request *req)
{
	if (!oc->early || !triage_pressure_now.statement)
		return false;
	*req = triage_pressure_now;
	return true;
}

/**
 * triage_pressure_text - the pressure statements, for triage-pressured
 * @len: set to the length of the text
 *
 * "generation G", then per statement: its number, some or full, the stall
 * threshold and the window in microseconds (a PSI trigger's own terms),
 * its cgroup ("-" for the whole system; escaped) and its early kills.
 *
 * Return: the text, to be freed with kvfree(), or %NULL.
 */
char *triage_pressure_text(size_t *len)
{
	const struct triage_loaded *l;
	size_t size = 32, off;
	unsigned int i;
	char *buf;

	mutex_lock(&triage_load_mutex);
	l = rcu_dereference_protected(triage_active,
				      lockdep_is_held(&triage_load_mutex));
	for (i = 0; l && i < l->policy->nr_pressure; i++) {
		const char *cgroup = l->policy->pressure[i].cgroup;

		size += 80 + 4 * (cgroup ? strlen(cgroup) : 1);
	}
	buf = kmalloc(size, GFP_KERNEL);
	if (!buf)
		goto out;
	off = scnprintf(buf, size, "generation %u\n", l ? l->generation : 0);
	for (i = 0; l && i < l->policy->nr_pressure; i++) {
		const struct triage_pressure *p = &l->policy->pressure[i];
		u64 window_us = (u64)p->window_ms * USEC_PER_MSEC;

		off += scnprintf(buf + off, size - off, "%u %s %llu %llu ",
				 i + 1, p->full ? "full" : "some",
				 div_u64(window_us * p->share, 100), window_us);
		if (p->cgroup)
			off += triage_escape(buf + off, size - off, p->cgroup);
		else
			off += scnprintf(buf + off, size - off, "-");
		off += scnprintf(buf + off, size - off, " %u\n",
				 l->pressure_kills[i]);
	}
	*len = off;
out:
	mutex_unlock(&triage_load_mutex);
	return buf;
}
