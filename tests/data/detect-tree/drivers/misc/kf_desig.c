// SPDX-License-Identifier: GPL-2.0
/* PCI IDs written as 7.3 writes them: designated initializers from the
 * PCI_* macros (whose PCI_ANY_ID is in <linux/device-id/pci.h>), then
 * positional or designated fields after them (ahci's .class/.class_mask
 * and .driver_data, rtsx_pci's positional class), a class match with
 * PCI_ANY_ID written out, and a driver's own macro over them, nested
 * (iwlwifi's IWL_PCI_DEVICE with Wi-Fi 7 BE200, 8086:272b). */
#include <linux/pci.h>

#define PCI_VENDOR_ID_INTEL		0x8086
#define PCI_VENDOR_ID_JMICRON		0x197b
#define PCI_CLASS_STORAGE_RAID		0x0104
#define PCI_CLASS_STORAGE_SATA_AHCI	0x010601
#define PCI_CLASS_OTHERS		0xff

struct kf_cfg { int n; };
static const struct kf_cfg kf_be_cfg = { 7 };

#define KF_IWL_DEVICE(dev, subdev, cfg) \
	.vendor = PCI_VENDOR_ID_INTEL,  .device = (dev), \
	.subvendor = PCI_ANY_ID, .subdevice = (subdev), \
	.driver_data = (kernel_ulong_t)&(cfg)
#define KF_BE_DEVICE(dev) KF_IWL_DEVICE(dev, PCI_ANY_ID, kf_be_cfg)

static const struct pci_device_id kf_desig_tbl[] = {
	{
		/* Comet Lake PCH-H RAID */
		PCI_VDEVICE(INTEL, 0x06d6),
		.driver_data = 1,
	}, {
		/* JMicron: the AHCI function only */
		PCI_DEVICE(PCI_VENDOR_ID_JMICRON, PCI_ANY_ID),
		.class = PCI_CLASS_STORAGE_SATA_AHCI,
		.class_mask = 0xffffff,
		.driver_data = 2,
	},
	{ PCI_DEVICE_CLASS(PCI_CLASS_STORAGE_SATA_AHCI, ~0), .driver_data = 3 },
	{ .vendor = PCI_ANY_ID, .device = PCI_ANY_ID, .subvendor = PCI_ANY_ID,
	  .subdevice = PCI_ANY_ID, .class = PCI_CLASS_STORAGE_RAID << 8,
	  .class_mask = 0xffff00, .driver_data = 4 },
	{ KF_IWL_DEVICE(0x272b, PCI_ANY_ID, kf_be_cfg) },
	{ KF_BE_DEVICE(0x2729) },
	{ PCI_DEVICE(0x10EC, 0x5228), PCI_CLASS_OTHERS << 16, 0xFF0000 },
	{ PCI_DEVICE_SUB(0x1B4B, 0x9178, 0x1B4B, 0x9170), .driver_data = 5 },
	{ }
};
MODULE_DEVICE_TABLE(pci, kf_desig_tbl);
