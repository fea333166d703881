// The "get ready" overlay between `start` and the first question.
import { $ } from "../ui.js";

let timer = null;

/** Counts down to `endsAt` (performance.now() time); hides itself 1.5 s after zero. */
export function startCountdown(endsAt) {
  const overlay = $("countdown");
  overlay.hidden = false;
  clearInterval(timer);
  const tick = () => {
    const left = endsAt - performance.now();
    $("countdown-num").textContent = String(Math.max(1, Math.ceil(left / 1000)));
    if (left <= -1500) hideCountdown();
  };
  tick();
  timer = setInterval(tick, 100);
}

export function hideCountdown() {
  clearInterval(timer);
  $("countdown").hidden = true;
}
