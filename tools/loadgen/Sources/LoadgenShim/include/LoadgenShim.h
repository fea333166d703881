#ifndef LOADGENSHIM_H
#define LOADGENSHIM_H
#include <stddef.h>
#include "CMindPadEventLoop.h"
/* LWS_PRE is a function-like macro Swift cannot import. */
size_t loadgen_lws_pre(void);
#endif
