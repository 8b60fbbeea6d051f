// SPDX-License-Identifier: GPL-2.0
/* An ACPI table whose IDs are macros of <acpi/button.h> (as the ACPI
 * button driver, drivers/acpi/button.c): an <angle> header that is no ID
 * list by its name, read because the table is not understood without it.
 * One entry is defined nowhere and stays not understood. */
#include <linux/acpi.h>
#include <acpi/button.h>

#define ACPI_BUTTON_HID_POWERF	"KFITPWRB"

static const struct acpi_device_id kf_button_ids[] = {
	{ACPI_BUTTON_HID_LID, 0},
	{ACPI_BUTTON_HID_SLEEP, 0},
	{ACPI_BUTTON_HID_POWER, 0},
	{ACPI_BUTTON_HID_POWERF, 0},
	{KF_BUTTON_HID_NOWHERE, 0},
	{"", 0},
};
MODULE_DEVICE_TABLE(acpi, kf_button_ids);
