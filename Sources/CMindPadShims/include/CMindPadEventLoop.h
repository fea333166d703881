#ifndef CMINDPADEVENTLOOP_H
#define CMINDPADEVENTLOOP_H

#include <stdint.h>

/* The event loop an lws context runs on (MINDPAD_EVENT_LOOP): lws' own poll()
 * loop, or libuv (epoll) through Debian's lws event-library plugin
 * (libwebsockets-evlib-uv). Shared by the server, the bench's load generator
 * (a symlink) and the lws echo (compiled in), so all three run the same loop
 * the same way.
 *
 * libuv runs as a *foreign* loop: this file creates it and runs one turn at a
 * time, so the caller's loop (serve one turn, do its own between-turn work,
 * check for stop) is the same on both loops, and lws installs no signal
 * watchers (on a loop of its own it would take SIGINT, SIGTERM, SIGHUP,
 * SIGSEGV and SIGFPE from the application).
 *
 * Not libev: lws 4.1.6's libev glue re-arms its one timer with ev_timer_set +
 * ev_timer_start while that timer may be armed, which libev forbids (the
 * timer heap keeps the old deadline; timers then fire late or never). On it,
 * a real race waited forever for a paced guess (docs/architecture.md). */

struct lws_context;
struct lws_context_creation_info;

enum mindpad_loop_kind {
    MINDPAD_LOOP_POLL = 0,
    MINDPAD_LOOP_LIBUV = 1,
};

struct mindpad_loop;

/* "poll" or "libuv" → its kind; NULL or "" → the default; anything else → -1. */
int mindpad_loop_parse(const char *name);
/* The default when nothing is set. */
int mindpad_loop_default(void);
/* "poll" or "libuv". */
const char *mindpad_loop_name(int kind);

/* A loop of that kind, not yet holding a context; NULL if the library's loop
 * cannot be created. */
struct mindpad_loop *mindpad_loop_new(int kind);
/* lws_create_context on this loop: adds the library's option and the foreign
 * loop to `info` (which must not set pcontext or foreign_loops). */
struct lws_context *mindpad_loop_create_context(struct mindpad_loop *loop,
                                                struct lws_context_creation_info *info);
/* One turn: waits for events (or the next lws timer), serves them, returns.
 * Negative when lws asks to stop (poll only). */
int mindpad_loop_service(struct mindpad_loop *loop);
/* Destroys the context (lws closes an event library's handles in stages,
 * inside the loop) and then the loop, and frees `loop`. Call it from the
 * thread that ran the loop, outside any lws callback. */
void mindpad_loop_destroy(struct mindpad_loop *loop);

#endif
