"""Add-One Fish's client pieces in real Chromium, imported into a page of the
real server (no server game needed): the addone kind's prompt, the number
input (the wide pad's whole-number guess with per-digit marks, the keypad
driven by real clicks and keys, what a submit sends), the fish's reactions
and the aquarium's look rules."""
import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By

from conftest import racing_state_js, wait

XSS = "<img src=x onerror=alert(1)>"

# The number input on the page's own pad and keypad, with a state driven
# through state.js and a recording `send`.
SETUP_NUMBER = """
Promise.all([import('/js/state.js'), import('/js/inputs/index.js'), import('/js/kinds/index.js'), import('/js/ui.js')])
.then(([st, inputs, kinds, ui]) => {
  const prompt = {digits: '2139'};""" + racing_state_js("addone", "time_attack") + """
  ui.show('game');
  const kind = kinds.kindFor('addone');
  const input = inputs.createInput('drawn_number', kind, ctx);
  input.mount();
  input.question(state.race.question, false);
  document.addEventListener('keydown', (e) => input.key(e));
  window.__num = {sent, input, ctx, get state() { return state; }};
  done({kind: kind.id, padAria: document.getElementById('pad').getAttribute('aria-label')});
}).catch((e) => done({error: String(e && e.stack || e)}));
"""


@pytest.fixture
def page(blank_page):
    return blank_page


def js(drv, body, *args):
    out = drv.execute_async_script("const done = arguments[arguments.length - 1];" + body, *args)
    assert not (isinstance(out, dict) and "error" in out), out
    return out


def test_addone_answers_and_prompt(page):
    out = js(page, """
      Promise.all([import('/js/kinds/addone/index.js'), import('/js/kinds/index.js')]).then(([a, k]) => {
        const box = document.createElement('p');
        document.body.append(box);
        k.kindFor('addone').renderPrompt(box, {digits: '2139'});
        const tiles = [...box.querySelectorAll('.addone-digit')].map((e) => e.textContent);
        const label = box.firstElementChild.getAttribute('aria-label');
        k.kindFor('addone').renderPrompt(box, {digits: arguments[0]});
        const hostile = {text: box.textContent, tags: [...box.querySelectorAll('img')].length};
        box.remove();
        done({sums: ['2139', '9099', '010', '0'].map(a.addOne), tiles, label, hostile,
              said: k.kindFor('addone').describeAnswer('010'), input: k.kindFor('addone').input});
      }).catch((e) => done({error: String(e.stack || e)}));""".replace("arguments[0]", repr(XSS)))
    assert out["sums"] == ["3240", "0100", "121", "1"]
    assert out["tiles"] == ["2", "1", "3", "9"]
    assert out["label"] == "Add one to each digit: 2 1 3 9"
    assert out["hostile"]["tags"] == 0 and out["hostile"]["text"] == XSS, "prompt text stays text"
    assert out["said"] == "010" and out["input"] == "drawn_number"


def test_reactions_and_looks(page):
    out = js(page, """
      Promise.all([import('/js/state.js'), import('/js/kinds/addone/fish.js')]).then(([st, f]) => {
        // The fish reacts when the server says (`fish`, issue 45), never from the score.
        const room = {game: 'addone', round: 1, mode: 'normal', phase: 'running', host: 'p1', max_players: 1,
                      members: [{player_id: 'p1', name: 'Ann', role: 'racer', ready: false, connected: true, host: true}]};
        let s = st.apply(st.initialState(), {type: 'room', code: 'MXPT', you: 'p1', room});
        const react = [];
        for (const m of [{type: 'graded', question: 'r1q0', correct: true, score: 90}, {type: 'fish', reaction: 'swim'},
                         {type: 'fish', reaction: 'jump'}, {type: 'fish', reaction: 'dance'}, {type: 'fish', reaction: 'still'}]) {
          s = st.apply(s, m);
          react.push(s.race.fish);
        }
        const left = st.apply(st.apply(s, {type: 'local/leave'}), {type: 'fish', reaction: 'jump'}).race.fish;
        return {react, left};
      }).then((r) => import('/js/kinds/addone/fish.js').then((f) => done({
        react: r.react, left: r.left,
        clock: [0, 5, 6, 12, 18, 19, 23].map((h) => f.clockLook(new Date(2026, 10, 23, h, 30))),
        read: [{look: 'snow'}, {look: 'hail'}, null, {look: 'night', source: 'clock'}].map(f.readWeather),
        pics: ['betta', 'shark'].map(f.pictureOf)})))
      .catch((e) => done({error: String(e.stack || e)}));""")
    # A score of 90 points moves no fish; "dance" is no reaction; a fish message after leaving changes nothing.
    assert out["react"] == [None, "swim", "jump", "jump", None]
    assert out["left"] is None
    assert out["clock"] == ["night", "night", "sunny", "sunny", "sunny", "night", "night"]
    assert out["read"] == ["snow", None, None, "night"]
    assert out["pics"] == ["/img/fish/betta.svg", "/img/fish/goldfish.svg"]


def keypad(drv, key):
    drv.find_element(By.CSS_SELECTOR, f'#keypad button[data-key="{key}"]').click()


def sent(drv):
    return drv.execute_script("return window.__num.sent")


def test_the_keypad_types_and_sends_the_answer(page):
    out = js(page, SETUP_NUMBER)
    assert out["kind"] == "addone"
    assert out["padAria"].startswith("Wide drawing area")
    keys = page.find_elements(By.CSS_SELECTOR, "#keypad button[data-key]")
    # One Submit sends what is typed or drawn (issue 45): the keypad has no Enter key of its own,
    # and its display says what it is.
    assert sorted(k.get_attribute("data-key") for k in keys) == sorted([*"0123456789", "delete"])
    display = page.find_element(By.ID, "keypad-display")
    assert page.find_element(By.ID, display.get_attribute("aria-labelledby")).text == "Or type it:"
    assert not page.find_element(By.ID, "btn-submit").is_enabled(), "nothing typed or drawn"
    assert min(k.size["height"] for k in keys) >= 44 and min(k.size["width"] for k in keys) >= 44, "big targets"
    pad = page.find_element(By.ID, "pad")
    assert pad.size["width"] >= 2 * pad.size["height"], "the pad is wide"
    for k in "3241":
        keypad(page, k)
    keypad(page, "delete")
    keypad(page, "0")
    assert page.find_element(By.ID, "keypad-display").text == "3240"
    assert page.find_element(By.ID, "btn-submit").is_enabled(), "a typed answer enables Submit"
    page.find_element(By.ID, "btn-submit").click()
    assert sent(page) == [{"type": "submit", "question": "r1q0", "answer": "3240"}]
    assert page.execute_script("return window.__num.state.race.submitting") is True
    assert not page.find_element(By.CSS_SELECTOR, '#keypad button[data-key="5"]').is_enabled(), "one answer at a time"
    assert page.find_element(By.ID, "keypad-display").text == "3240", "kept until the next question"
    # Refused (the server says why): what was typed is still there to send again.
    page.execute_script("""
      const n = window.__num;
      n.ctx.dispatch({type: 'error', request: 'submit', code: 'submit_pending', message: 'wait'});
      n.input.refresh();""")
    assert page.find_element(By.ID, "btn-submit").is_enabled()
    page.find_element(By.ID, "btn-submit").click()
    assert sent(page)[-1] == {"type": "submit", "question": "r1q0", "answer": "3240"} and len(sent(page)) == 2

    # Graded; the next question is answered with the keyboard's digits and Enter.
    page.execute_script("""
      const n = window.__num;
      n.ctx.dispatch({type: 'graded', question: 'r1q0', answer: '3240', correct: true, expected: '3240', points: 1, score: 1, run_over: false});
      n.ctx.dispatch({type: 'question', question: 'r1q1', prompt: {digits: '909'}});
      n.input.question(n.state.race.question, false);
      document.activeElement.blur();""")
    assert page.find_element(By.ID, "keypad-display").text == "", "a new question, a clean keypad"
    ActionChains(page).send_keys("0100").send_keys("\ue003\ue003").send_keys("10").send_keys("\ue007").perform()
    assert page.find_element(By.ID, "keypad-display").text == "0110"
    wait(page, lambda d: len(sent(d)) == 3, 5, "the keyed answer")
    assert sent(page)[2] == {"type": "submit", "question": "r1q1", "answer": "0110"}


def test_the_live_guess_shows_the_whole_number_and_each_digit_under_its_ink(page):
    js(page, SETUP_NUMBER)
    pad = page.find_element(By.ID, "pad")
    # Some ink (a stroke by the real pointer), then the server's reading of it.
    ActionChains(page).move_to_element_with_offset(pad, -100, 0).click_and_hold() \
        .move_by_offset(0, 30).release().perform()
    wait(page, lambda d: any(m["type"] == "points" for m in sent(d)), 5, "the stroke to stream")
    assert sent(page)[0]["question"] == "r1q0"
    drawn = sum(len(m["points"]) for m in sent(page) if m["type"] == "points")
    guess_js = """
      const n = window.__num;
      n.ctx.dispatch({type: 'guess', question: 'r1q0', number: '3240', confidence: 0.9, points: arguments[0],
        digits: [{digit: 3, confidence: 0.99, box: [20, 20, 60, 80]}, {digit: 2, confidence: 0.9, box: [80, 20, 120, 80]},
                 {digit: 4, confidence: 0.95, box: [140, 20, 180, 80]}, {digit: 0, confidence: 0.97, box: [200, 20, 240, 80]}]});
      n.input.refresh();"""
    # A reading of more points than the pad holds was taken before an undo: not shown.
    page.execute_script(guess_js, drawn + 20)
    guess = page.find_element(By.ID, "guess")
    assert guess.text == "?" and guess.get_attribute("data-number") == ""
    assert page.find_elements(By.CSS_SELECTOR, "#pad-marks .pad-mark") == []
    page.execute_script(guess_js, drawn)
    assert guess.text == "3240" and guess.get_attribute("data-number") == "3240"
    marks = page.execute_script("""
      const pad = document.getElementById('pad').getBoundingClientRect();
      return [...document.querySelectorAll('#pad-marks .pad-mark')].map((m) => {
        const r = m.getBoundingClientRect();
        return [m.textContent, Math.round(r.left - pad.left), Math.round(r.top - pad.top)];
      });""")
    assert [m[0] for m in marks] == ["3", "2", "4", "0"]
    assert [m[1] for m in marks] == [20, 80, 140, 200], "each digit sits at its ink's x"
    assert all(m[2] >= 80 for m in marks), "under the ink"
    # Nothing typed: Submit sends the drawing (a submit without answer).
    page.find_element(By.ID, "btn-submit").click()
    assert sent(page)[-1] == {"type": "submit", "question": "r1q0"}
    page.execute_script("window.__num.input.unmount()")


def test_a_palm_resting_while_a_pen_writes_draws_nothing(page):
    """Palm rejection on the pad: a finger (the palm) touching down first, then the pen:
    the palm's stroke is taken back (`undo`) and the pen's is the drawing; a touch
    soon after the pen is no stroke."""
    from selenium.webdriver.common.actions import interaction
    from selenium.webdriver.common.actions.action_builder import ActionBuilder
    from selenium.webdriver.common.actions.mouse_button import MouseButton
    js(page, SETUP_NUMBER)
    pad = page.find_element(By.ID, "pad")
    ab = ActionBuilder(page)
    palm = ab.add_pointer_input(interaction.POINTER_TOUCH, "palm")
    pen = ab.add_pointer_input(interaction.POINTER_PEN, "pen")
    left = MouseButton.LEFT
    # W3C actions run tick by tick, one action of each device per tick: a
    # device that waits pauses. Each line is one tick: the palm's, then the pen's.
    palm.create_pointer_move(0, -100, 0, origin=pad); pen.create_pause(0)
    palm.create_pointer_down(button=left); pen.create_pause(0)
    palm.create_pointer_move(50, -100, 20, origin=pad); pen.create_pause(0)
    palm.create_pause(0); pen.create_pointer_move(0, 0, -30, origin=pad)
    palm.create_pause(0); pen.create_pointer_down(button=left)
    palm.create_pointer_move(50, -90, 30, origin=pad); pen.create_pointer_move(50, 0, 10, origin=pad)
    palm.create_pause(0); pen.create_pointer_move(50, 5, 40, origin=pad)
    palm.create_pause(0); pen.create_pointer_up(left)
    palm.create_pointer_up(left); pen.create_pause(0)
    # The palm again, right after the pen: nothing.
    palm.create_pointer_move(0, 60, 0, origin=pad); pen.create_pause(0)
    palm.create_pointer_down(button=left); pen.create_pause(0)
    palm.create_pointer_move(50, 70, 20, origin=pad); pen.create_pause(0)
    palm.create_pointer_up(left); pen.create_pause(0)
    ab.perform()
    wait(page, lambda d: any(m["type"] == "undo" for m in sent(d)), 5, "the palm's stroke taken back")
    msgs = [m for m in sent(page) if m["type"] in ("points", "undo")]
    undo = next(i for i, m in enumerate(msgs) if m["type"] == "undo")
    assert msgs[undo] == {"type": "undo", "question": "r1q0", "stroke": 0}
    assert undo > 0 and all(m["type"] == "points" and m["stroke"] == 0 for m in msgs[:undo]), "the palm's batches first"
    after = msgs[undo + 1:]
    assert after and all(m["type"] == "points" and m["stroke"] == 0 for m in after), msgs
    # The pen's points only: from its start (the pad's centre, 30 px up) downwards.
    ys = [p[1] for m in after for p in m["points"]]
    assert max(ys) - min(ys) >= 60
    assert page.execute_script("return document.getElementById('btn-undo').disabled") is False

    # A touch the browser cancels (a tablet's own palm rejection) is taken back too
    # (a touch 2 s after the pen: events made in the page, as WebDriver cannot cancel one).
    count = len(sent(page))
    page.execute_script("""
      const pad = document.getElementById('pad'), r = pad.getBoundingClientRect();
      const at = (type, dx, dy) => pad.dispatchEvent(new PointerEvent(type, {pointerId: 77, pointerType: 'touch',
        isPrimary: true, bubbles: true, cancelable: true, clientX: r.left + 20 + dx, clientY: r.top + 20 + dy}));
      return new Promise((res) => setTimeout(() => { at('pointerdown', 0, 0); at('pointermove', 30, 30);
        at('pointercancel', 30, 30); res(); }, 2100));""")
    later = sent(page)[count:]
    assert [m["type"] for m in later][:1] == ["points"] and later[-1] == {"type": "undo", "question": "r1q0", "stroke": 1}, later
    page.execute_script("window.__num.input.unmount()")
