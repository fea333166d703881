#ifndef CMINDPADSHIMS_H
#define CMINDPADSHIMS_H

#include <stddef.h>
#include "CMindPadEventLoop.h"

struct lws;

/* LWS_PRE is a function-like macro (_LWS_PAD(...)); Swift cannot import it. */
size_t CMindPadShims_lws_pre(void);

/* lwsl_user()/lwsl_err() are variadic macros; Swift cannot call them. This
 * routes one preformatted line through lws's own logger. */
void CMindPadShims_lws_log(int level, const char *line);

/* Names the calling thread for the OS (perf, /proc/PID/task/TID/comm):
 * pthread_setname_np needs _GNU_SOURCE, which Swift's Glibc does not set. */
void CMindPadShims_name_thread(const char *name);

#endif
