/* The ID list, written with macros its includer defines (as cxgb4's
 * t4_pci_id_tbl.h). */
#ifndef KF_FUNCTION2
#define KF_FENTRY(devid) KF_ENTRY((devid) | ((KF_FUNCTION) << 8))
#else
#define KF_FENTRY(devid) KF_ENTRY((devid) | ((KF_FUNCTION) << 8)), \
	KF_ENTRY((devid) | ((KF_FUNCTION2) << 8))
#endif

KF_TABLE_BEGIN
	KF_FENTRY(0x01),
	KF_FENTRY(0x02),
KF_TABLE_END;
