// SPDX-License-Identifier: GPL-2.0
/* Entries under #if: each alias keeps the CONFIG_ condition it sits
 * under (a kernel without it has no such entry); #if 0 is dead. */
#include <linux/pci.h>
#include <linux/of.h>

static const struct pci_device_id kf_cond_ids[] = {
	{ PCI_DEVICE(0x1af4, 0x1000) },
#ifdef CONFIG_KF_COND_UNTESTED
	{ PCI_DEVICE(0x1af4, 0x1001) },
#else
	{ PCI_DEVICE(0x1af4, 0x1002) },
#endif
#if 0
	{ PCI_DEVICE(0x1af4, 0x1003) },
#endif
#if IS_ENABLED(CONFIG_KF_A) && !defined(CONFIG_KF_B)
	{ PCI_DEVICE(0x1af4, 0x1004) },
#endif
	{ }
};
MODULE_DEVICE_TABLE(pci, kf_cond_ids);

#ifdef CONFIG_OF
static const struct of_device_id kf_cond_of[] = {
	{ .compatible = "kfit,cond" },
	{ }
};
MODULE_DEVICE_TABLE(of, kf_cond_of);
#endif

#if 0
MODULE_ALIAS("kf-cond-dead");
#else
MODULE_ALIAS("kf-cond-live");
#endif
