#define _GNU_SOURCE
#include "CMindPadShims.h"
#include <libwebsockets.h>
#include <pthread.h>

/* The Swift transport reserves this many bytes before every payload. */
_Static_assert(LWS_PRE >= 16 && LWS_PRE <= 64, "unexpected LWS_PRE");
_Static_assert(LWS_MAX_SMP == 1, "the transport assumes one lws service thread");

size_t CMindPadShims_lws_pre(void) { return LWS_PRE; }

void CMindPadShims_lws_log(int level, const char *line) {
    _lws_log(level, "%s\n", line);
}

void CMindPadShims_name_thread(const char *name) {
    pthread_setname_np(pthread_self(), name);
}
