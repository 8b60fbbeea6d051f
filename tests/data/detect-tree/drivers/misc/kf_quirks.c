// SPDX-License-Identifier: GPL-2.0
/* A table that #includes its quirk entries and ends with a generic one
 * (as sound/usb/card.c with quirks-table.h); the header defines a macro
 * with a comment spanning lines inside its body (6.12's
 * QUIRK_RME_DIGIFACE): the entries after it are not lost. */
#include <linux/pci.h>

static const struct pci_device_id kf_quirks_ids[] = {
#include "kf_quirks_table.h"
	{ .vendor = PCI_ANY_ID, .device = PCI_ANY_ID, .subvendor = PCI_ANY_ID,
	  .subdevice = PCI_ANY_ID, .class = 0x040300, .class_mask = 0xffffff },
	{ }
};
MODULE_DEVICE_TABLE(pci, kf_quirks_ids);
