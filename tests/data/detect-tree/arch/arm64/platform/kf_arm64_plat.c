// SPDX-License-Identifier: GPL-2.0
/* only in an arm64 kernel */
static const struct of_device_id kf_arm64_of[] = {
	{ .compatible = "kfit,arm64-only" },
	{ }
};
MODULE_DEVICE_TABLE(of, kf_arm64_of);
