// SPDX-License-Identifier: GPL-2.0
/* A table whose declaration is a macro's body, used in a header
 * (cxgb4, cxgb4vf and csiostor do this with t4_pci_id_tbl.h). */
#include <linux/pci.h>

#define KF_TABLE_BEGIN \
	static const struct pci_device_id kf_macro_tbl[] = {
#define KF_FUNCTION 0x4
#define KF_FUNCTION2 0x0
#define KF_ENTRY(devid) { PCI_DEVICE(0x1425, (devid)) }
#define KF_TABLE_END \
		{ 0, } \
	}

#include "kf_macro_ids.h"

MODULE_DEVICE_TABLE(pci, kf_macro_tbl);
