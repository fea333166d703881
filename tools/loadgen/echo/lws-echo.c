/* The transport ceiling of `make bench`: a minimal WebSocket echo on the same
 * libwebsockets build as mindpad (one service thread, same lws_write path).
 * Every text message is sent back unchanged, in order.
 *
 *   lws-echo PORT      (prints "listening port=PORT" when ready; SIGTERM stops)
 *   lws-echo --loop    prints the loop MINDPAD_EVENT_LOOP selects (the default if unset)
 *
 * The event loop is the server's (MINDPAD_EVENT_LOOP=poll|libuv), run by the
 * server's own Sources/CMindPadShims/event_loop.c, compiled in (scripts/bench.sh).
 */
#include "CMindPadEventLoop.h"
#include <libwebsockets.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define QUEUE 64
#define MAXMSG 4096

struct msg { size_t len; unsigned char buf[LWS_PRE + MAXMSG]; };
struct pss {
    struct msg *q[QUEUE];
    int head, count;
    unsigned char rx[MAXMSG];
    size_t rxlen;
};

static volatile int interrupted;
static struct lws_context *ctx;

static int callback_echo(struct lws *wsi, enum lws_callback_reasons reason, void *user, void *in, size_t len) {
    struct pss *p = (struct pss *)user;
    switch (reason) {
    case LWS_CALLBACK_ESTABLISHED:
        memset(p, 0, sizeof *p);
        break;
    case LWS_CALLBACK_RECEIVE:
        if (p->rxlen + len > MAXMSG) return -1;
        memcpy(p->rx + p->rxlen, in, len);
        p->rxlen += len;
        if (!lws_is_final_fragment(wsi) || lws_remaining_packet_payload(wsi)) break;
        if (p->count == QUEUE) return -1; /* slow reader: like mindpad, hang up */
        {
            struct msg *m = malloc(sizeof *m);
            m->len = p->rxlen;
            memcpy(m->buf + LWS_PRE, p->rx, p->rxlen);
            p->q[(p->head + p->count) % QUEUE] = m;
            p->count++;
            p->rxlen = 0;
        }
        lws_callback_on_writable(wsi);
        break;
    case LWS_CALLBACK_SERVER_WRITEABLE:
        if (!p->count) break;
        {
            struct msg *m = p->q[p->head];
            p->head = (p->head + 1) % QUEUE;
            p->count--;
            int n = lws_write(wsi, m->buf + LWS_PRE, m->len, LWS_WRITE_TEXT);
            free(m);
            if (n < 0) return -1;
        }
        if (p->count) lws_callback_on_writable(wsi);
        break;
    case LWS_CALLBACK_CLOSED:
        while (p->count) { free(p->q[p->head]); p->head = (p->head + 1) % QUEUE; p->count--; }
        break;
    default:
        break;
    }
    return 0;
}

static struct lws_protocols protocols[] = {
    { "echo", callback_echo, sizeof(struct pss), 16 * 1024, 0, NULL, 0 },
    { NULL, NULL, 0, 0, 0, NULL, 0 }
};

/* lws_cancel_service only write()s to lws' pipe: it wakes the loop to see the flag. */
static void on_signal(int sig) { (void)sig; interrupted = 1; if (ctx) lws_cancel_service(ctx); }

int main(int argc, char **argv) {
    struct lws_context_creation_info info;
    if (argc > 1 && !strcmp(argv[1], "--loop")) {
        int k = mindpad_loop_parse(getenv("MINDPAD_EVENT_LOOP"));
        printf("%s\n", k < 0 ? "invalid" : mindpad_loop_name(k));
        return k < 0;
    }
    memset(&info, 0, sizeof info);
    info.port = argc > 1 ? atoi(argv[1]) : 7681;
    info.iface = "127.0.0.1";
    info.protocols = protocols;
    /* No fd_limit_per_thread, as in the server and the load generator (a
     * per-thread limit below the file limit puts lws 4.1.6 on "slow fds
     * handling", where wsi_from_fd scans the whole table on every socket
     * event). The echo had 65536, above the bench's file limit, and dropping
     * it measured neutral (45.6/45.9 -> 45.7/45.4 us per message at 5,000
     * racers on poll, 2026-11-24): the tables are sized to the file limit
     * either way (bench.sh raises it). */
    info.options = LWS_SERVER_OPTION_DISABLE_IPV6;
    lws_set_log_level(LLL_ERR, NULL);
    signal(SIGTERM, on_signal);
    signal(SIGINT, on_signal);
    int kind = mindpad_loop_parse(getenv("MINDPAD_EVENT_LOOP"));
    struct mindpad_loop *loop = kind < 0 ? NULL : mindpad_loop_new(kind);
    if (!loop) { fprintf(stderr, "MINDPAD_EVENT_LOOP must be poll or libuv\n"); return 2; }
    ctx = mindpad_loop_create_context(loop, &info);
    if (!ctx) return 1;
    printf("listening port=%d loop=%s\n", info.port, mindpad_loop_name(kind));
    fflush(stdout);
    while (!interrupted && mindpad_loop_service(loop) >= 0) {}
    mindpad_loop_destroy(loop);
    return 0;
}
