// SPDX-License-Identifier: GPL-2.0
/* The PCI driver "kf_ahci", whose table does not list the device the
 * case binds to it (a table kfit cannot read, or a device added by new_id):
 * the bound driver is found by its name, on the device's bus. */
#include <linux/pci.h>

static const struct pci_device_id kf_ahcipci_tbl[] = {
	{ PCI_DEVICE(0xaaaa, 0x0001) },
	{ }
};
MODULE_DEVICE_TABLE(pci, kf_ahcipci_tbl);

static struct pci_driver kf_ahcipci_driver = {
	.name = "kf_ahci",
	.id_table = kf_ahcipci_tbl,
};
