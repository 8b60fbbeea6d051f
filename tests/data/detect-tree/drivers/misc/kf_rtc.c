// SPDX-License-Identifier: GPL-2.0
/* An ACPI table that is a macro of <linux/acpi.h> (as 7.3's rtc-cmos with
 * ACPI_CMOS_RTC_IDS): an angle include, read as one of the kernel's own
 * headers. */
#include <linux/acpi.h>

static const struct acpi_device_id kf_rtc_ids[] = {
	KF_CMOS_RTC_IDS
};
MODULE_DEVICE_TABLE(acpi, kf_rtc_ids);
