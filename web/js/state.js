// The client's picture of the game, built from server messages
// (docs/protocol.md) and a few local events ("local/…"). No DOM, no timers,
// no storage: `apply(state, event, now)` returns a new state and never
// changes the one it is given; `now` is the caller's clock in milliseconds
// (performance.now() in the page), so tests can feed recorded messages.

/** A race that has not started: what the game scene shows before questions. */
function freshRace(mode = null, game = null, round = null) {
  return {
    id: null,            // the race id (`race_started`, `room`): an old run's `finished` names another
    mode,
    game,
    round,
    running: false,
    startedAt: 0,
    endsAt: null,        // Time Attack: when the server ends the race (caller's clock)
    question: null,      // {id, index, prompt}
    guess: null,         // the live reading of the current question's drawing
    choice: null,        // the `choice` offered for the submitted drawing, until picked or withdrawn
    graded: null,        // the last `graded` message
    submitting: false,   // a `submit` is out and not answered yet
    runOver: false,      // the last answer ended this player's run
    score: 0,
    result: null,        // `finished.result`: this player's run is over
    standings: null,     // `standings`: the race is over for everyone
    progress: null,      // the last `progress`
    watching: null,      // a spectator's view (`spectating`): {round, index, prompt, racer}
    saved: null,         // {game, personalBest, stored}
    fish: null,          // the fish's reaction (`fish`): "swim", "jump", or null (still)
  };
}

export function initialState() {
  return {
    protocol: null,      // `welcome`: protocol and limits
    identified: false,
    player: null,        // {id, name}
    catalog: null,       // GET /api/games → games; null until loaded
    room: null,          // {code, you, room, resumed}
    countdown: null,     // {endsAt}
    race: freshRace(),
  };
}

/** The game a room plays; rooms of servers before games were MindPad's. */
export function roomGame(room) {
  return (room && room.game) || "mindpad";
}

function withRace(state, changes) {
  return { ...state, race: { ...state.race, ...changes } };
}

/** Starts the race picture (race_started, or a question or running room with none). */
function startRace(state, now, endsInMs) {
  const room = state.room ? state.room.room : null;
  return {
    ...state,
    countdown: null,
    race: {
      ...freshRace(room ? room.mode : state.race.mode, room ? roomGame(room) : state.race.game,
        room ? room.round : state.race.round),
      running: true,
      startedAt: now,
      endsAt: endsInMs != null ? now + endsInMs : null,
    },
  };
}

function myProgressScore(progress, you, fallback) {
  const me = progress && progress.racers.find((r) => r.player_id === you);
  return me ? me.score : fallback;
}

function onRoom(state, msg, now) {
  const r = msg.room;
  const sameRoom = !!state.room && state.room.code === msg.code && state.race.round === r.round;
  let next = { ...state, room: { code: msg.code, you: msg.you, room: r, resumed: true } };
  if (r.phase === "running") {
    // A reconnect within the race keeps what we had; anything else starts afresh.
    if (!(sameRoom && state.race.running)) next = startRace(next, now, r.ends_in_ms);
    else if (r.ends_in_ms != null) next = withRace(next, { endsAt: now + r.ends_in_ms });
  } else if (!(sameRoom && r.phase === "finished")) {
    next = withRace(next, freshRace(r.mode, roomGame(r), r.round));
  }
  next = withRace(next, { mode: r.mode, game: roomGame(r), round: r.round });
  if (r.phase === "countdown") next = { ...next, countdown: { endsAt: now + (r.starts_in_ms || 0) } };
  if (msg.progress) {
    next = withRace(next, { progress: msg.progress, score: myProgressScore(msg.progress, msg.you, next.race.score) });
  }
  if (r.phase === "finished" && msg.standings) next = withRace(next, { standings: msg.standings, running: false });
  if (typeof msg.race === "string") next = withRace(next, { id: msg.race });
  return next;
}

/**
 * The room as it now stands. While the race runs the server's clock is the
 * truth: Time Attack's end is taken again (a teacher's pause moved it on),
 * and a pause freezes the clock shown (`pausedAt`) until the race goes on.
 */
function onRoomUpdated(state, msg, now) {
  const r = msg.room;
  let next = { ...state, room: { ...state.room, room: r } };
  if (r.phase !== "running" || !state.race.running) return next;
  const wasPaused = !!(state.room.room && state.room.room.paused), paused = r.paused === true;
  const patch = {};
  if (r.ends_in_ms != null) patch.endsAt = now + r.ends_in_ms;
  if (paused && !wasPaused) patch.pausedAt = now;
  if (!paused && wasPaused && state.race.pausedAt != null) {
    patch.startedAt = state.race.startedAt + (now - state.race.pausedAt);
    patch.pausedAt = null;
  }
  return Object.keys(patch).length ? withRace(next, patch) : next;
}

function onQuestion(state, msg, now) {
  let next = state.race.running ? state : startRace(state, now, state.room ? state.room.room.ends_in_ms : null);
  const same = !!next.race.question && next.race.question.id === msg.question;
  const index = Number(String(msg.question).split("q").pop());
  return withRace(next, {
    question: { id: msg.question, index: Number.isFinite(index) ? index : 0, prompt: msg.prompt || {} },
    guess: same ? next.race.guess : null,
    choice: null,        // a question given again (a reconnect): the server's offer went with the old connection
    submitting: false,
  });
}

/**
 * The state after one event. Server messages are applied as documented in
 * docs/protocol.md; unknown types leave the state as it is.
 */
export function apply(state, msg, now = 0) {
  switch (msg.type) {
    case "welcome":
      return { ...state, protocol: { version: msg.protocol, limits: msg.limits || {} } };
    case "identified":
      return {
        ...state,
        identified: true,
        player: { id: msg.player_id, name: msg.name },
        // The reader's learning of this player's hand (null: the server's reader does not learn hands).
        reading: msg.learns_hand === undefined ? null : { learns: msg.learns_hand, learned: msg.hand_learned, error: null },
        // Back after a reconnect: the server says `room` if we still belong to it.
        room: state.room ? { ...state.room, resumed: false } : null,
      };
    case "reading":
      return { ...state, reading: { learns: msg.learns_hand, learned: msg.hand_learned, error: null } };
    case "error":
      if (msg.request === "reading") return state.reading ? { ...state, reading: { ...state.reading, error: msg.message } } : state;
      if (msg.request === "choose") {
        // A pick not offered: the offer stays. Anything else: it is gone (withdrawn, the race over…).
        return withRace(state, { submitting: false, choice: msg.code === "bad_choice" ? state.race.choice : null });
      }
      return msg.request === "submit" ? withRace(state, { submitting: false }) : state;
    case "room":
      return onRoom(state, msg, now);
    case "room_updated":
      if (!state.room || state.room.code !== msg.code) return state;
      return onRoomUpdated(state, msg, now);
    case "left_room":
      return { ...state, room: null, countdown: null, race: { ...state.race, running: false } };
    case "countdown":
      return { ...state, countdown: { endsAt: now + msg.starts_in_ms } };
    case "race_started":
      return withRace(startRace(state, now, msg.ends_in_ms), { mode: msg.mode, round: msg.round, id: typeof msg.race === "string" ? msg.race : null });
    case "question":
      return onQuestion(state, msg, now);
    case "guess":
      if (!state.race.question || msg.question !== state.race.question.id) return state;
      return withRace(state, { guess: msg });
    case "choice":
      // The submitted drawing, read unsurely: which did the player mean? Not graded yet.
      if (!state.race.question || msg.question !== state.race.question.id) return state;
      return withRace(state, { choice: msg, submitting: false });
    case "graded":
      return withRace(state, { graded: msg, score: msg.score, submitting: false, runOver: !!msg.run_over, choice: null });
    case "progress":
      return withRace(state, { progress: msg });
    case "spectating":
      return withRace(state, {
        watching: { round: msg.round, index: Number.isInteger(msg.question_index) ? msg.question_index : 0,
          prompt: msg.prompt && typeof msg.prompt === "object" ? msg.prompt : {}, racer: msg.racer || null },
      });
    case "finished":
      // A run of a room we left (or of another race): its last words are not this race's (issue 45).
      if (!state.room || isOtherRace(state, msg.result && msg.result.race)) return state;
      return withRace(state, { result: msg.result, submitting: false, choice: null });
    case "standings":
      if (!state.room || isOtherRace(state, msg.race)) return state;
      return { ...state, countdown: null, race: { ...state.race, standings: msg, running: false } };
    case "result_saved":
      if (!state.room) return state;
      return withRace(state, {
        saved: { game: msg.game || state.race.game, personalBest: !!msg.personal_best, stored: msg.stored },
      });
    case "fish":
      // The racer's fish reacts to their right answers (issue 45): the server says when.
      if (!state.room || !["still", "swim", "jump"].includes(msg.reaction)) return state;
      return withRace(state, { fish: msg.reaction === "still" ? null : msg.reaction });

    // Local events: what the player did, or what the page noticed.
    case "local/catalog":
      return { ...state, catalog: msg.games };
    case "local/submit":
      return withRace(state, { submitting: true, choice: null });
    case "local/choose":
      // The pick is out: the choice stays on screen, waiting, until graded or refused.
      return withRace(state, { submitting: true });
    case "local/withdraw":
      // Back to the pad to write it again: the drawing's change withdraws the offer on the server.
      return withRace(state, { choice: null });
    case "local/cleared":
      return withRace(state, { guess: null, choice: null });
    case "local/leave":
      return { ...state, room: null, countdown: null, race: { ...state.race, running: false } };
    case "local/disconnected":
      return { ...state, identified: false };
    case "local/resume_timeout":
      // Reconnected, but the server did not put us back in the room.
      if (!state.room || state.room.resumed) return state;
      return { ...state, room: null, countdown: null, race: { ...state.race, running: false } };
    default:
      return state;
  }
}

// ---------- questions about a state ----------

/** Whether `race` (a message's race id) names a race other than the one the state is on. */
function isOtherRace(state, race) {
  return typeof race === "string" && typeof state.race.id === "string" && race !== state.race.id;
}

export function isSolo(state) {
  return !!state.room && state.room.room.max_players === 1;
}

export function me(state) {
  if (!state.room) return null;
  return state.room.room.members.find((m) => m.player_id === state.room.you) || null;
}

export function myRole(state) {
  const m = me(state);
  return m ? m.role : "racer";
}

export function isHost(state) {
  return !!state.room && state.room.room.host === state.room.you;
}

/** The catalog entry of a game, or null when the catalog does not list it. */
export function gameInfo(state, id) {
  return (state.catalog || []).find((g) => g.id === id) || null;
}

/** Is there a question this player may still answer (a submit may be out)? */
export function mayAnswer(state) {
  const r = state.race;
  return r.running && !!r.question && !r.result && !r.runOver && myRole(state) === "racer";
}

/** The prompt on screen: the player's question, or the one a spectator watches. */
function shownPrompt(state) {
  if (state.race.question) return state.race.question.prompt;
  return state.race.watching ? state.race.watching.prompt : null;
}

/**
 * What the lanes' bars measure, for the race's mode and game: a Normal run
 * has the game's length, so a bar is the questions answered of it; the
 * other modes are open-ended, so a bar is the score relative to the
 * leader's; a path finder's racers share one grid, so a bar is how close
 * the robot is to the goal. `{key, n}`: an i18n key and its count.
 */
export function lanesMeaning(state) {
  const p = state.race.progress;
  if (!p) return null;
  const prompt = shownPrompt(state);
  const info = gameInfo(state, state.race.game);
  // A game answered by moves (the path finder), also while its grid is still being guessed.
  const moves = (info && info.answer_input === "move") || p.racers.some((r) => Number.isInteger(r.remaining))
    || (prompt && Number.isInteger(prompt.best_steps));
  if (moves) return { key: "lanes.meaning.path", n: null };
  if (p.mode === "normal" && info && Number.isInteger(info.normal_length)) return { key: "lanes.meaning.normal", n: info.normal_length };
  return { key: "lanes.meaning.score", n: null };
}

/**
 * The race lanes: each racer's share of the way, 0…1, as lanesMeaning says
 * (a Normal racer who finished is at the end; in the open-ended modes the
 * leader's score is the whole bar). A racer who left (`abandoned`) keeps
 * the share they had reached; the scene marks and dims them.
 */
export function lanes(state) {
  const p = state.race.progress;
  if (!p) return [];
  const meaning = lanesMeaning(state);
  const you = state.room ? state.room.you : null;
  const prompt = shownPrompt(state);
  const far = prompt && Number.isInteger(prompt.best_steps) && prompt.best_steps > 0 ? prompt.best_steps : null;
  const lead = Math.max(1, ...p.racers.map((r) => (Number.isFinite(r.score) ? r.score : 0)));
  const shareOf = (r) => {
    if (meaning.key === "lanes.meaning.normal") return r.status === "completed" ? 1 : r.question_index / meaning.n;
    if (meaning.key === "lanes.meaning.path") {
      if (r.status === "completed") return 1;
      return Number.isInteger(r.remaining) && far ? 1 - Math.min(far, r.remaining) / far : 0;
    }
    return Math.max(0, r.score) / lead;
  };
  return p.racers.map((r) => ({
    playerId: r.player_id,
    name: r.name,
    score: r.score,
    status: r.status,
    left: r.status === "abandoned",
    me: r.player_id === you,
    remaining: Number.isInteger(r.remaining) ? r.remaining : null,
    // The path finder's lanes say where each robot is, never the score (a rank value, lower first).
    path: meaning.key === "lanes.meaning.path",
    atGoal: meaning.key === "lanes.meaning.path" && r.status === "completed",
    share: Math.max(0, Math.min(1, shareOf(r))),
  }));
}

/** The question a spectator is shown (`spectating`): {round, index, prompt, racer, racerName}, or null. */
export function watched(state) {
  const w = state.race.watching;
  if (!w || myRole(state) !== "spectator") return null;
  const racers = (state.race.progress && state.race.progress.racers) || [];
  const members = state.room ? state.room.room.members : [];
  const who = racers.find((r) => r.player_id === w.racer) || members.find((m) => m.player_id === w.racer);
  return { ...w, racerName: who ? who.name : null };
}
