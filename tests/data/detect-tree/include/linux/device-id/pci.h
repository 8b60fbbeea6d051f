/* SPDX-License-Identifier: GPL-2.0 */
/* Excerpt of Linux 7.3's include/linux/device-id/pci.h (7.3 moved the
 * ids out of mod_devicetable.h, which now includes this) */
#ifndef LINUX_DEVICE_ID_PCI_H
#define LINUX_DEVICE_ID_PCI_H

#define PCI_ANY_ID (~0)

#endif
