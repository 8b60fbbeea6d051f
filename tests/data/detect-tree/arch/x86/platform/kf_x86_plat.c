// SPDX-License-Identifier: GPL-2.0
/* only in an x86 kernel */
static const struct acpi_device_id kf_x86_acpi[] = {
	{ "KFIT0086", 0 },
	{ }
};
MODULE_DEVICE_TABLE(acpi, kf_x86_acpi);
