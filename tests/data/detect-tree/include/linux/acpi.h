/* SPDX-License-Identifier: GPL-2.0 */
/* After Linux 7.3's include/linux/acpi.h, whose ACPI_CMOS_RTC_IDS is
 * rtc-cmos's whole ACPI table (6.12 wrote the IDs in the driver) */
#define KF_CMOS_RTC_IDS	\
	{ "KFIT0B00", },	\
	{ "KFIT0B01", },	\
	{ "", }
