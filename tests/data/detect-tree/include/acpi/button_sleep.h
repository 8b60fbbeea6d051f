/* SPDX-License-Identifier: GPL-2.0 */
/* Included by button.h by its quoted name (as 7.3's mod_devicetable.h
 * includes "device-id/pci.h") */
#define ACPI_BUTTON_HID_SLEEP	"KFIT0C0E"
