"""Issue 43, a choice instead of a refusal, in real Chromium against the real
server: a 1 whose flag is long and flat, which the recognizer cannot tell
from a 7, is drawn with the mouse; the live guess says "1 or 7?"; Submit
brings up "Which did you mean?" over the pad, with the clock still running;
Escape goes back to the pad; drawn again and submitted, the digit meant is
tapped and graded; Results' review and the race's replay say "tapped 7 of
1 · 7". The drawing is not hard-coded: a family of 1s whose flag goes from
short and steep to long and flat is read by the built `mindpad recognize`
(the server's own code path and weights) at test time, and the first that
is offered as 1 or 7 in the page is used, so the test holds for retrained
weights. The number picker (Add-One) and the keys are checked against a
scripted wire. Screenshots (desktop, phone, phone on its side; English and
Chinese) go to e2e/artifacts/choice-*.png."""
import json
import math
import os
import pathlib
import subprocess
import time

from selenium.webdriver.common.keys import Keys

from conftest import (DESKTOP, PHONE, answer, assert_no_alert, current_question, draw_shape, el, hidden_digit, new_player,
                      review_rows, scene, snap, too_wide, viewport, wait, wait_scene, ARTIFACTS)
from test_kids import axe_check

ROOT = pathlib.Path(__file__).resolve().parents[2]
BIN = os.environ.get("MINDPAD_BIN", str(ROOT / ".build" / "debug" / "mindpad"))
LANDSCAPE = (844, 390)


def flagged_one(length, angle):
    """A 1 in the unit box (x right, y down): its stem at x 0.6 from the top to the
    bottom, its flag `length` of the height long at `angle` degrees from the
    horizontal, drawn up to the top in the same stroke."""
    a = math.radians(angle)
    start = (0.6 - length * math.cos(a), length * math.sin(a))
    flag = [(start[0] + (0.6 - start[0]) * i / 8, start[1] * (1 - i / 8)) for i in range(9)]
    stem = [(0.6, i / 12) for i in range(1, 13)]
    return [flag + stem]


FAMILY = [flagged_one(length / 40, angle) for length in range(4, 28) for angle in range(5, 80, 3)]


def on_canvas(shape, w, h):
    """The points `draw_shape` moves the pointer to on a `w`×`h` pad (offsets from its
    centre, whole pixels; a repeated point dropped as the pad drops it)."""
    bw, bh = w * 0.42, h * 0.7
    left, top = (w - bw) / 2, (h - bh) / 2
    out = []
    for stroke in shape:
        pts = []
        for x, y in stroke:
            p = (int(left + x * bw - w / 2), int(top + y * bh - h / 2))
            if not pts or abs(p[0] - pts[-1][0]) + abs(p[1] - pts[-1][1]) >= 1:
                pts.append(p)
        out.append(pts)
    return out


def one_or_seven_candidates(w, h):
    """The family's members `mindpad recognize` offers as a choice holding 1 and 7 on a pad
    of this size, the most balanced first."""
    lines = "".join(json.dumps({"strokes": [[[x, y] for x, y in s] for s in on_canvas(shape, w, h)]}) + "\n" for shape in FAMILY)
    out = subprocess.run([BIN, "recognize"], input=lines, capture_output=True, text=True, check=True).stdout.splitlines()
    found = []
    for shape, line in zip(FAMILY, out):
        r = json.loads(line)
        if not r.get("unsure") and {1, 7} <= set(r.get("choices", [])):
            found.append((abs(r["probabilities"][1] - r["probabilities"][7]), shape, r["choices"]))
    found.sort(key=lambda f: f[0])
    return [(shape, choices) for _, shape, choices in found]


def pad_size(drv):
    return drv.execute_script("const r = document.getElementById('pad').getBoundingClientRect(); return [r.width, r.height]")


def clear_pad(drv):
    wait(drv, lambda d: el(d, "#btn-clear").is_enabled(), 5, "Clear enabled")
    el(drv, "#btn-clear").click()
    wait(drv, lambda d: el(d, "#guess").text == "?", 5, "an empty pad")


def draw_one_or_seven(drv, candidates):
    """Draws candidates until the live guess offers 1 or 7; returns its choices."""
    for shape, choices in candidates[:8]:
        draw_shape(drv, shape)
        try:
            wait(drv, lambda d: {"1", "7"} <= set((el(d, "#guess").get_attribute("data-choices") or "").split(",")), 6,
                 "a guess of 1 or 7")
            return [int(c) for c in el(drv, "#guess").get_attribute("data-choices").split(",")]
        except Exception:
            clear_pad(drv)
    raise AssertionError("no drawing of the family was offered as 1 or 7 in the page")


def panel_options(drv):
    return drv.execute_script("""return [...document.querySelectorAll('#pick-options .pick-option')].map((b) => {
      const r = b.getBoundingClientRect(); return [b.dataset.digit, r.width, r.height, r.top, r.bottom, b.disabled]; });""")


def answer_others(drv, want, previous):
    """Answers questions (written, right) until one hides a digit of `want`; returns its (id, text, digit), or None when the run ended first."""
    while True:
        wait(drv, lambda d: scene(d) == "results" or (scene(d) == "game" and current_question(d)[0] not in (None, "", previous)),
             15, "the next question or the results")
        if scene(drv) == "results":
            return None
        qid, text = current_question(drv)
        digit = hidden_digit(text)
        if digit in want:
            return qid, text, digit
        previous, _, _, correct, _ = answer(drv, previous)
        assert correct


def test_an_ambiguous_1_or_7_is_offered_tapped_graded_and_reviewed(browser):
    drv = browser()
    new_player(drv, "Pick")
    wait_scene(drv, "menu")
    target = None
    for _ in range(4):   # a Normal run has 10 questions; one hides a 1 or a 7 almost always
        el(drv, "#btn-normal").click() if scene(drv) == "menu" else el(drv, "#results-again").click()
        wait_scene(drv, "game", 15)
        target = answer_others(drv, {1, 7}, None)
        if target:
            break
    assert target, "no question hid a 1 or a 7 in four runs"
    qid, text, digit = target
    candidates = one_or_seven_candidates(*pad_size(drv))
    assert candidates, "mindpad recognize offers no drawing of the family as 1 or 7"

    # The live guess says which digits it hesitates between.
    choices = draw_one_or_seven(drv, candidates)
    guess = el(drv, "#guess")
    assert guess.text == f"{choices[0]} or {choices[1]}?" if len(choices) == 2 else guess.text.endswith("?")
    assert guess.get_attribute("data-digit") == "" and guess.get_attribute("data-unsure") == ""

    # Submitted: "Which did you mean?" over the pad, the digits large; nothing graded; the clock runs.
    el(drv, "#btn-submit").click()
    wait(drv, lambda d: el(d, "#pick-panel").is_displayed(), 5, "the pick panel")
    assert el(drv, "#pick-title").text == "Which did you mean?"
    opts = panel_options(drv)
    assert [int(o[0]) for o in opts] == choices
    assert all(o[1] >= 64 and o[2] >= 64 for o in opts), opts
    assert el(drv, "#feedback").get_attribute("data-question") != qid
    assert not el(drv, "#btn-submit").is_enabled()
    assert drv.switch_to.active_element.get_attribute("data-digit") == str(choices[0]), "the first option has the focus"
    clock = el(drv, "#clock").text
    wait(drv, lambda d: el(d, "#clock").text != clock, 3, "the clock to run on")
    assert el(drv, "#clock").is_displayed()
    axe_check(drv, "the pick panel")
    snap(drv, "choice-01-panel")
    # A phone on its side: the options stay big and on the screen, the clock too.
    viewport(drv, LANDSCAPE, True)
    drv.save_screenshot(str(ARTIFACTS / "choice-01-panel-landscape.png"))
    assert not too_wide(drv)
    opts = panel_options(drv)
    assert all(o[1] >= 64 and o[2] >= 64 and o[4] <= LANDSCAPE[1] for o in opts), opts
    assert drv.execute_script("const r = document.getElementById('clock').getBoundingClientRect(); return r.bottom <= innerHeight && r.top >= 0")
    viewport(drv, PHONE, True)
    assert drv.execute_script("const r = document.getElementById('clock').getBoundingClientRect(); return r.bottom <= innerHeight && r.top >= 0")
    viewport(drv, DESKTOP, False)
    # In Chinese.
    el(drv, "#lang-switch").click()
    wait(drv, lambda d: el(d, "#pick-title").text == "你写的是哪个？", 5, "the panel in Chinese")
    assert el(drv, "#pick-back").text == "重写"
    snap(drv, "choice-02-panel-zh")
    el(drv, "#lang-switch").click()
    wait(drv, lambda d: el(d, "#pick-title").text == "Which did you mean?", 5, "the panel in English")

    # Escape: back to the pad, empty, to write it again; the question is still open.
    drv.switch_to.active_element.send_keys(Keys.ESCAPE)
    wait(drv, lambda d: not el(d, "#pick-panel").is_displayed(), 5, "the panel gone")
    wait(drv, lambda d: el(d, "#guess").text == "?", 5, "an empty pad")
    assert current_question(drv)[0] == qid

    # Written again and submitted: the digit meant is tapped, and graded.
    choices = draw_one_or_seven(drv, candidates)
    el(drv, "#btn-submit").click()
    wait(drv, lambda d: el(d, "#pick-panel").is_displayed(), 5, "the pick panel again")
    el(drv, f'#pick-options .pick-option[data-digit="{digit}"]').click()
    wait(drv, lambda d: el(d, "#feedback").get_attribute("data-question") == qid, 10, "the grade")
    assert el(drv, "#feedback").get_attribute("data-correct") == "true"
    assert el(drv, "#feedback").get_attribute("data-answer") == str(digit)
    wait(drv, lambda d: not el(d, "#pick-panel").is_displayed(), 5, "the panel gone")
    snap(drv, "choice-03-graded")

    # The rest of the run, then the review: what was tapped, of what.
    previous = qid
    while answer_others(drv, set(), previous) is not None:
        pass
    wait_scene(drv, "results", 20)
    reads = drv.execute_script("""return Object.fromEntries([...document.querySelectorAll('#results-review .review-table tbody tr')]
      .map((tr) => [tr.dataset.question, tr.querySelector('td.read').textContent]));""")
    sep = "\u00a0·\u00a0"   # the options' list does not break across lines
    note = f"tapped {digit} of {sep.join(map(str, choices))}"
    assert note in reads[qid], reads
    assert all("tapped" not in r for q, r in reads.items() if q != qid), reads
    show_row = """const tr = document.querySelector(`#results-review tr[data-question="${arguments[0]}"]`);
      tr.scrollIntoView({block: 'center'});"""
    drv.execute_script(show_row, qid)
    drv.save_screenshot(str(ARTIFACTS / "choice-04-review-desktop.png"))
    viewport(drv, PHONE, True)
    drv.execute_script(show_row, qid)
    drv.save_screenshot(str(ARTIFACTS / "choice-04-review-phone.png"))
    assert not too_wide(drv)
    viewport(drv, DESKTOP, False)
    el(drv, "#lang-switch").click()
    wait(drv, lambda d: "点选了" in " ".join(r[3] for r in review_rows(d, "results")), 5, "the review in Chinese")
    assert f"在 {sep.join(map(str, choices))} 中点选了 {digit}" in " ".join(r[3] for r in review_rows(drv, "results"))
    viewport(drv, PHONE, True)
    drv.execute_script(show_row, qid)
    drv.save_screenshot(str(ARTIFACTS / "choice-04-review-zh-phone.png"))
    viewport(drv, DESKTOP, False)
    el(drv, "#lang-switch").click()

    # The replay: the API keeps the choice, and the verdict of that answer says it.
    href = el(drv, "#results-review .replay-link a").get_attribute("href")
    race = href.rsplit("/", 1)[1]
    api = drv.execute_async_script("""const done = arguments[arguments.length - 1];
      fetch('/api/races/' + arguments[0]).then((r) => r.json()).then(done);""", race)
    stored = [a for a in api["racers"][0]["answers"] if a.get("choice")]
    assert stored and stored[0]["question"] == qid
    assert stored[0]["choice"] == [{"place": 0, "options": choices, "tapped": digit}]
    assert stored[0]["input"] == "drawn" and stored[0]["answer"] == digit and stored[0]["strokes"]
    drv.get(href)
    wait(drv, lambda d: scene(d) == "replay" and d.find_elements("css selector", ".replay-lane"), 20, "the replay")
    if el(drv, "#replay-play").get_attribute("data-playing") == "true":
        el(drv, "#replay-play").click()
    drv.execute_script("""const s = document.getElementById('replay-seek');
      s.value = String(Math.ceil(arguments[0] / Number(document.getElementById('replay-lanes').dataset.end) * 1000) + 1);
      s.dispatchEvent(new Event('input', {bubbles: true}));""", stored[0]["answered_ms"])
    wait(drv, lambda d: note.replace("\u00a0", " ") in el(d, ".replay-verdict").text, 5, "the replay's verdict with the choice")
    snap(drv, "choice-05-replay")
    assert_no_alert(drv)


# The pick panel against a scripted wire: an Add-One number with an unsure
# place (a picker per place), and the keys (a digit key picks, Escape goes
# back). `window.__pk.sent` keeps what the page sent.
FAKE = """
const [game, prompt, done] = [arguments[0], arguments[1], arguments[arguments.length - 1]];
import('/js/controller.js').then((app) => {
  const me = app.getState().player;
  const pk = window.__pk = {sent: []};
  const say = (m) => setTimeout(() => app.link.onMessage(m), 0);
  app.link.send = (m) => {
    pk.sent.push(m);
    if (m.type === 'submit' && m.answer === undefined) say(pk.offer);
    if (m.type === 'choose') {
      if (pk.refuse) { pk.refuse = false; say({type: 'error', request: 'choose', code: 'bad_choice', message: 'no'}); return true; }
      say({type: 'graded', question: 'r1q0', answer: m.answer, expected: m.answer, correct: true, points: 1, score: 1, run_over: false});
    }
    return true;
  };
  say({type: 'room', code: 'PICKQ', you: me.id, room: {game, mode: 'time_attack', round: 1, phase: 'running', ends_in_ms: 60000,
       host: me.id, max_players: 1, members: [{player_id: me.id, name: me.name, role: 'racer', ready: true, connected: true, host: true}]}});
  say({type: 'question', question: 'r1q0', prompt});
  setTimeout(done, 200);
});
"""


def start_scripted(drv, game, prompt, offer):
    new_player(drv, "Wire")
    wait_scene(drv, "menu")
    drv.set_script_timeout(10)
    drv.execute_async_script(FAKE, game, prompt)
    drv.execute_script("window.__pk.offer = arguments[0]", offer)
    wait_scene(drv, "game")
    wait(drv, lambda d: el(d, "#pad-area").is_displayed(), 5, "the pad")


def sent(drv):
    return drv.execute_script("return window.__pk.sent")


def test_a_number_offers_a_picker_per_unsure_place(browser):
    drv = browser()
    offer = {"type": "choice", "question": "r1q0", "number": "3?4?",
             "digits": [{"digit": 3}, {"options": [1, 7]}, {"digit": 4}, {"options": [0, 6, 8]}]}
    start_scripted(drv, "addone", {"digits": "2639"}, offer)
    # Any ink: the scripted server answers the submit with the offer.
    draw_shape(drv, flagged_one(0.3, 30))
    wait(drv, lambda d: el(d, "#btn-submit").is_enabled(), 5, "Submit")
    el(drv, "#btn-submit").click()
    wait(drv, lambda d: el(d, "#pick-panel").is_displayed(), 5, "the pick panel")
    assert el(drv, "#pick-panel").get_attribute("data-options") == "3,1|7,4,0|6|8"
    fixed = [e.text for e in drv.find_elements("css selector", "#pick-options .pick-fixed")]
    assert fixed == ["3", "4"]
    opts = panel_options(drv)
    assert [o[0] for o in opts] == ["1", "7", "0", "6", "8"] and all(o[1] >= 64 and o[2] >= 64 for o in opts), opts
    # The keypad waits while choosing.
    assert all(not b.is_enabled() for b in drv.find_elements("css selector", "#keypad button"))
    axe_check(drv, "the number picker")
    snap(drv, "choice-06-number")
    viewport(drv, LANDSCAPE, True)
    drv.save_screenshot(str(ARTIFACTS / "choice-06-number-landscape.png"))
    assert not too_wide(drv)
    viewport(drv, DESKTOP, False)
    el(drv, "#lang-switch").click()
    wait(drv, lambda d: el(d, "#pick-title").text == "你写的是哪个？", 5, "Chinese")
    snap(drv, "choice-07-number-zh")
    el(drv, "#lang-switch").click()
    # One place picked by a tap: nothing sent yet, the next place takes the focus; a key picks the other.
    el(drv, '#pick-options .pick-option[data-place="1"][data-digit="7"]').click()
    assert el(drv, '#pick-options .pick-option[data-place="1"][data-digit="7"]').get_attribute("aria-pressed") == "true"
    assert not [m for m in sent(drv) if m["type"] == "choose"]
    assert drv.switch_to.active_element.get_attribute("data-place") == "3"
    drv.switch_to.active_element.send_keys("6")
    wait(drv, lambda d: [m for m in sent(d) if m["type"] == "choose"], 5, "the pick sent")
    assert [m for m in sent(drv) if m["type"] == "choose"] == [{"type": "choose", "question": "r1q0", "answer": "3746"}]
    wait(drv, lambda d: el(d, "#feedback").get_attribute("data-question") == "r1q0", 5, "the grade")
    assert not el(drv, "#pick-panel").is_displayed()


def test_a_digit_key_picks_and_a_refused_pick_keeps_the_offer(browser):
    drv = browser()
    offer = {"type": "choice", "question": "r1q0", "options": [7, 1]}
    prompt = {"text": "9 + 8 = 1?", "ascii_text": "9 + 8 = 1?", "lhs": 9, "operation": "+", "rhs": 8, "masked_result": "1?",
              "hidden_position": 1, "difficulty": 2}
    start_scripted(drv, "mindpad", prompt, offer)
    draw_shape(drv, flagged_one(0.3, 30))
    wait(drv, lambda d: el(d, "#btn-submit").is_enabled(), 5, "Submit")
    el(drv, "#btn-submit").click()
    wait(drv, lambda d: el(d, "#pick-panel").is_displayed(), 5, "the pick panel")
    assert [o[0] for o in panel_options(drv)] == ["7", "1"]
    # A key that is not offered does nothing; Ctrl+Z does not undo under the panel.
    active = drv.switch_to.active_element
    active.send_keys("4")
    active.send_keys(Keys.CONTROL, "z")
    assert not [m for m in sent(drv) if m["type"] in ("choose", "undo")]
    # The key of a digit offered picks it; refused (bad_choice): the panel stays, said in a toast.
    drv.execute_script("window.__pk.refuse = true")
    drv.switch_to.active_element.send_keys("1")
    wait(drv, lambda d: el(d, "#toast").is_displayed(), 5, "the refusal")
    assert el(drv, "#pick-panel").is_displayed()
    wait(drv, lambda d: all(not o[5] for o in panel_options(d)), 5, "the options back")
    drv.switch_to.active_element.send_keys("7")
    wait(drv, lambda d: el(d, "#feedback").get_attribute("data-question") == "r1q0", 5, "the grade")
    assert [m["answer"] for m in sent(drv) if m["type"] == "choose"] == [1, 7]


def test_the_kids_pad_offers_a_choice_too(browser):
    """A kids' question answered on the pad (`drawable`): the same panel over the smaller pad,
    the kids' own options beside it left alone; a digit key picks among the panel's."""
    drv = browser()
    prompt = {"ask": "count", "level": 2, "picture": {"scene": "count", "items": [{"thing": "apple", "count": 7}]},
              "options": [{"value": "6"}, {"value": "7"}, {"value": "8"}], "drawable": True}
    start_scripted(drv, "kids_counting", prompt, {"type": "choice", "question": "r1q0", "options": [1, 7]})
    draw_shape(drv, flagged_one(0.3, 30))
    wait(drv, lambda d: el(d, "#btn-submit").is_enabled(), 5, "Submit")
    el(drv, "#btn-submit").click()
    wait(drv, lambda d: el(d, "#pick-panel").is_displayed(), 5, "the pick panel")
    opts = panel_options(drv)
    assert [o[0] for o in opts] == ["1", "7"] and all(o[1] >= 64 and o[2] >= 64 for o in opts), opts
    axe_check(drv, "the kids' pick panel")
    snap(drv, "choice-08-kids")
    viewport(drv, LANDSCAPE, True)
    drv.save_screenshot(str(ARTIFACTS / "choice-08-kids-landscape.png"))
    assert not too_wide(drv)
    assert all(o[4] <= LANDSCAPE[1] for o in panel_options(drv)), panel_options(drv)
    viewport(drv, DESKTOP, False)
    drv.switch_to.active_element.send_keys("7")
    wait(drv, lambda d: [m for m in sent(d) if m["type"] == "choose"], 5, "the pick sent")
    assert [m for m in sent(drv) if m["type"] == "choose"] == [{"type": "choose", "question": "r1q0", "answer": 7}]
    assert not [m for m in sent(drv) if m["type"] == "submit" and "answer" in m], "the kids' option 7 was not tapped by the key"
