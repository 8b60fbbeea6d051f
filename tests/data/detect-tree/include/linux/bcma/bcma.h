/* Excerpt of Linux 6.12's include/linux/bcma/bcma.h */
#define BCMA_MANUF_BCM			0x4BF
#define BCMA_CORE_80211			0x812
