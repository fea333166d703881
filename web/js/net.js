// The WebSocket link to the server (protocol mindpad.v1) with reconnect and
// exponential backoff, and small helpers for the HTTP JSON API.

export class Link {
  constructor({ onMessage, onState }) {
    this.onMessage = onMessage;
    this.onState = onState;       // ("connecting"|"open"|"retrying"|"down", info)
    this.ws = null;
    this.attempt = 0;
    this.timer = null;
    this.everOpened = false;
    this.stopped = false;
    this.queue = [];
  }

  url() {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    return `${proto}//${location.host}/ws`;
  }

  connect() {
    clearTimeout(this.timer);
    this.stopped = false;
    if (this.ws) { this.ws.onclose = null; try { this.ws.close(); } catch (_) { /* closed */ } }
    this.onState("connecting");
    let ws;
    try {
      ws = new WebSocket(this.url(), "mindpad.v1");
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
      this.scheduleRetry();
    };
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
