"""The classroom (issue 46) in real browsers against the real server: a
teacher signs up, makes a class and pastes its list; three pupils (one on a
phone) join the class with its code and the lesson with its room code; the
teacher starts the race on the projector, sees a pupil's handwriting and
what the reader read live on the wall, pauses, takes a pupil out, hides the
names and ends the lesson. axe on every teacher screen; screenshots at
desktop, projector and phone size, in both languages."""
from selenium.webdriver.common.by import By

from conftest import (ARTIFACTS, DESKTOP, PHONE, answer, draw_digit, el, hidden_digit, new_player, scene, snap, unique_name,
                      viewport, wait, wait_scene, BASE_URL, current_question)
from test_kids import axe_check

PROJECTOR = (1920, 1080)


def view(drv):
    return drv.execute_script("return document.body.dataset.view || null")


def wait_view(drv, name, timeout=15):
    wait(drv, lambda d: view(d) == name, timeout, f"teacher view {name}")


def snap_projector(drv, name):
    viewport(drv, PROJECTOR, False)
    drv.save_screenshot(str(ARTIFACTS / f"{name}-projector.png"))
    viewport(drv, DESKTOP, False)
    snap(drv, name)


def snap_zh(drv, name, says):
    """The same screen in Chinese (desktop and phone), then back to English."""
    el(drv, "#lang-switch").click()
    wait(drv, lambda d: says in d.find_element(By.TAG_NAME, "main").text, 5, f"{name} in Chinese")
    snap(drv, f"{name}-zh")
    el(drv, "#lang-switch").click()
    wait(drv, lambda d: says not in d.find_element(By.TAG_NAME, "main").text, 5, f"{name} in English again")


def cards(drv):
    return drv.execute_script("""
      return [...document.querySelectorAll('#wall .pad-card')].map((c) => ({
        player: c.dataset.player, name: c.querySelector('.pad-name').textContent,
        paths: c.querySelectorAll('.pad-drawing path').length, read: c.querySelector('.pad-read').textContent,
        graded: c.querySelector('.pad-graded').textContent, correct: c.querySelector('.pad-graded').dataset.correct}));""")


def accept_confirm(drv):
    wait(drv, lambda d: _alert(d), 5, "the confirmation")
    drv.switch_to.alert.accept()


def _alert(drv):
    try:
        drv.switch_to.alert
        return True
    except Exception:
        return False


def join_class(drv, code, roster_name):
    el(drv, "#btn-race").click()
    wait_scene(drv, "race")
    box = el(drv, "#class-join-code")
    box.clear()
    box.send_keys(code.lower()[:3] + "-" + code.lower()[3:])
    el(drv, "#class-join-go").click()
    wait(drv, lambda d: el(d, "#class-names").is_displayed(), 10, "the class's names")
    button = [b for b in drv.find_elements(By.CSS_SELECTOR, "#class-names-list button") if b.text == roster_name]
    assert button, f"{roster_name} on the list"
    button[0].click()
    wait(drv, lambda d: roster_name in el(d, "#class-join-done").text, 10, "in the class")


def join_lesson(drv, room):
    box = el(drv, "#join-code")
    box.clear()
    box.send_keys(room)
    el(drv, "#join-go").click()
    wait_scene(drv, "lobby")
    wait(drv, lambda d: el(d, "#lobby-lesson-sign").is_displayed(), 10, "the lesson's sign in the lobby")


def test_a_teacher_runs_a_lesson(browser):
    teacher = browser()
    teacher.get(BASE_URL + "/teacher.html")
    wait_view(teacher, "signin")
    axe_check(teacher, "the teacher's sign-in")
    snap(teacher, "40-teacher-signin")
    snap_zh(teacher, "40-teacher-signin", "教师专区")
    name = unique_name("Ms Rao ")
    el(teacher, "#t-name").send_keys(name)
    el(teacher, "#t-password").send_keys("short")
    el(teacher, "#signup-go").click()
    wait(teacher, lambda d: "8" in el(d, "#signin-error").text, 5, "a short password refused")
    el(teacher, "#t-password").clear()
    el(teacher, "#t-password").send_keys("a good passphrase")
    el(teacher, "#signup-go").click()
    wait_view(teacher, "classes")
    assert el(teacher, "#teacher-name").text == name
    el(teacher, "#class-name").send_keys("3B <b>bold</b>")
    el(teacher, "#class-form button[type=submit]").click()
    wait_view(teacher, "class")
    assert el(teacher, "#class-title").text == "3B <b>bold</b>"   # typed text stays text
    code = el(teacher, "#class-code").text
    assert len(code) == 6
    el(teacher, "#roster-names").send_keys("Ann\nBo\nCy")
    el(teacher, "#roster-form button[type=submit]").click()
    wait(teacher, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#pupil-list .pupil-name")) == 3, 10, "three names")
    axe_check(teacher, "the teacher's class")
    snap(teacher, "41-teacher-class")
    snap_zh(teacher, "41-teacher-class", "开始上课")

    # Three pupils join the class with its code; Cy is on a phone.
    pupils = {}
    link = el(teacher, "#class-link").text
    assert link == f"{BASE_URL}/?class={code}"
    for roster in ("Ann", "Bo", "Cy"):
        drv = browser()
        if roster != "Cy":
            new_player(drv, roster)
            wait_scene(drv, "menu")
            join_class(drv, code, roster)
        else:
            # Cy, on a phone, opens the class's link: after his name, straight to the class's list.
            viewport(drv, PHONE, True)
            new_player(drv, roster, path=link[len(BASE_URL):])
            wait_scene(drv, "race", 15)
            wait(drv, lambda d: el(d, "#class-names").is_displayed(), 10, "the class's names from its link")
            [b for b in drv.find_elements(By.CSS_SELECTOR, "#class-names-list button") if b.text == "Cy"][0].click()
            wait(drv, lambda d: "Cy" in el(d, "#class-join-done").text, 10, "Cy in the class")
        pupils[roster] = drv
    snap(pupils["Ann"], "42-pupil-joined-class")
    teacher.refresh()
    wait_view(teacher, "class")
    wait(teacher, lambda d: [e.text for e in d.find_elements(By.CSS_SELECTOR, "#pupil-list .pupil-state")] == ["joined"] * 3,
         10, "every pupil joined")

    # The lesson on the projector.
    el(teacher, "#lesson-game").send_keys("MindPad")
    el(teacher, "#lesson-form button[type=submit]").click()
    wait_view(teacher, "lesson")
    wait(teacher, lambda d: len(el(d, "#lesson-code").text) >= 4, 10, "the room code")
    room = el(teacher, "#lesson-code").text
    for roster, drv in pupils.items():
        if roster != "Bo":
            join_lesson(drv, room)
    # Bo finds the lesson on his menu and joins it with one tap, no code.
    bo = pupils["Bo"]
    el(bo, "#scene-race .back").click()
    wait_scene(bo, "menu")
    wait(bo, lambda d: el(d, "#menu-lessons").is_displayed(), 10, "the class's lesson on Bo's menu")
    assert "3B <b>bold</b> is having a lesson" in el(bo, "#menu-lessons").text
    snap(bo, "42-pupil-lesson-now")
    el(bo, "#menu-lessons-list button").click()
    wait_scene(bo, "lobby")
    assert el(bo, "#lobby-code").text == room
    wait(teacher, lambda d: len(cards(d)) == 3, 10, "three pads on the wall")
    axe_check(teacher, "the lesson's lobby")
    snap_projector(teacher, "43-lesson-lobby")

    el(teacher, "#l-start").click()
    for drv in pupils.values():
        wait_scene(drv, "game", 15)
        wait(drv, lambda d: el(d, "#lesson-sign").is_displayed(), 5, "the sign: the teacher sees the pad")
    ann, ann_card = pupils["Ann"], None
    # Ann writes; the wall shows her strokes and what the reader reads before she submits.
    wait(ann, lambda d: current_question(d)[0] not in (None, ""), 10, "Ann's question")
    qid, text = current_question(ann)
    digit = hidden_digit(text)
    draw_digit(ann, digit)
    wait(teacher, lambda d: any(c["paths"] > 0 and str(digit) in c["read"] for c in cards(d)), 10, "Ann's pad live on the wall")
    snap(pupils["Ann"], "44-pupil-lesson-game")
    el(ann, "#btn-submit").click()
    wait(teacher, lambda d: any(c["correct"] == "true" for c in cards(d)), 10, "Ann's right answer on the wall")
    # Bo writes a wrong digit: the wall shows it wrong.
    answer(pupils["Bo"], wrong=True)
    wait(teacher, lambda d: any(c["correct"] == "false" for c in cards(d)), 10, "Bo's wrong answer on the wall")
    axe_check(teacher, "the wall during the race")
    snap_projector(teacher, "45-lesson-wall")

    # Paused: every pupil sees it; resumed: gone.
    el(teacher, "#l-pause").click()
    for drv in pupils.values():
        wait(drv, lambda d: el(d, "#paused-veil").is_displayed(), 10, "the pause")
    snap(pupils["Cy"], "46-pupil-paused")
    snap_zh(pupils["Cy"], "46-pupil-paused", "老师暂停了比赛")
    el(teacher, "#l-resume").click()
    for drv in pupils.values():
        wait(drv, lambda d: not el(d, "#paused-veil").is_displayed(), 10, "the pause over")

    # Cy is taken out: off the wall, back at the menu, cannot come back.
    cy_card = [c for c in cards(teacher) if c["name"].startswith("Cy")][0]
    teacher.find_element(By.CSS_SELECTOR, f'#wall .pad-card[data-player="{cy_card["player"]}"] .pad-kick').click()
    accept_confirm(teacher)
    wait(teacher, lambda d: len(cards(d)) == 2, 10, "Cy off the wall")
    wait(pupils["Cy"], lambda d: scene(d) != "game", 10, "Cy out of the race")

    # Names hidden on the wall; in Chinese.
    el(teacher, "#l-names").click()
    wait(teacher, lambda d: all(c["name"].startswith("Pupil") for c in cards(d)), 5, "names hidden")
    el(teacher, "#lang-switch").click()
    wait(teacher, lambda d: all(c["name"].startswith("学生") for c in cards(d)), 5, "names hidden, in Chinese")
    axe_check(teacher, "the wall in Chinese")
    snap_projector(teacher, "47-lesson-wall-zh")
    el(teacher, "#lang-switch").click()

    # The end: the pupils are told and go back; the teacher is back at the class.
    el(teacher, "#l-end").click()
    accept_confirm(teacher)
    wait_view(teacher, "class", 15)
    for roster in ("Ann", "Bo"):
        wait(pupils[roster], lambda d: scene(d) not in ("game", "lobby"), 15, f"{roster} out of the ended lesson")

    # The report: a line per pupil, the wrong answer classified; Bo's answers with what he wrote; the CSV.
    el(teacher, "#report-refresh").click()
    wait(teacher, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#report-body tr")) == 2, 10, "two pupils in the report")
    rows = teacher.execute_script(
        "return [...document.querySelectorAll('#report-body tr')].map((tr) => [...tr.cells].map((c) => c.textContent));")
    by_name = {r[0]: r for r in rows}
    assert by_name["Ann"][1] == "1" and by_name["Ann"][2] == "100%", rows
    assert by_name["Bo"][1] == "1" and by_name["Bo"][2] == "0%" and sum(int(x) for x in by_name["Bo"][3:6]) == 1, rows
    [b for b in teacher.find_elements(By.CSS_SELECTOR, "#report-body button") if b.text == "Bo"][0].click()
    wait(teacher, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#report-answers .report-answer")) == 1, 10, "Bo's answer")
    bo_answer = el(teacher, "#report-answers .report-answer")
    assert "wrong" in bo_answer.get_attribute("class")
    assert bo_answer.find_elements(By.CSS_SELECTOR, "svg.drawing path"), "Bo's strokes as a thumbnail"
    assert bo_answer.find_element(By.CSS_SELECTOR, ".report-kind").text in ("Unclear writing", "Too slow", "Wrong arithmetic")
    assert bo_answer.find_element(By.CSS_SELECTOR, "a.report-replay").get_attribute("href").startswith(BASE_URL + "/replay/")
    csv = teacher.execute_async_script("""
      const done = arguments[arguments.length - 1];
      const token = JSON.parse(localStorage.getItem('mindpad.teacher')).token;
      const id = location.hash.split('=')[1];
      fetch('/api/classes/' + id + '/report.csv', {headers: {Authorization: 'Bearer ' + token}}).then((r) => r.text()).then(done);""")
    lines = csv.strip().split("\r\n")
    assert lines[0].startswith("pupil,player,") and len(lines) == 3, lines
    axe_check(teacher, "the class's report")
    snap(teacher, "48-teacher-report")
    el(teacher, "#lang-switch").click()
    wait(teacher, lambda d: "报告" in el(d, "#report-card h2").text, 5, "the report in Chinese")
    snap(teacher, "48-teacher-report-zh")
    el(teacher, "#lang-switch").click()

    # Privacy: the strokes kept one day; Bo's data deleted at once, off the list and out of the report.
    teacher.execute_script("document.getElementById('privacy-days').value = '1';")
    el(teacher, "#privacy-form button[type=submit]").click()
    wait(teacher, lambda d: el(d, "#privacy-done").text != "", 10, "the privacy saved")
    axe_check(teacher, "the class with its privacy")
    snap(teacher, "49-teacher-privacy")
    bo_row = [li for li in teacher.find_elements(By.CSS_SELECTOR, "#pupil-list li")
              if li.find_element(By.CSS_SELECTOR, ".pupil-name").text == "Bo"][0]
    bo_row.find_element(By.CSS_SELECTOR, ".wipe").click()
    accept_confirm(teacher)
    wait(teacher, lambda d: [e.text for e in d.find_elements(By.CSS_SELECTOR, "#pupil-list .pupil-name")] == ["Ann", "Cy"], 10,
         "Bo off the list")
    el(teacher, "#report-refresh").click()
    wait(teacher, lambda d: [r.text.split("\n")[0] for r in d.find_elements(By.CSS_SELECTOR, "#report-body th")] == ["Ann"], 10,
         "only Ann in the report")

    # Work to play at home: Survival, due a day; Ann sees it on her menu, plays it, and it counts.
    teacher.execute_script("""
      const g = document.getElementById('work-game'); g.value = 'mindpad'; g.dispatchEvent(new Event('change'));
      document.getElementById('work-mode').value = 'survival';
      document.getElementById('work-due').value = '2026-12-18';""")
    el(teacher, "#work-form button[type=submit]").click()
    wait(teacher, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#set-work li")) == 1, 10, "the work set")
    assert "0 of 2" in el(teacher, "#set-work li").text
    ann = pupils["Ann"]
    ann.refresh()
    wait_scene(ann, "menu", 20)
    wait(ann, lambda d: el(d, "#menu-work").is_displayed(), 10, "the work on Ann's menu")
    assert "3B <b>bold</b>" in el(ann, "#menu-work-list li").text and "Survival" in el(ann, "#menu-work-list li").text
    axe_check(ann, "the menu with work")
    snap(ann, "50-pupil-work")
    snap_zh(ann, "50-pupil-work", "老师布置的练习")
    el(ann, "#menu-work-list li button").click()
    wait_scene(ann, "game", 15)
    answer(ann, wrong=True)
    wait(ann, lambda d: scene(d) != "game", 20, "the Survival run over")
    el(teacher, "#back-to-classes").click()
    wait_view(teacher, "classes")
    axe_check(teacher, "the teacher's classes")
    snap(teacher, "52-teacher-classes")
    snap_zh(teacher, "52-teacher-classes", "你的班级")
    [b for b in teacher.find_elements(By.CSS_SELECTOR, "#class-list .class-open")][0].click()
    wait_view(teacher, "class")
    wait(teacher, lambda d: "1 of 2" in el(d, "#set-work li").text, 10, "the work played by Ann")
    snap(teacher, "51-teacher-work")
