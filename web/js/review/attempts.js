// What this browser sent for each answer of the run, kept until the next
// run starts: the drawing's strokes (the pad's own [x, y, t] points), or the
// way a typed or tapped answer went in. `finished.result.answers` carries no
// strokes (docs/protocol.md), so the review's thumbnails come from here.
// No DOM.

let attempts = [];    // [{question, input, strokes}] in the order they were graded
let pending = null;   // the submit that is out, graded next

/** A new run: nothing of the last one is kept. */
export function forgetRun() {
  attempts = [];
  pending = null;
}

/** A submit is out: `input` drawn | keypad | tap; `strokes` a copy of the drawing (drawn only). */
export function noteSubmit(question, input, strokes = null) {
  pending = { question, input, strokes: strokes ? strokes.map((s) => s.map((p) => [...p])) : null };
}

/** The answer `graded` names: what was sent for it (null when this page did not send it). */
export function takeGraded(question) {
  const sent = pending && pending.question === question ? pending : null;
  pending = null;
  const attempt = sent || { question, input: null, strokes: null };
  attempts.push(attempt);
  return attempt;
}

/**
 * The attempts matching a run's answer log (§2 of the contract: in order,
 * a question answered twice — the path finder's retries — twice): the k-th
 * answer to a question gets the k-th attempt at it, or null.
 */
export function attemptsFor(answers) {
  const seen = new Map();
  return answers.map((a) => {
    const k = seen.get(a.question) || 0;
    seen.set(a.question, k + 1);
    return attempts.filter((x) => x.question === a.question)[k] || null;
  });
}
