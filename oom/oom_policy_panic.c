// SPDX-License-Identifier: GPL-2.0-only
/*
 * The "panic" OOM policy: panic instead of killing.
 *
 * The oom_panic handler of the 2003 OOM notifier proposal, as a policy of
 * the OOM policy chain.  Put first in vm.oom_policy, it panics the machine
 * on a system-wide OOM, where vm.panic_on_oom = 1 would, but chosen at run
 * time among other policies.  Memory cgroup, cpuset and mempolicy OOMs and
 * OOMs triggered by sysrq pass to the next policy: a tenant of a memory
 * cgroup cannot panic the machine.  Whether the machine then reboots is
 * kernel.panic's decision, as for every panic.
 */

#include <linux/init.h>
#include <linux/kernel.h>
#include <linux/oom.h>
#include <linux/oom_policy.h>
#include <linux/sched.h>

static enum oom_policy_result oom_panic_select(struct oom_control *oc)
{
	/* memory cgroup, cpuset, mempolicy and sysrq OOMs: the next policy */
	oom_policy_panic(oc, "oom policy panic: system-wide OOM");
	return OOM_POLICY_PASS;
}

static struct oom_policy oom_panic_policy = {
	.name	= "panic",
	.select	= oom_panic_select,
};

static int __init oom_policy_panic_init(void)
{
	return register_oom_policy(&oom_panic_policy);
}
subsys_initcall(oom_policy_panic_init);
