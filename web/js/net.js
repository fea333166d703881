// The WebSocket link to the server (protocol mindpad.v1) with reconnect and
// exponential backoff, and small helpers for the HTTP JSON API.
//
// Behind HAProxy (several instances, docs/decisions/0002-cluster-routing.md)
// the URL names the instance that owns the player's room, `/ws?instance=i2`;
// without a room (or on a single server) it is plain `/ws`.

/** A server that closes with 1012 (service restart, a drain) is left at once for another. */
const SERVICE_RESTART = 1012;
/** …but at most once in this many ms; a second 1012 sooner waits like any lost connection. */
const RESTART_SPACING_MS = 2000;

export class Link {
  constructor({ onMessage, onState, instance = () => null }) {
    this.onMessage = onMessage;
    this.onState = onState;       // ("connecting"|"open"|"retrying"|"down"|"closed"|"restarting", info)
    this.instanceOf = instance;   // the instance to ask for (the room's owner), or null
    this.target = undefined;      // where the next connect goes after hop(), once
    this.lastRestart = -Infinity;
    this.ws = null;
    this.attempt = 0;
    this.timer = null;
    this.everOpened = false;
    this.stopped = false;
  }

  url(instance = null) {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    const query = instance ? `?instance=${encodeURIComponent(instance)}` : "";
    return `${proto}//${location.host}/ws${query}`;
  }

  connect() {
    clearTimeout(this.timer);
    this.stopped = false;
    if (this.ws) { this.ws.onclose = null; try { this.ws.close(1000); } catch (_) { /* closed */ } }
    const instance = this.target !== undefined ? this.target : this.instanceOf();
    this.target = undefined;
    this.onState("connecting");
    let ws;
    try {
      ws = new WebSocket(this.url(instance), "mindpad.v1");
    } catch (e) {
      this.scheduleRetry();
      return;
    }
    this.ws = ws;
    ws.onopen = () => { this.attempt = 0; this.everOpened = true; this.onState("open"); };
    ws.onmessage = (ev) => {
      let msg;
      try { msg = JSON.parse(ev.data); } catch (_) { return; }
      this.onMessage(msg);
    };
    ws.onclose = (ev) => {
      if (this.ws !== ws) return;
      this.ws = null;
      if (this.stopped || ev.code === 4001) { this.onState("closed", ev.code); return; }
      if (ev.code === SERVICE_RESTART && performance.now() - this.lastRestart > RESTART_SPACING_MS) {
        // A draining instance: its rooms are over; any other instance takes us (plain /ws).
        this.lastRestart = performance.now();
        this.onState("restarting");
        this.hop(null);
        return;
      }
      this.scheduleRetry();
    };
  }

  /** Closes this socket (1000) and connects at once to `instance` (null: plain /ws). */
  hop(instance) {
    this.target = instance;
    this.attempt = 0;
    this.connect();
  }

  scheduleRetry() {
    this.attempt += 1;
    // 0.5 s, 1 s, 2 s, 4 s, 8 s, then every 10 s, with a little jitter.
    const base = Math.min(10000, 500 * 2 ** (this.attempt - 1));
    const delay = Math.round(base * (0.85 + Math.random() * 0.3));
    this.onState(this.attempt >= 3 || !this.everOpened ? "down" : "retrying", { delay, attempt: this.attempt });
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.connect(), delay);
  }

  retryNow() { this.attempt = 0; this.connect(); }

  /** Close for good (no retry) — used to identify under another name. */
  stop() {
    this.stopped = true;
    clearTimeout(this.timer);
    if (this.ws) { try { this.ws.close(1000); } catch (_) { /* closed */ } }
    this.ws = null;
  }

  get open() { return !!this.ws && this.ws.readyState === WebSocket.OPEN; }

  send(obj) {
    if (!this.open) return false;
    this.ws.send(JSON.stringify(obj));
    return true;
  }
}

export async function api(path, { method = "GET", token, body } = {}) {
  const headers = { Accept: "application/json" };
  if (token) headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  let data = null;
  try { data = await res.json(); } catch (_) { /* empty */ }
  if (!res.ok) {
    const err = new Error((data && data.message) || res.statusText);
    err.status = res.status;
    err.code = data && data.error;
    throw err;
  }
  return data;
}
