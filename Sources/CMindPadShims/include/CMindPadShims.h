#ifndef CMINDPADSHIMS_H
#define CMINDPADSHIMS_H

#include <stddef.h>

struct lws;

/* LWS_PRE is a function-like macro (_LWS_PAD(...)); Swift cannot import it. */
size_t CMindPadShims_lws_pre(void);

/* LWS_ILLEGAL_HTTP_CONTENT_LEN is a cast macro; Swift cannot import it. */
unsigned long long CMindPadShims_lws_illegal_http_content_len(void);

/* lwsl_user()/lwsl_err() are variadic macros; Swift cannot call them. This
 * routes one preformatted line through lws's own logger. */
void CMindPadShims_lws_log(int level, const char *line);

/* lws_ptr_diff() is a macro; header writing needs the byte count written. */
int CMindPadShims_ptr_diff(const unsigned char *head, const unsigned char *tail);

#endif
