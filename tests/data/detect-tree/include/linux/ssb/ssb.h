/* Excerpt of Linux 6.12's include/linux/ssb/ssb.h */
#define SSB_DEV_80211		0x812
#define SSB_VENDOR_BROADCOM	0x4243
