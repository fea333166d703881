"""Fixtures and helpers for the MindPad browser tests (Selenium + Debian's chromium)."""
import json
import os
import pathlib
import re
import subprocess
import time
import uuid

import pytest
from selenium import webdriver
from selenium.common.exceptions import NoAlertPresentException, StaleElementReferenceException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from digits import DIGITS, scaled

BASE_URL = os.environ.get("MINDPAD_URL", "http://127.0.0.1:18731")
ARTIFACTS = pathlib.Path(os.environ.get("MINDPAD_ARTIFACTS", pathlib.Path(__file__).resolve().parents[1] / "artifacts"))
DESKTOP = (1280, 800)
PHONE = (390, 844)


# Markup a hostile name would inject; the page's own pictures (under /img/) are not.
INJECTED = 'img:not([src^="/img/"]), [onerror]'


def racing_state_js(game, mode):
    """JavaScript for an input test: `state` driven through state.js (module `st`), a
    recording `send` into `sent`, one racer in a running room of `game`, and the
    question r1q0 with the script's `prompt`."""
    return f"""
  let state = st.initialState();
  const sent = [];
  const ctx = {{getState: () => state, send: (m) => {{ sent.push(m); return true; }},
               dispatch: (e) => {{ state = st.apply(state, e, performance.now()); }}}};
  const room = {{game: '{game}', round: 1, mode: '{mode}', phase: 'running', host: 'p1', max_players: 1,
                members: [{{player_id: 'p1', name: 'Kid', role: 'racer', ready: false, connected: true, host: true}}]}};
  ctx.dispatch({{type: 'room', code: 'KBRW', you: 'p1', room}});
  ctx.dispatch({{type: 'question', question: 'r1q0', prompt}});
"""


def unique_name(prefix):
    return f"{prefix}{uuid.uuid4().hex[:6]}"


def make_driver():
    opts = webdriver.ChromeOptions()
    opts.binary_location = os.environ.get("CHROMIUM_BIN", "/usr/bin/chromium")
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                "--no-first-run", "--disable-extensions", "--lang=en-US", "--mute-audio",
                f"--window-size={DESKTOP[0]},{DESKTOP[1]}"):
        opts.add_argument(arg)
    opts.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    service = Service(executable_path=os.environ.get("CHROMEDRIVER_BIN", "/usr/bin/chromedriver"))
    drv = webdriver.Chrome(service=service, options=opts)
    drv.set_page_load_timeout(30)
    # The viewport, not the window, is what the layout sees.
    drv.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                        {"width": DESKTOP[0], "height": DESKTOP[1], "deviceScaleFactor": 1, "mobile": False})
    return drv


@pytest.fixture
def browser():
    drivers = []

    def factory():
        d = make_driver()
        drivers.append(d)
        return d

    yield factory
    for d in drivers:
        try:
            check_console(d)
        finally:
            d.quit()


@pytest.fixture(scope="module")
def blank_page():
    """One browser on the app's page, for tests that import its modules."""
    drv = make_driver()
    drv.set_script_timeout(10)
    drv.get(BASE_URL + "/")
    wait(drv, lambda d: d.execute_script("return document.readyState") == "complete", 20, "the page")
    yield drv
    try:
        check_console(drv)
    finally:
        drv.quit()


def check_console(drv):
    """No script errors and no CSP violations in the browser console. A test
    that provokes an HTTP error on purpose names it in `drv.allowed_console`."""
    bad = []
    allowed = getattr(drv, "allowed_console", ())
    for entry in drv.get_log("browser"):
        msg = entry.get("message", "")
        if any(a in msg for a in allowed):
            continue
        if entry.get("level") == "SEVERE" and "/ws" not in msg and "favicon" not in msg and "404" not in msg:
            bad.append(msg)
        if "Content Security Policy" in msg:
            bad.append(msg)
    assert not bad, "browser console errors:\n" + "\n".join(bad)


def wait(drv, cond, timeout=15, what="condition"):
    def safe(d):
        try:
            return cond(d)
        except StaleElementReferenceException:
            return False
    return WebDriverWait(drv, timeout, poll_frequency=0.05).until(safe, message=f"timed out waiting for {what}")


def el(drv, css):
    return drv.find_element(By.CSS_SELECTOR, css)


def scene(drv):
    return drv.execute_script("return document.body.dataset.scene")


def wait_scene(drv, name, timeout=15):
    wait(drv, lambda d: scene(d) == name, timeout, f"scene {name} (now {scene(drv)})")


def assert_no_alert(drv):
    try:
        alert = drv.switch_to.alert
        text = alert.text
        alert.dismiss()
        raise AssertionError(f"unexpected alert: {text}")
    except NoAlertPresentException:
        pass


def viewport(drv, size, mobile):
    """The page laid out at `size` (width, height), as a phone when `mobile`; returns once it is."""
    drv.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                        {"width": size[0], "height": size[1], "deviceScaleFactor": 1, "mobile": mobile})
    drv.execute_script("return new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")


def too_wide(drv):
    """What is wider than the screen: the page, or an answers table (which would scroll
    sideways), as [what, its width, the width it has]; empty when nothing is."""
    return drv.execute_script("""
      const out = [];
      if (document.documentElement.scrollWidth > innerWidth) out.push(['the page', document.documentElement.scrollWidth, innerWidth]);
      for (const l of document.querySelectorAll('.review-list')) {
        if (l.offsetParent && l.scrollWidth > l.clientWidth) out.push([l.closest('[id]').id, l.scrollWidth, l.clientWidth]);
      }
      return out;""")


def snap(drv, name):
    """Screenshots of the current scene at desktop and phone sizes; at the phone's, nothing is wider than it."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    drv.save_screenshot(str(ARTIFACTS / f"{name}-desktop.png"))
    try:
        viewport(drv, PHONE, True)
        drv.save_screenshot(str(ARTIFACTS / f"{name}-phone.png"))
        wide = too_wide(drv)
        assert not wide, f"{name} at phone size, [what, its width, the width it has]: {wide}"
    finally:
        viewport(drv, DESKTOP, False)


def open_levels(name, game, upto):
    """Opens levels 2…`upto` of `game` for the player `name`, as passing each level below it
    would have (since issue 45 the server refuses a locked level): their `level_progress`
    rows, written with psql on the test database (DATABASE_URL, as run.sh has it)."""
    if upto < 2:
        return
    sql = ("INSERT INTO level_progress (player_id, game, level, best_correct, best_duration_ms, passed_at, updated_at) "
           "SELECT p.id, :'game', l, 10, 1000, now(), now() FROM players p, generate_series(1, :upto - 1) AS l "
           "WHERE p.name_key = lower(:'name') ON CONFLICT (player_id, game, level) DO UPDATE SET passed_at = now()")
    subprocess.run(["psql", os.environ["DATABASE_URL"], "-v", "ON_ERROR_STOP=1", "-q", "-v", f"game={game}", "-v", f"upto={upto}",
                    "-v", f"name={name}"], input=sql, text=True, check=True, capture_output=True)


def open_app(drv, path="/"):
    drv.get(BASE_URL + path)
    wait(drv, lambda d: scene(d) not in (None, "loading"), 20, "the app to connect")


def onboard(drv, name):
    wait_scene(drv, "onboard")
    box = el(drv, "#name-input")
    box.clear()
    box.send_keys(name)
    el(drv, "#onboard-go").click()


def new_player(drv, prefix="P", path="/"):
    name = unique_name(prefix)
    open_app(drv, path)
    onboard(drv, name)
    return name


def open_lobby(drv, mode=None):
    """From the menu, a new race room of `mode` (default: the one preselected,
    Time Attack where the game offers it); its lobby shown."""
    el(drv, "#btn-race").click()
    wait_scene(drv, "race")
    if mode:
        el(drv, f'input[name=race-mode][value="{mode}"]').click()
    el(drv, "#race-create").click()
    wait_scene(drv, "lobby")


def join_ready(browser, host, prefix="Bo"):
    """A second player opens the host's invite link in a new browser, names
    themself and is ready; returns (driver, name) once the host may start."""
    link = el(host, "#lobby-link").get_attribute("value")
    drv = browser()
    name = unique_name(prefix)
    open_app(drv, link[len(BASE_URL):])
    onboard(drv, name)
    wait_scene(drv, "lobby")
    el(drv, "#lobby-ready").click()
    wait(host, lambda d: el(d, "#lobby-start").is_enabled(), 10, f"{name} ready")
    return drv, name


# ---------- questions and drawing ----------
SIGN = {"+": "+", "−": "-", "-": "-", "×": "*", "÷": "/"}
QRE = re.compile(r"^\s*(\d+)\s*([+−\-×÷])\s*(\d+)\s*=\s*([0-9?]+)\s*$")


def hidden_digit(text):
    """The digit hidden in `47 + 38 = 8?` (5)."""
    m = QRE.match(text)
    assert m, f"cannot read question {text!r}"
    a, op, b, masked = int(m.group(1)), SIGN[m.group(2)], int(m.group(3)), m.group(4)
    result = {"+": a + b, "-": a - b, "*": a * b, "/": a // b}[op]
    digits = str(result)
    assert len(digits) == len(masked), (text, digits)
    pos = masked.index("?")
    for i, ch in enumerate(masked):
        if ch != "?":
            assert ch == digits[i], (text, digits)
    return int(digits[pos])


def draw_digit(drv, digit, pointer="mouse"):
    """Draw `digit` on the canvas with real pointer input (W3C actions)."""
    draw_shape(drv, DIGITS[digit], pointer)


def draw_shape(drv, shape, pointer="mouse"):
    """Draw a shape (strokes in a unit box, as digits.py has them) on the canvas
    with real pointer input (W3C actions)."""
    canvas = el(drv, "#pad")
    rect = drv.execute_script("const r = arguments[0].getBoundingClientRect(); return [r.width, r.height]", canvas)
    w, h = rect
    bw, bh = w * 0.42, h * 0.7
    left, top = (w - bw) / 2, (h - bh) / 2
    for stroke in scaled(shape, bw, bh, left, top):
        chain = ActionChains(drv, duration=0)
        if pointer != "mouse":
            from selenium.webdriver.common.actions.pointer_input import PointerInput
            from selenium.webdriver.common.actions.action_builder import ActionBuilder
            chain.w3c_actions = ActionBuilder(drv, mouse=PointerInput(pointer, pointer), duration=0)
        x0, y0 = stroke[0]
        chain.move_to_element_with_offset(canvas, int(x0 - w / 2), int(y0 - h / 2)).click_and_hold()
        px, py = int(x0 - w / 2), int(y0 - h / 2)
        for (x, y) in stroke[1:]:
            nx, ny = int(x - w / 2), int(y - h / 2)
            if (nx, ny) == (px, py):
                continue
            chain.move_to_element_with_offset(canvas, nx, ny)
            px, py = nx, ny
        chain.release()
        chain.perform()


def current_question(drv):
    q = el(drv, "#question")
    return q.get_attribute("data-id"), q.text


def answer(drv, previous_id=None, wrong=False, pointer="mouse", check_guess=True, timeout=15):
    """Wait for a question other than previous_id, draw the digit, submit; returns (qid, graded dataset)."""
    wait(drv, lambda d: current_question(d)[0] not in (None, "", previous_id) and scene(d) == "game",
         timeout, "a new question")
    qid, text = current_question(drv)
    digit = hidden_digit(text)
    if wrong:
        digit = (digit + 5) % 10 if digit not in (0, 5) else (3 if digit == 0 else 7)
    assert el(drv, "#btn-submit").get_attribute("disabled") is not None, "Submit must be disabled before drawing"
    draw_digit(drv, digit, pointer)
    if check_guess:
        wait(drv, lambda d: el(d, "#guess").get_attribute("data-digit") == str(digit), 10,
             f"the live guess {digit} for {text}")
    wait(drv, lambda d: el(d, "#btn-submit").is_enabled(), 5, "Submit to be enabled")
    el(drv, "#btn-submit").click()
    wait(drv, lambda d: el(d, "#feedback").get_attribute("data-question") == qid, 10, "the grade")
    fb = el(drv, "#feedback")
    return qid, text, digit, fb.get_attribute("data-correct") == "true", fb.get_attribute("data-answer")


def review_rows(drv, scene_id):
    """The review table's rows as text: [#, question, drawing's name or text, read, right answer, points]."""
    return drv.execute_script("""
      return [...document.querySelectorAll(arguments[0] + ' .review-table tbody tr')].map((tr) => [...tr.cells].map((td) => {
        const svg = td.querySelector('svg');
        return svg ? 'svg:' + svg.getAttribute('aria-label') + ':' + svg.querySelectorAll('path').length : td.textContent;
      }));""", f"#{scene_id}-review")
