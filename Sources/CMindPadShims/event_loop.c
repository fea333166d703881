#include "CMindPadEventLoop.h"
#include <libwebsockets.h>
#include <stdlib.h>
#include <string.h>
#include <uv.h>

struct mindpad_loop {
    int kind;
    uv_loop_t *loop;                /* NULL for poll */
    struct lws_context *context;    /* lws sets it to NULL once fully destroyed (pcontext) */
};

/* libuv (epoll): with messages written at the end of the callback that queued
 * them (WebServer.flushQueued) instead of through a WRITEABLE asked for each
 * time, libuv no longer pays four epoll_ctl per send, and side by side at
 * 5,000 racers it spent 0.91-0.95x poll's CPU per message with the service
 * thread at 78-80% of a core against 86-91%, p50 submit->grade 1.8-2.8 ms
 * against 4.9-6.1 ms, p99 better in 2 of 3 pairs; at 2,000 racers 0.57x
 * poll's CPU per message (tools/loadgen/analysis.md, 2026-11-24 04:18Z;
 * docs/benchmarks.md, "Event loops"). poll stays behind MINDPAD_EVENT_LOOP. */
int mindpad_loop_default(void) { return MINDPAD_LOOP_LIBUV; }

int mindpad_loop_parse(const char *name) {
    if (!name || !*name) return mindpad_loop_default();
    if (!strcmp(name, "poll")) return MINDPAD_LOOP_POLL;
    if (!strcmp(name, "libuv")) return MINDPAD_LOOP_LIBUV;
    return -1;
}

const char *mindpad_loop_name(int kind) {
    switch (kind) {
    case MINDPAD_LOOP_LIBUV: return "libuv";
    default: return "poll";
    }
}

struct mindpad_loop *mindpad_loop_new(int kind) {
    struct mindpad_loop *l = calloc(1, sizeof *l);
    if (!l) return NULL;
    l->kind = kind;
    if (kind == MINDPAD_LOOP_LIBUV) {
        uv_loop_t *uv = malloc(sizeof *uv);
        if (!uv || uv_loop_init(uv)) { free(uv); free(l); return NULL; }
        l->loop = uv;
    }
    return l;
}

struct lws_context *mindpad_loop_create_context(struct mindpad_loop *l, struct lws_context_creation_info *info) {
    void *foreign[1] = { l->loop };
    if (l->kind == MINDPAD_LOOP_LIBUV) info->options |= LWS_SERVER_OPTION_LIBUV;
    if (l->loop) info->foreign_loops = foreign; /* read during creation only */
    info->pcontext = &l->context;
    l->context = lws_create_context(info);
    info->foreign_loops = NULL;
    info->pcontext = NULL;
    return l->context;
}

int mindpad_loop_service(struct mindpad_loop *l) {
    switch (l->kind) {
    case MINDPAD_LOOP_LIBUV:
        uv_run(l->loop, UV_RUN_ONCE);
        return 0;
    default:
        return lws_service(l->context, 0);
    }
}

void mindpad_loop_destroy(struct mindpad_loop *l) {
    if (!l) return;
    if (l->context) {
        lws_context_destroy(l->context);
        /* On libuv the first call starts closing every handle; they close
         * as the loop turns; once none is left, the next call frees the
         * context (and lws sets l->context to NULL). */
        for (int budget = 100000; l->loop && l->context && budget > 0; budget--) {
            if (!uv_run(l->loop, UV_RUN_NOWAIT)) lws_context_destroy(l->context);
        }
    }
    if (l->loop) {
        for (int budget = 1000; budget > 0 && uv_run(l->loop, UV_RUN_NOWAIT); budget--) {}
        uv_loop_close(l->loop);
        free(l->loop);
    }
    free(l);
}
