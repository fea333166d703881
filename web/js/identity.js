// The player's name, the tokens that prove their names, and the game they
// last chose, kept in this browser's localStorage.

function read(key, fallback) {
  try { return JSON.parse(localStorage.getItem(key) || "null") ?? fallback; } catch (_) { return fallback; }
}

export const identity = {
  get name() { return localStorage.getItem("mindpad.name") || ""; },
  set name(v) { localStorage.setItem("mindpad.name", v); },
  get game() { return localStorage.getItem("mindpad.game") || ""; },
  set game(v) { localStorage.setItem("mindpad.game", v); },
  tokens() { return read("mindpad.tokens", {}); },
  token(name) { return this.tokens()[name.toLowerCase()] || null; },
  setToken(name, token) {
    const all = this.tokens(); all[name.toLowerCase()] = token;
    localStorage.setItem("mindpad.tokens", JSON.stringify(all));
  },
  dropToken(name) {
    const all = this.tokens(); delete all[name.toLowerCase()];
    localStorage.setItem("mindpad.tokens", JSON.stringify(all));
  },
};
