"""A two-browser Time Attack race: room by link, lobby, countdown, lanes,
standings, then the leaderboard showing both players."""
from selenium.webdriver.common.by import By

from conftest import (BASE_URL, answer, el, new_player, onboard, open_app, scene, snap, unique_name,
                      wait, wait_scene)


def member_names(drv):
    return [e.text for e in drv.find_elements(By.CSS_SELECTOR, "#lobby-members .member .name")]


def d_text(d, css):
    return d.find_element(By.CSS_SELECTOR, css).text


def test_two_browser_time_attack_race(browser):
    ann = browser()
    ann_name = new_player(ann, "Ann")
    wait_scene(ann, "menu")
    el(ann, "#btn-race").click()
    wait_scene(ann, "race")
    snap(ann, "09-race-create-join")
    ann.find_element(By.CSS_SELECTOR, "input[name=race-mode][value=time_attack]").find_element(By.XPATH, "..").click()
    el(ann, "#race-create").click()
    wait_scene(ann, "lobby")
    code = el(ann, "#lobby-code").text
    link = el(ann, "#lobby-link").get_attribute("value")
    # The link names the room and its game (issue 45: the first screen of someone new says both).
    assert link.endswith(f"/?room={code}&game=mindpad")
    assert member_names(ann) == [ann_name]
    assert el(ann, "#lobby-start").is_displayed()

    # Bo opens the invite link in another browser: first visit asks the name, then joins.
    bo = browser()
    bo_name = unique_name("Bo")
    open_app(bo, link[len(BASE_URL):])
    onboard(bo, bo_name)
    wait_scene(bo, "lobby")
    assert el(bo, "#lobby-code").text == code
    wait(ann, lambda d: member_names(d) == [ann_name, bo_name], 10, "Bo in Ann's lobby")
    assert not el(bo, "#lobby-start").is_displayed()
    # The host waits for every other racer to be ready, and is told for whom.
    assert not el(ann, "#lobby-start").is_enabled()
    assert bo_name in el(ann, "#lobby-waiting").text
    snap(ann, "10-lobby-waiting")
    # The same in Chinese: the waiting line follows the language at once.
    el(ann, "#lang-switch").click()
    wait(ann, lambda d: bo_name in el(d, "#lobby-waiting").text and "等待" in el(d, "#lobby-waiting").text, 5, "waiting line in Chinese")
    snap(ann, "10-lobby-waiting-zh")
    el(ann, "#lang-switch").click()
    wait(ann, lambda d: "Waiting for" in el(d, "#lobby-waiting").text, 5, "waiting line back in English")
    el(bo, "#lobby-ready").click()
    wait(ann, lambda d: el(d, "#lobby-start").is_enabled(), 10, "Start enabled once Bo is ready")
    assert not el(ann, "#lobby-waiting").is_displayed()
    assert "not ready" not in d_text(ann, "#lobby-members .member:nth-child(2)")
    snap(ann, "10-lobby")

    el(ann, "#lobby-start").click()
    for d in (ann, bo):
        wait(d, lambda d: el(d, "#countdown").is_displayed() or scene(d) == "game", 10, "countdown")
    if el(ann, "#countdown").is_displayed():
        snap(ann, "11-countdown")
    for d in (ann, bo):
        wait_scene(d, "game", 10)
        wait(d, lambda d: el(d, "#question").get_attribute("data-id") == "r1q0", 10, "first question")
    assert el(ann, "#lanes").is_displayed()
    assert el(ann, "#question").text == el(bo, "#question").text   # same questions for everyone

    # Ann answers right; Bo gets his first one wrong, then right.
    a_prev, b_prev, a_right, b_right = None, None, 0, 0
    qid, text, digit, correct, got = answer(ann, a_prev)
    assert correct, f"{text}: drew {digit}, read {got}"
    a_prev, a_right = qid, 1
    qid, text, digit, correct, got = answer(bo, b_prev, wrong=True)
    assert not correct
    b_prev = qid
    qid, text, digit, correct, got = answer(bo, b_prev)
    b_prev, b_right = qid, b_right + (1 if correct else 0)
    qid, text, digit, correct, got = answer(ann, a_prev)
    a_prev, a_right = qid, a_right + (1 if correct else 0)
    # Live lanes show both racers with their scores.
    def lanes(d):
        return {e.find_element(By.CSS_SELECTOR, ".name").text: e.find_element(By.CSS_SELECTOR, ".lane-score").text
                for e in d.find_elements(By.CSS_SELECTOR, "#lanes-list .lane")}
    wait(bo, lambda d: lanes(d) == {ann_name: str(a_right), bo_name: str(b_right)}, 10, "live lanes")
    snap(bo, "12-race-lanes")

    # The race ends on time for everyone: final standings with both players.
    for d in (ann, bo):
        wait_scene(d, "standings", 40)
    rows = [e.text for e in ann.find_elements(By.CSS_SELECTOR, "#standings-list .standing .name")]
    assert rows == [ann_name, bo_name]
    assert ann.find_elements(By.CSS_SELECTOR, "#podium .step.rank-1 .name")[0].text == ann_name
    assert el(ann, "#standings-rematch").is_displayed()
    assert not el(bo, "#standings-rematch").is_displayed()
    snap(ann, "13-standings")

    # Rematch brings both back to the lobby.
    el(ann, "#standings-rematch").click()
    for d in (ann, bo):
        wait_scene(d, "lobby", 10)
    el(bo, "#lobby-leave").click()
    wait_scene(bo, "menu")
    wait(ann, lambda d: member_names(d) == [ann_name], 10, "Bo gone from the lobby")
    el(ann, "#lobby-leave").click()
    wait_scene(ann, "menu")

    # The leaderboard (Time Attack, today) shows both; Ann's row is highlighted.
    el(ann, "#btn-leaderboards").click()
    wait_scene(ann, "leaderboards")
    ann.find_element(By.CSS_SELECTOR, "#lb-modes [data-value=time_attack]").click()
    ann.find_element(By.CSS_SELECTOR, "#lb-periods [data-value=day]").click()

    def board(d):
        return [e.text for e in d.find_elements(By.CSS_SELECTOR, "#lb-body tr td.name")]
    wait(ann, lambda d: ann_name in board(d) and bo_name in board(d), 10, "both players on the leaderboard")
    mine = ann.find_elements(By.CSS_SELECTOR, "#lb-body tr.me td.name")
    assert [e.text for e in mine] == [ann_name]
    assert "Resets in" in el(ann, "#lb-reset").text
    assert "Your rank" in el(ann, "#lb-me").text
    snap(ann, "14-leaderboards")
