#define KF_ADEV_NAME "kf_core"
