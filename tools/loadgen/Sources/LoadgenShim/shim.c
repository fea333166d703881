#include "LoadgenShim.h"
#include <libwebsockets.h>
size_t loadgen_lws_pre(void) { return LWS_PRE; }
