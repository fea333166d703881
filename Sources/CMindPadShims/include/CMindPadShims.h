#ifndef CMINDPADSHIMS_H
#define CMINDPADSHIMS_H

#include <stddef.h>
#include <stdint.h>
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

/* A TCP socket's sending side as the kernel sees it (socket_state.c).
 * queued: bytes not yet sent or not yet acknowledged (SIOCOUTQ; a FIN
 * counts one), or -1 with errno. acked: bytes the peer acknowledged since
 * the connection began (TCP_INFO tcpi_bytes_acked, Linux 4.1); 0, or -1. */
int CMindPadShims_tcp_queued(int fd);
int CMindPadShims_tcp_acked(int fd, uint64_t *acked);

/* SO_SNDBUF: what the kernel may hold for the socket (Linux doubles the
 * value asked for, for its bookkeeping, and stops autotuning it). */
int CMindPadShims_set_send_buffer(int fd, int bytes);
int CMindPadShims_send_buffer(int fd);

#endif
