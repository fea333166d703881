// Answers chosen from options (answer_input choice): one big button per
// option; a tap (or the option's number key) submits
// {type: "submit", question, answer} with the kind's answer shape
// ({option_index} unless the kind says otherwise). Options are shown as text,
// or as the kind draws them (renderChoice: a picture with its words).
import { t } from "../i18n.js";
import { mayAnswer } from "../state.js";
import { noteSubmit } from "../review/attempts.js";
import { $, textEl } from "../ui.js";

/** The options of a prompt: the kind's own reading, else `prompt.options`. */
export function choicesOf(kind, prompt) {
  if (typeof kind.choices === "function") return kind.choices(prompt);
  return Array.isArray(prompt && prompt.options) ? prompt.options.map((o) => String(o)) : [];
}

export function createChoiceInput(kind, context, root = $("choices")) {
  let chosen = null;

  function pick(i) {
    const state = context.getState();
    const q = state.race.question;
    if (!q || state.race.submitting || !mayAnswer(state)) return;
    chosen = i;
    const answer = typeof kind.choiceAnswer === "function" ? kind.choiceAnswer(i, q.prompt) : { option_index: i };
    context.dispatch({ type: "local/submit" });
    noteSubmit(q.id, "tap");
    context.send({ type: "submit", question: q.id, answer });
    refresh();
  }

  function refresh() {
    const state = context.getState();
    const off = !mayAnswer(state) || state.race.submitting;
    for (const b of root.querySelectorAll("button.choice")) {
      b.disabled = off;
      b.setAttribute("aria-pressed", String(Number(b.dataset.index) === chosen));
    }
  }

  return {
    mount() {
      root.hidden = false;
      root.setAttribute("aria-label", t("game.choices"));
      root.replaceChildren();
    },
    question(q) {
      chosen = null;
      root.replaceChildren();
      choicesOf(kind, q.prompt).forEach((label, i) => {
        const b = textEl("button", "choice", label);
        b.type = "button";
        b.dataset.index = String(i);
        b.setAttribute("aria-keyshortcuts", String(i + 1));
        if (typeof kind.renderChoice === "function") kind.renderChoice(b, i, q.prompt);
        b.addEventListener("click", () => pick(i));
        root.append(b);
      });
      refresh();
    },
    refresh,
    /** 1…9 choose the matching option. */
    key(e) {
      if (!/^[1-9]$/.test(e.key) || e.target.tagName === "INPUT") return;
      const i = Number(e.key) - 1;
      if (i < root.querySelectorAll("button.choice").length) { e.preventDefault(); pick(i); }
    },
    unmount() {
      root.hidden = true;
      root.replaceChildren();
    },
  };
}
