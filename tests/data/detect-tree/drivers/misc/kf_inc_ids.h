#define KF_INC_SUFFIX ".ids"
