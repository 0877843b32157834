// SPDX-License-Identifier: GPL-2.0-only
/*
 * The "panic" OOM policy: panic instead of killing.
 *
 * The oom_panic handler of the 2003 OOM notifier proposal, as a policy of
 * the OOM policy chain.  Put first in vm.oom_policy, it panics the machine
 * on every OOM that reaches the chain, global or memory cgroup, like
 * vm.panic_on_oom = 2 but chosen at run time among other policies.  OOMs
 * triggered by sysrq pass, as they do with panic_on_oom.  Whether the
 * machine then reboots is kernel.panic's decision, as for every panic.
 */

#include <linux/init.h>
#include <linux/kernel.h>
#include <linux/oom.h>
#include <linux/oom_policy.h>
#include <linux/panic.h>
#include <linux/sched.h>

static const char *oom_panic_scope(const struct oom_control *oc)
{
	switch (oc->constraint) {
	case CONSTRAINT_MEMCG:
		return "memory cgroup";
	case CONSTRAINT_CPUSET:
		return "cpuset";
	case CONSTRAINT_MEMORY_POLICY:
		return "memory policy";
	default:
		return "system-wide";
	}
}

static enum oom_policy_result oom_panic_select(struct oom_control *oc)
{
	/* order == -1: a sysrq-triggered OOM, which must not panic */
	if (oc->order == -1)
		return OOM_POLICY_PASS;

	oom_dump_header(oc);
	panic("Out of memory: oom policy panic: %s OOM, invoked by %s (%d)\n",
	      oom_panic_scope(oc), current->comm, task_pid_nr(current));
}

static struct oom_policy oom_policy_panic = {
	.name	= "panic",
	.select	= oom_panic_select,
};

static int __init oom_policy_panic_init(void)
{
	return register_oom_policy(&oom_policy_panic);
}
subsys_initcall(oom_policy_panic_init);
