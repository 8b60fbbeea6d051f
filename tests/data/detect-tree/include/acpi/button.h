/* SPDX-License-Identifier: GPL-2.0 */
/* After Linux's include/acpi/button.h (5.10 to 7.3): the HIDs of the ACPI
 * button driver's table, a header no other ID table uses; the sleep one
 * from a header beside it, included by its quoted name */
#ifndef ACPI_BUTTON_H
#define ACPI_BUTTON_H

#include "button_sleep.h"

#define ACPI_BUTTON_HID_POWER	"KFIT0C0C"
#define ACPI_BUTTON_HID_LID	"KFIT0C0D"

#endif /* ACPI_BUTTON_H */
