"""How games draw prompts and take answers (web/js/kinds/, web/js/inputs/),
in real Chromium: MindPad's arithmetic prompt, the generic fallback for a
game without a module (its text shown as text), and the generic choice input
driven with a synthetic `quick_pick` prompt (the toy kind the server's tests
register) by real clicks and keys."""
import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By

from conftest import BASE_URL, INJECTED, racing_state_js, wait

XSS = "<img src=x onerror=alert(1)>"
QUICK_PICK = {"options": [3, 11, 7], "instruction": "Tap the largest"}

RENDER = """
const [kindId, prompt, done] = arguments;
import('/js/kinds/index.js').then((k) => {
  const kind = k.kindFor(kindId);
  const box = document.createElement('p');
  document.body.append(box);
  kind.renderPrompt(box, prompt);
  const out = {id: kind.id, input: kind.input, text: box.textContent,
               lines: [...box.children].map((e) => [e.className, e.textContent]),
               hidden: [...box.querySelectorAll('.hidden-digit')].map((e) => e.textContent),
               tags: [...box.querySelectorAll('*')].map((e) => e.tagName.toLowerCase())};
  box.remove();
  done(out);
}).catch((e) => done({error: String(e && e.stack || e)}));
"""

# A choice input on its own, with a state driven through state.js and a recording `send`.
SETUP_CHOICE = """
const [prompt, done] = arguments;
Promise.all([import('/js/state.js'), import('/js/inputs/choice.js'), import('/js/kinds/index.js')])
.then(([st, choice, kinds]) => {""" + racing_state_js("quick_pick", "normal") + """
  const root = document.createElement('div');
  root.id = 'test-choices';
  root.className = 'choices';
  document.body.prepend(root);
  const kind = kinds.kindFor('quick_pick');
  const input = choice.createChoiceInput(kind, ctx, root);
  input.mount();
  input.question(state.race.question);
  document.addEventListener('keydown', (e) => input.key(e));
  window.__choice = {sent, input, ctx, kind, get state() { return state; }};
  done({kind: kind.id});
}).catch((e) => done({error: String(e && e.stack || e)}));
"""


@pytest.fixture
def page(blank_page):
    return blank_page


def render(drv, kind, prompt):
    out = drv.execute_async_script(RENDER, kind, prompt)
    assert "error" not in out, out.get("error")
    return out


def test_mindpad_draws_the_sum_with_its_hidden_digit(page):
    out = render(page, "mindpad", {"text": "47 + 38 = 8?", "lhs": 47, "operation": "+", "rhs": 38,
                                   "masked_result": "8?", "hidden_position": 1, "difficulty": 2})
    assert out["id"] == "mindpad" and out["input"] == "drawn_digit"
    assert out["text"] == "47 + 38 = 8?"
    assert out["hidden"] == ["?"]
    for op, sign in (("*", "×"), ("/", "÷"), ("-", "−")):
        out = render(page, "mindpad", {"lhs": 12, "operation": op, "rhs": 3, "masked_result": "?", "hidden_position": 0})
        assert out["text"] == f"12 {sign} 3 = ?"


def test_a_game_without_a_module_shows_its_prompt_as_text(page):
    out = render(page, "quick_pick", QUICK_PICK)
    assert out["id"] is None, "quick_pick has no module of its own: the generic kind draws it"
    assert out["lines"] == [["prompt-line", "Tap the largest"]]
    out = render(page, "some_future_game", {"text": XSS, "instruction": "<b>bold</b>", "level": 3})
    assert out["lines"] == [["prompt-line", XSS], ["prompt-line sub", "<b>bold</b>"]]
    assert out["tags"] == ["span", "span"], "no element comes from the prompt's text"
    assert page.find_elements(By.CSS_SELECTOR, INJECTED + ", b") == []
    out = render(page, "some_future_game", {"title": "Count the fish", "n": 4})
    assert out["lines"] == [["prompt-line", "Count the fish"]]


def test_generic_answers_read_as_the_option_chosen(page):
    said = page.execute_async_script("""
      const done = arguments[arguments.length - 1];
      import('/js/kinds/index.js').then((k) => {
        const g = k.kindFor('quick_pick'), m = k.kindFor('mindpad');
        const p = {options: [3, 11, 7]};
        done([g.describeAnswer({option_index: 1}, p), g.describeAnswer(8, null), g.describeAnswer({x: 1}, p),
              m.describeAnswer(9)]);
      });""")
    assert said == ["11", "8", '{"x":1}', "9"]


def choice_buttons(drv):
    return drv.find_elements(By.CSS_SELECTOR, "#test-choices button.choice")


def choice_state(drv):
    return drv.execute_script("return {sent: window.__choice.sent, submitting: window.__choice.state.race.submitting}")


def test_the_choice_input_submits_the_option_tapped(page):
    out = page.execute_async_script(SETUP_CHOICE, QUICK_PICK)
    assert "error" not in out, out.get("error")
    buttons = choice_buttons(page)
    assert [b.text for b in buttons] == ["3", "11", "7"]
    assert all(b.is_enabled() for b in buttons)
    assert page.find_element(By.ID, "test-choices").get_attribute("aria-label") == "Answers"
    assert min(b.size["height"] for b in buttons) >= 48, "options are big tap targets"

    buttons[1].click()
    st = choice_state(page)
    assert st["sent"] == [{"type": "submit", "question": "r1q0", "answer": {"option_index": 1}}]
    assert st["submitting"] is True
    assert not any(b.is_enabled() for b in choice_buttons(page)), "one answer per question"
    assert choice_buttons(page)[1].get_attribute("aria-pressed") == "true"
    buttons[0].click()
    assert len(choice_state(page)["sent"]) == 1

    # Graded, the next question: the number keys choose too.
    page.execute_script("""
      const c = window.__choice;
      c.ctx.dispatch({type: 'graded', question: 'r1q0', answer: {option_index: 1}, correct: true,
                      expected: {option_index: 1}, points: 1, score: 1, run_over: false});
      c.ctx.dispatch({type: 'question', question: 'r1q1', prompt: {options: [9, 2, 5, 40], instruction: 'Tap the largest'}});
      c.input.question(c.state.race.question);""")
    assert [b.text for b in choice_buttons(page)] == ["9", "2", "5", "40"]
    assert all(b.is_enabled() for b in choice_buttons(page))
    ActionChains(page).send_keys("4").perform()
    wait(page, lambda d: len(choice_state(d)["sent"]) == 2, 5, "the keyed answer")
    assert choice_state(page)["sent"][1] == {"type": "submit", "question": "r1q1", "answer": {"option_index": 3}}

    # The run is over: nothing more can be chosen.
    page.execute_script("""
      const c = window.__choice;
      c.ctx.dispatch({type: 'graded', question: 'r1q1', answer: {option_index: 3}, correct: true,
                      expected: {option_index: 3}, points: 1, score: 2, run_over: true});
      c.input.refresh();""")
    assert not any(b.is_enabled() for b in choice_buttons(page))


def test_inputs_follow_the_catalogs_answer_input(page):
    out = page.execute_async_script("""
      const done = arguments[arguments.length - 1];
      Promise.all([import('/js/inputs/index.js'), import('/js/kinds/index.js')]).then(([i, k]) => {
        const ctx = {getState: () => null, send: () => true, dispatch: () => {}};
        const spoken = i.createInput('spoken', k.kindFor('path'), ctx);
        spoken.mount();
        const shown = !document.getElementById('answer-unsupported').hidden;
        spoken.unmount();
        done({supported: ['drawn_digit', 'drawn_number', 'choice', 'move', 'spoken'].map(i.supportsInput), shown,
              after: !document.getElementById('answer-unsupported').hidden});
      });""")
    assert out["supported"] == [True, True, True, True, False], "the path finder's moves are taken (inputs/path.js)"
    assert out["shown"] is True and out["after"] is False
