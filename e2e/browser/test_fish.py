"""Add-One Fish against the real server and database: the fish pages (create
with a refused name said on the page, the saved fish listed, played again and
deleted after the page's own confirmation), solo Time Attack races in the
tank answered on the keypad and by drawing the whole number, the fish's
reactions (and reduced motion), the aquarium's look from GET /api/weather,
Quit's confirmation, the game-over question, and a two-browser Add-One race.
run.sh starts the server with MINDPAD_WEATHER_PROVIDER=none, so the weather
endpoint answers from the server's clock without the network."""
import json
import re
import urllib.request

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from conftest import (ARTIFACTS, BASE_URL, DESKTOP, PHONE, el, make_driver, new_player, onboard, open_app, review_rows,
                      scene, snap, unique_name, viewport, wait, wait_scene)
from digits import strokes

XSS = "<img src=x onerror=alert(1)>"


def add_one(digits):
    return "".join(str((int(d) + 1) % 10) for d in digits)


def http(path, method="GET", token=None, body=None):
    headers = {"Accept": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    data = None
    if body is not None:
        data = json.dumps(body).encode()
        headers["Content-Type"] = "application/json"
    req = urllib.request.Request(BASE_URL + path, data=data, method=method, headers=headers)
    try:
        with urllib.request.urlopen(req, timeout=10) as res:
            raw = res.read()
            return res.status, (json.loads(raw) if raw else None)
    except urllib.error.HTTPError as e:
        raw = e.read()
        return e.code, (json.loads(raw) if raw else None)


def token_of(drv, name):
    return drv.execute_script("return JSON.parse(localStorage.getItem('mindpad.tokens') || '{}')[arguments[0]]",
                              name.lower())


def my_fish(drv, name):
    status, body = http(f"/api/players/{name}/fish", token=token_of(drv, name))
    assert status == 200, body
    return body["fish"]


def ask_choose(drv, value):
    wait(drv, lambda d: d.execute_script("return document.getElementById('ask').open"), 5, "the dialog")
    el(drv, f'#ask-choices button[value="{value}"]').click()
    wait(drv, lambda d: not d.execute_script("return document.getElementById('ask').open"), 5, "the dialog to close")


def to_fish_start(drv):
    """The menu's Add-One Fish card, picked with the mouse, opens the fish's start page."""
    wait_scene(drv, "menu")
    card = wait(drv, lambda d: d.find_element(By.CSS_SELECTOR, '#menu-games-list input[value="addone"]'), 10,
                "Add-One Fish in the catalog").find_element(By.XPATH, "..")
    card.click()
    wait_scene(drv, "fish-start")


def create_fish(drv, name, kind="goldfish"):
    if scene(drv) != "fish-settings":
        el(drv, "#fish-play").click()
        ask_choose(drv, "new")
        wait_scene(drv, "fish-settings")
    box = el(drv, "#fish-name")
    box.clear()
    box.send_keys(name)
    from selenium.webdriver.support.ui import Select
    Select(el(drv, "#fish-kind")).select_by_value(kind)
    el(drv, "#fish-create").click()


def question(drv, previous=None):
    wait(drv, lambda d: scene(d) == "game" and el(d, "#question").get_attribute("data-id") not in (None, "", previous),
         15, "a new question")
    q = el(drv, "#question")
    return q.get_attribute("data-id"), q.find_element(By.CSS_SELECTOR, ".addone-digits").get_attribute("data-digits")


def graded(drv, qid):
    wait(drv, lambda d: el(d, "#feedback").get_attribute("data-question") == qid, 10, "the grade")
    fb = el(drv, "#feedback")
    return fb.get_attribute("data-correct") == "true", fb.get_attribute("data-answer")


def answer_by_keypad(drv, previous=None):
    qid, digits = question(drv, previous)
    want = add_one(digits)
    for ch in want:
        el(drv, f'#keypad button[data-key="{ch}"]').click()
    assert el(drv, "#keypad-display").text == want
    el(drv, "#btn-submit").click()
    correct, said = graded(drv, qid)
    assert correct and said == want, (digits, said)
    return qid


def slots(drv, text):
    """The pad's width and height as it is now, and where draw_number puts `text`'s digits:
    the slot's width and the first slot's left edge, in CSS px from the pad's left."""
    w, h = drv.execute_script("const r = document.getElementById('pad').getBoundingClientRect(); return [r.width, r.height]")
    slot = min(w / (len(text) + 1), h * 0.6)
    return w, h, slot, (w - slot * len(text)) / 2


def draw_number(drv, text, only=None):
    """Writes `text` left to right on the wide pad, one digit per slot, with real pointer input;
    `only`: the places to write now (slots as the pad is now)."""
    canvas = el(drv, "#pad")
    w, h, slot, left0 = slots(drv, text)
    for i, ch in enumerate(text):
        if only is not None and i not in only:
            continue
        bw, bh = slot * 0.55, h * 0.62
        for stroke in strokes(int(ch), bw, bh, left0 + i * slot + (slot - bw) / 2, (h - bh) / 2):
            chain = ActionChains(drv, duration=0)
            x0, y0 = stroke[0]
            chain.move_to_element_with_offset(canvas, int(x0 - w / 2), int(y0 - h / 2)).click_and_hold()
            prev = (int(x0 - w / 2), int(y0 - h / 2))
            for (x, y) in stroke[1:]:
                p = (int(x - w / 2), int(y - h / 2))
                if p != prev:
                    chain.move_to_element_with_offset(canvas, *p)
                    prev = p
            chain.release()
            chain.perform()


def answer_by_drawing(drv, previous=None, slip=False):
    """Writes the answer and submits it; `slip`: a 4 too many first, taken back
    stroke by stroke (Ctrl+Z, then the Undo button) before submitting."""
    qid, digits = question(drv, previous)
    want = add_one(digits)
    if slip:
        draw_number(drv, want + "4")
        wait(drv, lambda d: el(d, "#guess").get_attribute("data-number") == want + "4", 10, f"the live guess {want}4")
        assert el(drv, "#btn-undo").is_enabled()
        snap(drv, "fish-06-slip-before-undo")
        ActionChains(drv).key_down(Keys.CONTROL).send_keys("z").key_up(Keys.CONTROL).perform()
        el(drv, "#btn-undo").click()
    else:
        draw_number(drv, want)
    wait(drv, lambda d: el(d, "#guess").get_attribute("data-number") == want, 10, f"the live guess {want}")
    # Read in one script: a later guess may redraw the marks between two WebDriver calls.
    marks = drv.execute_script("return [...document.querySelectorAll('#pad-marks .pad-mark')].map(m => m.textContent)")
    assert "".join(marks) == want, "each read digit is shown with its ink"
    el(drv, "#btn-submit").click()
    correct, said = graded(drv, qid)
    assert correct and said == want
    return qid


# [marks outside the pad, the page's overflow in px, the marks' digits, each mark's centre from the pad's left]
MARKS = """
const pad = document.getElementById('pad').getBoundingClientRect();
const marks = [...document.querySelectorAll('#pad-marks .pad-mark')];
const rects = marks.map((m) => m.getBoundingClientRect());
const out = rects.filter((r) => r.left < pad.left - 0.5 || r.right > pad.right + 0.5 || r.top < pad.top - 0.5
  || r.bottom > pad.bottom + 0.5);
return [out.length, document.documentElement.scrollWidth - document.documentElement.clientWidth,
  marks.map((m) => m.textContent).join(''), rects.map((r) => (r.left + r.right) / 2 - pad.left)];
"""


def marks_under_ink(drv, want, centres, tolerance):
    """The marks read `want`, inside the pad (the page no wider), each within `tolerance` px of
    the centre of the ink it reads."""
    outside, overflow, text, at = drv.execute_script(MARKS)
    return (outside, overflow, text) == (0, 0, want) and all(abs(a - c) <= tolerance for a, c in zip(at, centres))


def answer_turning_the_phone(drv, previous):
    """Half the answer written on the desktop-sized pad, the rest after the pad shrank to a
    phone's (a phone turned, a window narrowed): one drawing at one scale for the server, the
    ink shown scaled to fit, the read digits marked inside the pad, the page no wider."""
    qid, digits = question(drv, previous)
    want = add_one(digits)
    half = len(want) // 2
    wd, hd, slot_d, left_d = slots(drv, want)
    draw_number(drv, want, only=range(half))
    viewport(drv, PHONE, True)
    try:
        wait(drv, lambda d: d.execute_script("return document.getElementById('pad').getBoundingClientRect().width") < 400,
             5, "the pad at a phone's width")
        wp, hp, slot_p, left_p = slots(drv, want)
        draw_number(drv, want, only=range(half, len(want)))
        wait(drv, lambda d: el(d, "#guess").get_attribute("data-number") == want, 10, f"the live guess {want}")
        # Each digit marked under its ink: the half written before, shown scaled to
        # the smaller pad, and the half written after, where it was written.
        s = min(wp / wd, hp / hd)
        centres = [(left_d + (i + 0.5) * slot_d) * s if i < half else left_p + (i + 0.5) * slot_p for i in range(len(want))]
        assert marks_under_ink(drv, want, centres, 0.3 * slot_p), (drv.execute_script(MARKS), centres)
        drv.save_screenshot(str(ARTIFACTS / "fish-08-turned-phone.png"))
    finally:
        viewport(drv, DESKTOP, False)
    # Back at the desktop's size, the marks follow the ink again.
    centres = [c / s for c in centres]
    wait(drv, lambda d: marks_under_ink(d, want, centres, 0.3 * slot_d), 5, "the marks at the desktop's size")
    el(drv, "#btn-submit").click()
    correct, said = graded(drv, qid)
    assert correct and said == want
    return qid


A11Y = """
const shown = (e) => e.offsetParent !== null || e.closest('dialog[open]');
const root = document.querySelector('dialog[open]') || document.querySelector('.scene:not([hidden])');
const bad = [];
for (const b of root.querySelectorAll('button')) {
  if (!shown(b)) continue;
  const name = (b.getAttribute('aria-label') || b.textContent).trim();
  const r = b.getBoundingClientRect();
  if (!name) bad.push('unnamed button ' + b.outerHTML.slice(0, 80));
  if (r.height < 40 || r.width < 44) bad.push('small target ' + name + ' ' + r.width + 'x' + r.height);
}
for (const i of root.querySelectorAll('img')) if (shown(i) && !i.hasAttribute('alt')) bad.push('img without alt ' + i.src);
for (const i of root.querySelectorAll('input, select')) {
  if (!shown(i) || i.type === 'radio') continue;
  if (!(i.labels && i.labels.length) && !i.getAttribute('aria-label')) bad.push('unlabelled ' + i.id);
}
if (root.tagName === 'DIALOG' && !document.getElementById(root.getAttribute('aria-labelledby'))?.textContent) bad.push('unnamed dialog');
return bad;
"""


def check_a11y(drv):
    """What an axe run would flag first, on the scene or dialog shown: unnamed or tiny buttons,
    pictures without alt, unlabelled fields, an unnamed dialog."""
    bad = drv.execute_script(A11Y)
    assert bad == [], bad


def animation(drv):
    return drv.execute_script("return getComputedStyle(document.getElementById('fish-swimmer')).animationName")


def test_create_a_fish_bad_name_refused_then_played_listed_and_deleted(browser):
    drv = browser()
    player = new_player(drv, "Fi")
    to_fish_start(drv)
    snap(drv, "fish-01-start")
    check_a11y(drv)
    el(drv, "#fish-about").click()
    wait_scene(drv, "fish-about")
    assert "3240" in el(drv, "#scene-fish-about").text
    check_a11y(drv)
    el(drv, "#scene-fish-about .fish-home").click()
    wait_scene(drv, "fish-start")

    # A name the player-name rules refuse: said on the page, as text, nothing saved.
    drv.allowed_console = [f"/api/players/{player}/fish - Failed to load resource: the server responded with a status of 400"]
    create_fish(drv, XSS)
    wait(drv, lambda d: XSS in el(d, "#fish-form-error").text, 10, "the refusal")
    assert el(drv, "#fish-form-error").is_displayed()
    assert el(drv, "#fish-name").get_attribute("aria-invalid") == "true"
    assert not drv.find_elements(By.CSS_SELECTOR, "#scene-fish-settings img:not(#fish-preview)")
    assert scene(drv) == "fish-settings" and my_fish(drv, player) == []

    # The picture follows the kind.
    from selenium.webdriver.support.ui import Select
    pics = []
    for kind in ("clownfish", "pufferfish", "betta", "angelfish", "goldfish"):
        Select(el(drv, "#fish-kind")).select_by_value(kind)
        pics.append(el(drv, "#fish-preview").get_attribute("src").rsplit("/", 1)[-1])
    assert pics == ["clownfish.svg", "pufferfish.svg", "betta.svg", "angelfish.svg", "goldfish.svg"]
    snap(drv, "fish-02-settings")
    check_a11y(drv)

    create_fish(drv, "Bubbles", "pufferfish")
    wait(drv, lambda d: scene(d) == "game" and el(d, "#aquarium").is_displayed(), 10, "the tank")
    assert el(drv, "#aq-name").text == "Bubbles"
    assert el(drv, "#fish-img").get_attribute("src").endswith("/img/fish/pufferfish.svg")
    assert el(drv, "#fish-go").is_displayed()
    # In Chinese the tank's texts follow at once, and no stale question appears.
    el(drv, "#lang-switch").click()
    wait(drv, lambda d: el(d, "#game-mode").text == "计时模式" and el(d, "#fish-go").text == "开始", 5, "the tank in Chinese")
    assert el(drv, "#question").text == "" and el(drv, "#aq-name").text == "Bubbles"
    el(drv, "#lang-switch").click()
    wait(drv, lambda d: el(d, "#game-mode").text == "Time Attack", 5, "the tank in English")
    # Quit before starting still asks; Back to the start page.
    el(drv, "#game-quit").click()
    ask_choose(drv, "quit")
    wait_scene(drv, "fish-start")

    # A second fish through the API, then the Players page lists both, oldest first.
    status, second = http(f"/api/players/{player}/fish", "POST", token_of(drv, player), {"name": "Nemo 2", "kind": "clownfish"})
    assert status == 201, second
    el(drv, "#fish-play").click()
    ask_choose(drv, "players")
    wait_scene(drv, "fish-players")
    wait(drv, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#fish-list .fish-row")) == 2, 10, "two fish")
    names = [e.text for e in drv.find_elements(By.CSS_SELECTOR, "#fish-list .fish-name")]
    assert names == ["Bubbles", "Nemo 2"]
    assert "0" in el(drv, "#fish-list .fish-row .fish-best").text
    snap(drv, "fish-03-players")
    check_a11y(drv)

    # Delete asks first; Cancel keeps the fish.
    el(drv, f'#fish-list .fish-row[data-id="{second["id"]}"] .fish-delete').click()
    wait(drv, lambda d: "Nemo 2" in el(d, "#ask-title").text, 5, "the delete question")
    snap(drv, "fish-04-delete-confirm")
    check_a11y(drv)
    ask_choose(drv, "cancel")
    assert len(my_fish(drv, player)) == 2
    el(drv, f'#fish-list .fish-row[data-id="{second["id"]}"] .fish-delete').click()
    ask_choose(drv, "yes")
    wait(drv, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#fish-list .fish-row")) == 1, 10, "one fish left")
    assert [f["name"] for f in my_fish(drv, player)] == ["Bubbles"]
    assert "Nemo 2" in el(drv, "#fish-players-status").text

    # Tap the saved fish: its tank again.
    el(drv, "#fish-list .fish-pick").click()
    wait(drv, lambda d: scene(d) == "game" and el(d, "#aq-name").text == "Bubbles", 10, "Bubbles' tank")


def test_solo_race_by_keypad_and_drawing_with_reactions_weather_and_the_end(browser):
    drv = browser()
    player = new_player(drv, "Swim")
    status, weather = http("/api/weather")
    assert status == 200 and weather["look"] in ("sunny", "cloudy", "rain", "snow", "night")
    to_fish_start(drv)
    create_fish(drv, "Finn", "betta")
    wait(drv, lambda d: scene(d) == "game" and el(d, "#aquarium").is_displayed(), 10, "the tank")
    # The look the server says, once it answers.
    wait(drv, lambda d: el(d, "#aquarium").get_attribute("data-look-source") == "weather", 10, "the weather look")
    assert el(drv, "#aquarium").get_attribute("data-look") == weather["look"]
    sky = drv.execute_script("return getComputedStyle(document.querySelector('#aquarium .aq-sky')).backgroundImage")
    assert f"/img/aquarium/{weather['look']}.svg" in sky
    assert not el(drv, "#pad-area").is_displayed(), "no digits before Start"

    # A swipe on the fish turns it around; a tap turns it back.
    fish = el(drv, "#fish-swimmer")
    ActionChains(drv).move_to_element(fish).click_and_hold().move_by_offset(60, 0).release().perform()
    wait(drv, lambda d: el(d, "#fish-swimmer").get_attribute("data-flipped") == "true", 5, "the swipe to flip")
    el(drv, "#fish-swimmer").click()
    assert el(drv, "#fish-swimmer").get_attribute("data-flipped") == "false"

    el(drv, "#fish-go").click()
    wait(drv, lambda d: not el(d, "#fish-go").is_displayed(), 5, "Start to fade away")
    # At 1280×800 the whole answer is on the screen: pad, keypad and its one Submit (issue 45).
    wait(drv, lambda d: el(d, "#question").get_attribute("data-id"), 10, "the first question")
    bottom = drv.execute_script("return document.getElementById('btn-submit').getBoundingClientRect().bottom")
    assert bottom <= 800 and drv.execute_script("return scrollY") == 0, bottom
    prev = None
    for n in range(1, 4):
        prev = answer_by_keypad(drv, prev)
        assert el(drv, "#game-score").text == str(n)
        if n < 3:
            assert el(drv, "#fish-swimmer").get_attribute("data-react") == ""
    wait(drv, lambda d: el(d, "#fish-swimmer").get_attribute("data-react") == "swim", 5, "the fish to swim at 3")
    assert animation(drv) == "fish-swim"
    snap(drv, "fish-05-tank-swim")
    check_a11y(drv)
    prev = answer_by_drawing(drv, prev, slip=True)
    snap(drv, "fish-06-drawn-number")
    for _ in range(2):
        prev = answer_by_keypad(drv, prev)
    wait(drv, lambda d: el(d, "#fish-swimmer").get_attribute("data-react") == "jump", 5, "the fish to jump at 6")
    assert animation(drv) == "fish-jump"

    # Quit asks; staying keeps the race.
    el(drv, "#game-quit").click()
    ask_choose(drv, "stay")
    assert scene(drv) == "game"

    # Time runs out: the score, the fish's best, Play again or Back.
    wait(drv, lambda d: d.execute_script("return document.getElementById('ask').open"), 40, "the game over")
    body = el(drv, "#ask-body").text
    assert "Finn" in body and "6" in body, body
    # The run's review under the choices: six right answers, the fourth written.
    review = review_rows(drv, "fish-over")
    assert len(review) == 6 and all(r[3].startswith("✓") for r in review), review
    assert [r[2][:4] for r in review] == ["type"] * 3 + ["svg:"] + ["type"] * 2, review
    assert not any("ended the run" in r[1] for r in review), review
    # Each question shows its digits alone; the words are there for screen readers.
    cells = drv.execute_script("""return [...document.querySelectorAll('#fish-over-review td.prompt')]
      .map((td) => [td.querySelector('[aria-hidden=true]').textContent, td.querySelector('.sr-only').textContent])""")
    assert len(cells) == 6 and all(re.fullmatch(r"[0-9]{2,6}", shown) and words == f"Add one to each digit: {shown}"
                                   for shown, words in cells), cells
    snap(drv, "fish-07-game-over")   # at phone size too: the table fits the dialog (conftest.snap)
    check_a11y(drv)
    assert [f["best_score"] for f in my_fish(drv, player)] == [6] or my_fish(drv, player)[0]["best_score"] >= 6
    ask_choose(drv, "again")
    wait(drv, lambda d: el(d, "#fish-swimmer").get_attribute("data-react") == "", 5, "the fish back at rest")
    assert el(drv, "#game-score").text == "0"
    answer_by_keypad(drv, None)
    el(drv, "#game-quit").click()
    ask_choose(drv, "quit")
    wait_scene(drv, "fish-start")


def test_reduced_motion_keeps_the_fish_still(browser):
    drv = browser()
    drv.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-reduced-motion", "value": "reduce"}]})
    new_player(drv, "Calm")
    to_fish_start(drv)
    create_fish(drv, "Still", "angelfish")
    wait(drv, lambda d: scene(d) == "game" and el(d, "#fish-go").is_displayed(), 10, "the tank")
    el(drv, "#fish-go").click()
    assert not el(drv, "#fish-go").is_displayed(), "Start goes at once, without fading"
    prev = None
    for _ in range(3):
        prev = answer_by_keypad(drv, prev)
    wait(drv, lambda d: el(d, "#fish-swimmer").get_attribute("data-react") == "swim", 5, "the swim state")
    assert animation(drv) == "none"
    assert drv.execute_script("return getComputedStyle(document.querySelector('.aq-bubbles i')).animationName") == "none"
    el(drv, "#game-quit").click()
    ask_choose(drv, "quit")
    wait_scene(drv, "fish-start")


def test_two_browser_addone_race(browser):
    ann = browser()
    ann_name = new_player(ann, "Ann")
    to_fish_start(ann)
    el(ann, "#fish-menu").click()
    wait_scene(ann, "menu")
    assert ann.find_element(By.CSS_SELECTOR, '#menu-games-list input[value="addone"]').is_selected()
    # The chosen game's own pages stay one button away.
    el(ann, "#btn-home").click()
    wait_scene(ann, "fish-start")
    el(ann, "#fish-menu").click()
    wait_scene(ann, "menu")
    el(ann, "#btn-race").click()
    wait_scene(ann, "race")
    ann.find_element(By.CSS_SELECTOR, "input[name=race-mode][value=time_attack]").find_element(By.XPATH, "..").click()
    el(ann, "#race-create").click()
    wait_scene(ann, "lobby")
    link = el(ann, "#lobby-link").get_attribute("value")
    assert "Add-One Fish" in el(ann, "#lobby-mode").text

    bo = browser()
    bo_name = unique_name("Bo")
    open_app(bo, link[len(BASE_URL):])
    onboard(bo, bo_name)
    wait_scene(bo, "lobby")
    el(bo, "#lobby-ready").click()
    wait(ann, lambda d: el(d, "#lobby-start").is_enabled(), 10, "Bo ready")
    el(ann, "#lobby-start").click()
    prev = {ann_name: None, bo_name: None}
    for d, n in ((ann, ann_name), (bo, bo_name)):
        wait_scene(d, "game", 15)
        assert el(d, "#keypad").is_displayed() and not el(d, "#aquarium").is_displayed()
    prev[ann_name] = answer_by_keypad(ann)
    prev[bo_name] = answer_by_keypad(bo)
    prev[bo_name] = answer_by_keypad(bo, prev[bo_name])
    prev[bo_name] = answer_turning_the_phone(bo, prev[bo_name])
    snap(bo, "fish-08-race-game")
    check_a11y(bo)
    for d in (ann, bo):
        wait_scene(d, "standings", 40)
    rows = [e.text for e in ann.find_elements(By.CSS_SELECTOR, "#standings-list .standing .name")]
    assert rows == [bo_name, ann_name]
    snap(ann, "fish-09-race-standings")
