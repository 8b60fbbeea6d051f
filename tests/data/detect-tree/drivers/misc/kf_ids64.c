// SPDX-License-Identifier: GPL-2.0
/* 64-bit IDs taken apart with GNU ?: (as aic7xxx's aiclib.h GETID) */
#include <linux/pci.h>

#define GETID(v, s) (unsigned)(((v) >> (s)) & 0xFFFF ?: PCI_ANY_ID)
#define ID_C(x, c)						\
{								\
	GETID(x,32), GETID(x,48), GETID(x,0), GETID(x,16),	\
	(c) << 8, 0xFFFF00, 0					\
}
#define ID_KF_A			0x7178900400000000ull
#define ID_DEV_VENDOR_MASK	0xFFFFFFFF00000000ull

static const struct pci_device_id kf_ids64[] = {
	ID_C(ID_KF_A & ID_DEV_VENDOR_MASK, 0x0100),
	ID_C(0x8078900478819004ull, 0x0104),
	{ 0 }
};
MODULE_DEVICE_TABLE(pci, kf_ids64);
