// SPDX-License-Identifier: GPL-2.0
/* A device the code makes on the faux bus (as 7.3's regulator dummy,
 * drivers/regulator/dummy.c: faux_device_create("reg-dummy", ...)), which
 * older kernels registered as a platform device bound to a platform
 * driver of that name; and one made through a macro. */
#include <linux/device/faux.h>

#define KF_FAUX_NAME "kf-faux-macro"

static int __init kf_faux_init(void)
{
	faux_device_create("kf-dummy", NULL, NULL);
	faux_device_create_with_groups(KF_FAUX_NAME, NULL, NULL, NULL);
	return 0;
}
