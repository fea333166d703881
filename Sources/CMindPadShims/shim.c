#include "CMindPadShims.h"
#include <libwebsockets.h>

/* The Swift transport reserves this many bytes before every payload. */
_Static_assert(LWS_PRE >= 16 && LWS_PRE <= 64, "unexpected LWS_PRE");
_Static_assert(LWS_MAX_SMP == 1, "the transport assumes one lws service thread");

size_t CMindPadShims_lws_pre(void) { return LWS_PRE; }

unsigned long long CMindPadShims_lws_illegal_http_content_len(void) {
    return (unsigned long long)LWS_ILLEGAL_HTTP_CONTENT_LEN;
}

void CMindPadShims_lws_log(int level, const char *line) {
    _lws_log(level, "%s\n", line);
}

int CMindPadShims_ptr_diff(const unsigned char *head, const unsigned char *tail) {
    return (int)lws_ptr_diff(tail, head);
}
