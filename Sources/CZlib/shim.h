// The system's zlib (zlib1g-dev on Debian and Ubuntu; part of the SDK on Apple platforms).
#include <zlib.h>
