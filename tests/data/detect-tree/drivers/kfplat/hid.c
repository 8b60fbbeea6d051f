// SPDX-License-Identifier: GPL-2.0
/* A hotkey driver (as intel-hid): its module is kfp-hid, from the
 * Makefile's macro. */
static const struct acpi_device_id kfp_hid_ids[] = {
	{ "KFIT33D5" },
	{ "", },
};
MODULE_DEVICE_TABLE(acpi, kfp_hid_ids);
