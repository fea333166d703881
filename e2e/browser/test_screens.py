"""Issue 19's screens: lanes that say what their bars mean and mark who left,
the spectator's view of the leader's question, the smaller items (empty
boards, numeric headers, phone tabs and clock, a finished run kept on screen
after a server restart), taking a name to another device with a one-time
code (two browser profiles), keyboard-only play, reduced motion, and
axe-core on every scene.

The scenes the real server cannot be made to show on demand (a spectator of
a race whose racer left, a server restart, an expired sign-in code) run
against `fake_server.py`, speaking the contract's shapes
(/work/issue19-contract.md §3, §6); the sign-in codes also run against the
real server."""
import contextlib
import json
import re

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

import conftest
from conftest import (PHONE, DESKTOP, current_question, el, hidden_digit, new_player, onboard, open_app, scene, snap,
                      unique_name, viewport, wait, wait_scene)
from fake_server import ISSUED_TOKEN, FakeServer
from test_kids import axe_check


@contextlib.contextmanager
def faked(**kw):
    """conftest's helpers talk to a scripted server while inside."""
    fake = FakeServer(**kw)
    old = conftest.BASE_URL
    conftest.BASE_URL = f"http://127.0.0.1:{fake.port}"
    try:
        yield fake
    finally:
        conftest.BASE_URL = old
        fake.close()


def to_lang(drv, lang):
    if drv.execute_script("return document.documentElement.lang") != ("zh-Hans" if lang == "zh" else "en"):
        el(drv, "#lang-switch").click()
    wait(drv, lambda d: d.execute_script("return document.documentElement.lang") == ("zh-Hans" if lang == "zh" else "en"),
         5, f"the page in {lang}")


def phone(drv, on=True):
    viewport(drv, PHONE if on else DESKTOP, on)


def page_state(drv, expr):
    """`expr` of the page's controller state (`s`)."""
    return drv.execute_async_script(f"""
      const done = arguments[arguments.length - 1];
      import('/js/controller.js').then((m) => {{ const s = m.getState(); done({expr}); }});
    """)


def lanes(drv):
    return [{"who": l.find_element(By.CSS_SELECTOR, ".who").text, "cls": l.get_attribute("class"),
             "share": float(l.get_attribute("data-share")),
             "tag": [t.text for t in l.find_elements(By.CSS_SELECTOR, ".lane-tag")],
             "width": l.find_element(By.CSS_SELECTOR, ".fill").size["width"],
             "bar": l.find_element(By.CSS_SELECTOR, ".bar").size["width"]}
            for l in drv.find_elements(By.CSS_SELECTOR, "#lanes-list .lane")]


# ---------- lanes and the spectator ----------

def watch(browser, fake, mode):
    """A new player opens the invite link of room WTCH, a running race: they spectate."""
    drv = browser()
    drv.set_script_timeout(10)
    fake.spectate_mode = mode
    new_player(drv, "Me", path="/?room=WTCH")
    wait_scene(drv, "game")
    wait(drv, lambda d: el(d, "#question").text == "47 + 38 = 8?", 10, "the leader's question")
    return drv


def test_a_spectator_sees_the_leaders_question_and_lanes_that_say_what_they_mean(browser):
    with faked(hostile="Bo") as fake:
        drv = watch(browser, fake, "time_attack")
        # The question the leader is on, drawn by MindPad's renderer, and no pad, no score of one's own.
        assert el(drv, "#question .hidden-digit").text == "?"
        assert el(drv, "#watching").text == "You are watching Ann, in the lead:"
        assert el(drv, "#question-num").text == "Question 5"
        assert not el(drv, "#pad-area").is_displayed() and not el(drv, "#btn-submit").is_displayed()
        assert not el(drv, "#game-score").is_displayed()
        assert "watching this race" in el(drv, "#game-wait").text
        # Time Attack: points relative to the leader; Bo left: marked, dimmed, where he stopped.
        assert el(drv, "#lanes-meaning").text == "Bars: points, relative to the leader"
        ann, bo = lanes(drv)
        assert (ann["who"], ann["share"], ann["tag"]) == ("Ann", 1.0, [])
        assert (bo["who"], bo["share"], bo["tag"]) == ("Bo", 0.25, ["left"])
        assert "abandoned" in bo["cls"] and bo["width"] < bo["bar"] * 0.3
        assert drv.execute_script("return getComputedStyle(document.querySelector('.lane.abandoned .fill')).backgroundColor") != \
            drv.execute_script("return getComputedStyle(document.querySelector('.lane.playing .fill')).backgroundColor")
        axe_check(drv, "the spectator's game scene")
        snap(drv, "screens-spectator-en")
        to_lang(drv, "zh")
        assert el(drv, "#lanes-meaning").text == "进度条：得分，相对于领先者"
        assert lanes(drv)[1]["tag"] == ["已离开"]
        assert el(drv, "#watching").text == "你正在观看领先的Ann："
        assert el(drv, "#question").text == "47 + 38 = 8?"
        snap(drv, "screens-spectator-zh")

        # Normal: questions answered of the game's length.
        drv2 = watch(browser, fake, "normal")
        assert el(drv2, "#lanes-meaning").text == "Bars: questions answered, of 10 · numbers: points"
        assert [(l["who"], l["share"]) for l in lanes(drv2)] == [("Ann", 0.4), ("Bo", 0.2)]


# ---------- the smaller items ----------

def test_boards_headers_phone_tabs_clock_and_a_restart_after_the_race(browser):
    with faked(hostile="Bo") as fake:
        drv = browser()
        drv.set_script_timeout(10)
        new_player(drv, "Me")
        wait_scene(drv, "menu")
        el(drv, "#btn-leaderboards").click()
        wait(drv, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#lb-body td.name")) == 2, 10, "the board")
        # Numeric columns: the header sits over its right-aligned numbers.
        aligns = drv.execute_script(
            "return [...document.querySelectorAll('#lb-table thead th')].map(th => getComputedStyle(th).textAlign)")
        assert aligns == ["right", "left", "right", "right"], aligns
        # A phone: the mode tabs stay on one line each.
        phone(drv)
        lines = drv.execute_script("""return [...document.querySelectorAll('#lb-modes button')].map(b => {
            const r = document.createRange(); r.selectNodeContents(b);
            return [b.textContent, new Set([...r.getClientRects()].map(x => Math.round(x.top))).size, b.scrollWidth <= b.clientWidth]; })""")
        assert [l[0] for l in lines] == ["Normal", "Survival", "Time Attack"]
        assert all(n == 1 and fits for _, n, fits in lines), lines
        snap(drv, "screens-board-en")
        phone(drv, False)
        # An empty board says so, without a table header over nothing.
        fake.board_empty = True
        el(drv, '#lb-periods button[data-value="day"]').click()
        wait(drv, lambda d: el(d, "#lb-status").text == "No scores yet. Be the first!", 10, "the empty board")
        assert not el(drv, "#lb-table").is_displayed()
        snap(drv, "screens-board-empty-en")
        to_lang(drv, "zh")
        assert not el(drv, "#lb-table").is_displayed() and el(drv, "#lb-status").text
        snap(drv, "screens-board-empty-zh")
        to_lang(drv, "en")
        el(drv, "#scene-leaderboards .back").click()

        # A race on a phone: the clock right under what is above it, no large gap.
        wait_scene(drv, "menu")
        el(drv, "#btn-race").click()
        el(drv, "#race-create").click()
        wait_scene(drv, "lobby")
        el(drv, "#lobby-start").click()
        wait_scene(drv, "game")
        wait(drv, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#lanes-list .lane")) == 2, 10, "the lanes")
        snap(drv, "screens-race-lanes-en")
        phone(drv)
        gap = drv.execute_script("""
            const clock = document.querySelector('#scene-game .clock');
            const above = [...clock.parentElement.children].filter(e => e !== clock && e.offsetParent !== null
              && (e.compareDocumentPosition(clock) & Node.DOCUMENT_POSITION_FOLLOWING));
            return clock.getBoundingClientRect().top - Math.max(...above.map(e => e.getBoundingClientRect().bottom));""")
        assert gap < 40, f"{gap}px above the clock"
        phone(drv, False)
        el(drv, "#lanes-list")  # Normal race of MindPad: questions of 10
        assert el(drv, "#lanes-meaning").text == "Bars: questions answered, of 10 · numbers: points"
        ActionChains(drv).send_keys("8").perform()
        wait(drv, lambda d: el(d, "#typed-digit").get_attribute("data-digit") == "8", 5, "the typed digit")
        to_lang(drv, "zh")
        assert el(drv, "#lanes-meaning").text == "进度条：已答题数（共 10 题）· 数字：得分"
        assert el(drv, "#typed-digit").text.startswith("已输入：8")
        snap(drv, "screens-race-lanes-zh")
        to_lang(drv, "en")
        el(drv, "#btn-submit").click()   # the focus is on the language button now: Submit sends the typed digit too
        wait_scene(drv, "standings")
        axe_check(drv, "the standings")
        snap(drv, "screens-standings-en")
        to_lang(drv, "zh")
        assert el(drv, "#podium .rank-1 .pts").text == "9 分"
        snap(drv, "screens-standings-zh")
        to_lang(drv, "en")
        assert [m for m in fake.received if m["type"] == "submit"][-1] == {"type": "submit", "question": "r1q0", "answer": "8"}
        # Plurals: "9 points", and one point would be "1 point".
        assert el(drv, "#podium .rank-1 .pts").text == "9 points"
        assert drv.execute_async_script("""const done = arguments[arguments.length - 1];
            import('/js/i18n.js').then((m) => done([m.t('standings.points', {score: 1}), m.t('standings.points', {score: 0})]));""") \
            == ["1 point", "0 points"]
        # The server restarts: the client reconnects, is not put back in the room, and stays on the standings.
        identifies = sum(1 for m in fake.received if m["type"] == "identify")
        fake.drop()
        wait(drv, lambda d: sum(1 for m in fake.received if m["type"] == "identify") > identifies, 15, "the reconnect")
        wait(drv, lambda d: page_state(d, "s.identified && s.room === null"), 10, "the room given up")
        assert scene(drv) == "standings"
        assert not el(drv, "#standings-rematch").is_displayed()
        # The same for a solo run's Results.
        el(drv, "#standings-menu").click()
        wait_scene(drv, "menu")
        el(drv, "#btn-normal").click()
        wait(drv, lambda d: scene(d) == "game" and el(d, "#question").get_attribute("data-id") == "r1q0", 10, "the question")
        ActionChains(drv).send_keys("8", Keys.ENTER).perform()
        wait_scene(drv, "results")
        identifies = sum(1 for m in fake.received if m["type"] == "identify")
        fake.drop()
        wait(drv, lambda d: sum(1 for m in fake.received if m["type"] == "identify") > identifies, 15, "the reconnect")
        wait(drv, lambda d: page_state(d, "s.identified && s.room === null"), 10, "the room given up")
        assert scene(drv) == "results"


# ---------- another device ----------

def tokens(drv):
    return json.loads(drv.execute_script("return localStorage.getItem('mindpad.tokens')") or "null")


def type_new_code(a, c, old_code):
    """Device `a` asks for a new code (not `old_code`); device `c` types it on its
    first-visit screen in lower case with a dash (input ignores both)."""
    el(a, "#device-back").click()
    wait_scene(a, "menu")
    el(a, "#btn-device").click()
    wait(a, lambda d: el(d, "#device-card").is_displayed() and el(d, "#device-code").get_attribute("data-code") != old_code,
         10, "a new code")
    fresh = el(a, "#device-code").get_attribute("data-code")
    box = el(c, "#signin-code")
    box.clear()
    box.send_keys(f"{fresh[:4].lower()}-{fresh[4:].lower()}", Keys.ENTER)


def test_a_name_goes_to_another_device_with_a_one_time_code(browser):
    with faked() as fake:
        a = browser()
        name = new_player(a, "Ann")
        wait_scene(a, "menu")
        snap(a, "screens-menu-en")
        to_lang(a, "zh")
        assert el(a, "#btn-device").text == "在另一台设备上使用我的名字"
        snap(a, "screens-menu-zh")
        to_lang(a, "en")
        el(a, "#btn-device").click()
        wait_scene(a, "device")
        wait(a, lambda d: el(d, "#device-card").is_displayed(), 10, "the code")
        code = el(a, "#device-code").get_attribute("data-code")
        link = el(a, "#device-link").get_attribute("value")
        assert re.fullmatch(r"[23456789A-HJKMNP-Z]{8}", code) and el(a, "#device-code").text == f"{code[:4]}-{code[4:]}"
        assert link == f"{conftest.BASE_URL}/?sign_in={code}"
        assert fake.posts[-1][:2] == (f"/api/players/{name}/sign_in_codes", f"Bearer {ISSUED_TOKEN}")
        first = el(a, "#device-expiry").text
        assert re.fullmatch(r"Expires in (10:00|9:[0-5]\d)", first), first
        wait(a, lambda d: el(d, "#device-expiry").text != first, 5, "the countdown to tick")
        axe_check(a, "the device code")
        snap(a, "screens-device-en")
        to_lang(a, "zh")
        assert re.fullmatch(r"\d+:\d\d 后过期", el(a, "#device-expiry").text)
        snap(a, "screens-device-zh")
        to_lang(a, "en")

        # A second browser profile opens the link: signed in as Ann, with a token of its own.
        b = browser()
        open_app(b, link[len(conftest.BASE_URL):])
        wait_scene(b, "menu")
        assert el(b, "#player-name").text == name
        assert tokens(b) == {name.lower(): fake.device_tokens[0]} and fake.device_tokens[0] != ISSUED_TOKEN
        assert b.current_url == conftest.BASE_URL + "/"
        assert {"type": "identify", "name": name, "token": fake.device_tokens[0]} in fake.received

        # The same code again, in a third profile: refused, said clearly, nothing stored.
        c = browser()
        c.allowed_console = ("/api/sign_in",)   # the refusals are HTTP errors on purpose
        open_app(c, f"/?sign_in={code}")
        wait_scene(c, "onboard")
        wait(c, lambda d: el(d, "#signin-error").text == "This code was already used. Ask your other device for a new one.",
             10, "the refusal")
        assert tokens(c) is None and c.current_url == conftest.BASE_URL + "/"
        axe_check(c, "the first visit with a refused code")
        snap(c, "screens-signin-used-en")
        phone(c)
        assert c.execute_script("return document.documentElement.scrollWidth") <= PHONE[0]
        phone(c, False)
        # Typed on the first screen: an expired code, an unknown one, a malformed one, then a good one.
        expired = fake.new_code(name, expired=True)
        for typed, said in ((expired, "This code has expired (a code lasts 10 minutes). Ask your other device for a new one."),
                            ("ZZZZ-ZZZZ", "There is no such code. Check it and try again."),
                            ("12", "A code has 8 letters and digits, like K7QF-3MZD.")):
            box = el(c, "#signin-code")
            box.clear()
            box.send_keys(typed, Keys.ENTER)
            wait(c, lambda d: el(d, "#signin-error").text == said, 10, f"the refusal of {typed}")
        to_lang(c, "zh")
        el(c, "#signin-code").clear()
        el(c, "#signin-code").send_keys(expired, Keys.ENTER)
        wait(c, lambda d: "已过期" in el(d, "#signin-error").text, 10, "the refusal in Chinese")
        snap(c, "screens-signin-expired-zh")
        to_lang(c, "en")
        type_new_code(a, c, code)
        wait_scene(c, "menu")
        assert el(c, "#player-name").text == name and tokens(c) == {name.lower(): fake.device_tokens[1]}


def banner(drv):
    """The connection banner as shown: (state, text, button), or None when hidden."""
    if not el(drv, "#conn-banner").is_displayed():
        return None
    return el(drv, "#conn-banner").get_attribute("data-state"), el(drv, "#conn-text").text, el(drv, "#conn-retry").text


PAUSED = ("replaced", "Your name is now playing in another tab or on another device, so this one is paused.", "Play here")


def test_a_name_goes_to_another_device_on_the_real_server(browser):
    """The same on the real server (branch replay-api's codes, player_tokens): the
    second profile gets a token of its own and plays under the name; the device it
    took over says so and can take the name back; a used code is refused; a code
    typed in lower case with a dash signs in, and takes over the run the name is in."""
    a = browser()
    name = new_player(a, "Ann")
    wait_scene(a, "menu")
    first = tokens(a)[name.lower()]
    el(a, "#btn-device").click()
    wait_scene(a, "device")
    wait(a, lambda d: el(d, "#device-card").is_displayed(), 10, "the code")
    code = el(a, "#device-code").get_attribute("data-code")
    link = el(a, "#device-link").get_attribute("value")
    assert re.fullmatch(r"[23456789A-HJKMNP-Z]{8}", code) and link == f"{conftest.BASE_URL}/?sign_in={code}"
    assert re.fullmatch(r"Expires in (10:00|9:[0-5]\d)", el(a, "#device-expiry").text)

    # The second profile opens the link: the same name, a token of its own, identified.
    b = browser()
    open_app(b, link[len(conftest.BASE_URL):])
    wait_scene(b, "menu")
    assert el(b, "#player-name").text == name and b.current_url == conftest.BASE_URL + "/"
    second = tokens(b)[name.lower()]
    assert re.fullmatch(r"[0-9a-f]{64}", second) and second != first
    wait(b, lambda d: page_state(d, "s.identified"), 10, "the second device identified")
    # The first profile was on the same name: paused, told why, offered the name back.
    wait(a, lambda d: banner(d) == PAUSED, 10, f"the takeover said (now {banner(a)})")
    snap(a, "screens-device-replaced-en")
    to_lang(a, "zh")
    assert banner(a) == ("replaced", "你的名字正在另一个标签页或另一台设备上使用，此页面已暂停。", "在这里玩")
    to_lang(a, "en")
    el(a, "#conn-retry").click()
    wait(a, lambda d: banner(d) is None and page_state(d, "s.identified"), 10, "the name taken back")
    assert tokens(a) == {name.lower(): first}   # the old device keeps its token
    wait(b, lambda d: banner(d) == PAUSED, 10, "the second device paused in turn")
    # ...and back again: the second device plays a Normal run's first question.
    el(b, "#conn-retry").click()
    wait(b, lambda d: banner(d) is None, 10, "the second device back")
    wait(a, lambda d: banner(d) == PAUSED, 10, "the first device paused again")
    el(b, "#btn-normal").click()
    wait_scene(b, "game")
    room = page_state(b, "s.room.code")
    _, _, _, correct, _ = conftest.answer(b)
    assert correct

    # The code again, in a third profile: refused, said clearly, nothing stored.
    c = browser()
    c.allowed_console = ("/api/sign_in",)   # the refusal is an HTTP error on purpose
    open_app(c, f"/?sign_in={code}")
    wait_scene(c, "onboard")
    wait(c, lambda d: el(d, "#signin-error").text == "This code was already used. Ask your other device for a new one.",
         10, "the refusal")
    assert tokens(c) is None and c.current_url == conftest.BASE_URL + "/"
    # A new code, asked for on the paused first device (its token still counts), typed
    # in lower case with a dash.
    type_new_code(a, c, code)
    # The name was mid-run on the second device: the third one takes the run over.
    wait_scene(c, "game")
    assert page_state(c, "s.room.code") == room and el(c, "#player-name").text == name
    wait(b, lambda d: banner(d) == PAUSED, 10, "the second device paused by the third")
    assert el(c, "#player-name").text == name
    third = tokens(c)[name.lower()]
    assert third not in (first, second)
    wait(c, lambda d: page_state(d, "s.identified"), 10, "the third device identified")


# ---------- keyboard only, reduced motion ----------

def test_a_mindpad_solo_run_played_with_the_keyboard_only(browser):
    drv = browser()
    open_app(drv)
    wait_scene(drv, "onboard")
    name = unique_name("Kb")
    assert drv.execute_script("return document.activeElement.id") == "name-input"
    ActionChains(drv).send_keys(name, Keys.ENTER).perform()
    wait_scene(drv, "menu")
    wait(drv, lambda d: d.find_elements(By.CSS_SELECTOR, "#btn-normal"), 10, "the modes")
    for _ in range(40):
        if drv.execute_script("return document.activeElement.id") == "btn-normal":
            break
        ActionChains(drv).send_keys(Keys.TAB).perform()
    focused = drv.execute_script("const a = document.activeElement; return [a.id, a.matches(':focus-visible'), getComputedStyle(a).outlineStyle]")
    assert focused == ["btn-normal", True, "solid"], focused
    ActionChains(drv).send_keys(Keys.ENTER).perform()
    wait_scene(drv, "game")
    # The pad takes the focus, visibly; the hint says a digit may be typed.
    wait(drv, lambda d: d.execute_script("return document.activeElement.id") == "pad", 5, "the pad focused")
    assert drv.execute_script("const a = document.activeElement; return a.matches(':focus-visible') && getComputedStyle(a).outlineStyle === 'solid'")
    assert el(drv, "#pad-typehint").text == "Or type the digit and press Enter"
    prev = None
    for i in range(10):
        wait(drv, lambda d: current_question(d)[0] not in (None, "", prev) and scene(d) == "game", 10, "a new question")
        qid, text = current_question(drv)
        digit = hidden_digit(text)
        ActionChains(drv).send_keys(str(digit)).perform()
        wait(drv, lambda d: el(d, "#typed-digit").get_attribute("data-digit") == str(digit), 5, "the typed digit")
        if i == 0:
            snap(drv, "screens-keyboard-typed-en")
        ActionChains(drv).send_keys(Keys.ENTER).perform()
        wait(drv, lambda d: scene(d) == "results" or el(d, "#feedback").get_attribute("data-question") == qid, 10, "the grade")
        if scene(drv) == "game":
            assert el(drv, "#feedback").get_attribute("data-correct") == "true", text
        prev = qid
    wait_scene(drv, "results")
    assert el(drv, "#results-correct").text == "10 / 10"


def test_reduced_motion_keeps_the_lanes_still(browser):
    with faked(hostile="Bo") as fake:
        moving = watch(browser, fake, "time_attack")
        assert moving.execute_script("return getComputedStyle(document.querySelector('.lane .fill')).transitionDuration") == "0.3s"
        drv = browser()
        drv.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-reduced-motion", "value": "reduce"}]})
        drv.set_script_timeout(10)
        new_player(drv, "Me", path="/?room=WTCH")
        wait(drv, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#lanes-list .lane")) == 2, 10, "the lanes")
        assert drv.execute_script("return matchMedia('(prefers-reduced-motion: reduce)').matches")
        assert drv.execute_script("return getComputedStyle(document.querySelector('.lane .fill')).transitionDuration") == "0s"
        # The fish page's whale, which bobs, stands still.
        drv.execute_async_script("""const done = arguments[arguments.length - 1];
            import('/js/kinds/addone/fishstart.js').then((m) => { m.showFishStart(); done(); });""")
        assert drv.execute_script("const s = getComputedStyle(document.querySelector('.whale')); return [s.animationDuration, s.animationIterationCount]") \
            == ["0s", "1"]


# ---------- axe on every scene ----------

def show_scene(drv, module, call, name):
    drv.execute_async_script(f"""const done = arguments[arguments.length - 1];
        import('{module}').then((m) => {{ {call}; done(); }});""")
    wait_scene(drv, name)


def start_solo(drv, game, mode, extra="{}"):
    show_scene(drv, "/js/controller.js", f"m.playSolo('{game}', '{mode}', {extra})", "game")
    wait(drv, lambda d: el(d, "#question").get_attribute("data-id"), 10, f"a {game} question")


def test_axe_finds_nothing_serious_on_any_scene(browser):
    drv = browser()
    drv.set_script_timeout(15)
    drv.allowed_console = ("sign_in_codes",)   # the code endpoint comes with the branch replay-api
    open_app(drv)
    wait_scene(drv, "onboard")
    checked = []

    def check(what):
        axe_check(drv, what)
        checked.append(what)

    check("onboarding")
    onboard(drv, unique_name("Axe"))
    wait_scene(drv, "menu")
    wait(drv, lambda d: d.find_elements(By.CSS_SELECTOR, "#btn-normal"), 10, "the modes")
    check("menu")
    el(drv, "#btn-race").click()
    wait_scene(drv, "race")
    check("race")
    el(drv, "#race-create").click()
    wait_scene(drv, "lobby")
    check("lobby")
    el(drv, "#lobby-leave").click()
    wait_scene(drv, "menu")
    show_scene(drv, "/js/scenes/countdown.js", "m.startCountdown(performance.now() + 60000)", "menu")
    check("countdown")
    show_scene(drv, "/js/scenes/countdown.js", "m.hideCountdown()", "menu")
    for game, mode, extra in (("mindpad", "normal", "{}"), ("addone", "time_attack", "{}"),
                              ("path_finder", "normal", "{}"), ("kids_counting", "normal", "{level: 1}")):
        start_solo(drv, game, mode, extra)
        check(f"the game scene of {game}")
        show_scene(drv, "/js/controller.js", "m.leaveToMenu()", "menu")
    # A MindPad Survival run ended by a typed wrong digit: the Results.
    el(drv, "#btn-survival").click()
    wait(drv, lambda d: scene(d) == "game" and el(d, "#question").get_attribute("data-id"), 10, "the question")
    digit = hidden_digit(el(drv, "#question").text)
    ActionChains(drv).send_keys(str((digit + 1) % 10), Keys.ENTER).perform()
    wait_scene(drv, "results")
    check("results")
    for module, call, name in (("/js/scenes/boards.js", "m.showHighscores('mindpad')", "highscores"),
                               ("/js/scenes/boards.js", "m.showLeaderboards('mindpad')", "leaderboards"),
                               ("/js/scenes/device.js", "m.showDevice()", "device"),
                               ("/js/kinds/addone/fishstart.js", "m.showFishStart()", "fish-start"),
                               ("/js/kinds/addone/fishsettings.js", "m.showFishSettings()", "fish-settings"),
                               ("/js/kinds/addone/fishplayers.js", "m.showFishPlayers()", "fish-players"),
                               ("/js/kinds/kids/home.js", "m.showKidsHello()", "kids-hello"),
                               ("/js/kinds/kids/home.js", "m.showKidsGames()", "kids-games"),
                               ("/js/kinds/kids/home.js", "m.showKidsLevels('kids_counting')", "kids-levels"),
                               ("/js/kinds/pathfinder/home.js", "m.showPathHome()", "path-home"),
                               ("/js/kinds/pathfinder/home.js", "m.showPathRounds()", "path-rounds")):
        show_scene(drv, module, call, name)
        wait(drv, lambda d: not d.find_elements(By.CSS_SELECTOR, ".scene:not([hidden]) [role=status]")
             or all(s.text != "Loading…" for s in d.find_elements(By.CSS_SELECTOR, ".scene:not([hidden]) [role=status]")),
             10, f"{name} loaded")
        check(name)
    show_scene(drv, "/js/kinds/addone/fishstart.js", "m.showFishStart()", "fish-start")
    el(drv, "#fish-about").click()
    wait_scene(drv, "fish-about")
    check("fish-about")
    to_lang(drv, "zh")
    show_scene(drv, "/js/controller.js", "m.showMenu()", "menu")
    check("menu in Chinese")
    assert len(checked) == 23, checked
