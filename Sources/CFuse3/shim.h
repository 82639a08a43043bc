// libfuse 3.14 low-level API. FUSE_USE_VERSION 314 is the highest 3.14 knows.
// _FILE_OFFSET_BITS is deliberately not defined here: off_t is already 64-bit on
// x86_64, and defining it breaks module consistency with Glibc (see
// docs/ARCHITECTURE.md, "Platform pitfalls").
#define FUSE_USE_VERSION 314
#include <fuse3/fuse_lowlevel.h>
