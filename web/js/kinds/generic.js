// Any game without a module of its own: its prompt's text fields, shown as
// text (never markup), and its answers as plain values.

/** The prompt's readable fields: `text` and `instruction`, or else every string field. */
export function promptLines(prompt) {
  if (!prompt || typeof prompt !== "object") return [];
  const named = ["text", "instruction"].filter((k) => typeof prompt[k] === "string" && prompt[k] !== "");
  const keys = named.length ? named : Object.keys(prompt).filter((k) => typeof prompt[k] === "string" && prompt[k] !== "");
  return keys.map((k) => ({ key: k, text: prompt[k] }));
}

export default {
  id: null,
  input: null,
  padLabel: "game.canvas",

  renderPrompt(container, prompt) {
    container.replaceChildren();
    promptLines(prompt).forEach((line, i) => {
      const el = document.createElement("span");
      el.className = i === 0 ? "prompt-line" : "prompt-line sub";
      el.dataset.field = line.key;
      el.textContent = line.text;
      container.append(el);
    });
  },

  describePrompt(prompt) {
    return promptLines(prompt).map((l) => l.text).join(" — ");
  },

  /** An answer as a player reads it: a chosen option shows that option. */
  describeAnswer(answer, prompt) {
    if (answer && typeof answer === "object" && Number.isInteger(answer.option_index)
        && prompt && Array.isArray(prompt.options) && answer.option_index in prompt.options) {
      return String(prompt.options[answer.option_index]);
    }
    if (answer !== null && typeof answer === "object") return JSON.stringify(answer);
    return String(answer);
  },
};
