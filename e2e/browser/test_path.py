"""The grid path finder (issue 16) in real Chromium against the real server:
the game listed by GET /api/games, a solo round guessed wrong on the keypad
then right by writing rows and columns on the pad, steered with buttons and
keys (a move off the grid bumps the robot and counts nothing), the results
("N steps, best possible N"), the last five rounds from
GET /api/players/{name}/path_rounds and the global board with rank values;
a second round guessed on the keypad; a two-browser race whose lanes show
each racer's distance to the goal. The grid is the server's (seeded): the
test reads it from the page and plans the moves."""
import json
import urllib.request

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.actions.action_builder import ActionBuilder
from selenium.webdriver.common.actions.pointer_input import PointerInput
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from conftest import (BASE_URL, PHONE, el, join_ready, new_player, open_lobby, review_rows, scene, snap, viewport, wait,
                      wait_scene)
from test_fish import draw_number
from test_kids import axe_check
from test_path_client import open_home, rounds_to_leaderboards


def cells_shown(drv):
    wait(drv, lambda d: scene(d) == "game" and d.find_elements(By.CSS_SELECTOR, "#question .path-guess"), 15, "the guess")
    return int(el(drv, "#question .path-guess").get_attribute("data-cells"))


def grids(cells):
    """Every rows × columns in 4…6 with that many cells: the true grid is one of them."""
    return [(r, c) for r in range(4, 7) for c in range(4, 7) if r * c == cells]


def board(drv):
    return drv.find_elements(By.CSS_SELECTOR, "#question .path-board")


def robot(drv):
    return tuple(int(x) for x in el(drv, "#question .path-board").get_attribute("data-robot").split(","))


def goal(drv):
    return tuple(int(x) for x in el(drv, "#question .path-board").get_attribute("data-goal").split(","))


def type_guess(drv, rows, columns):
    for k in f"{rows}{columns}":
        el(drv, f'#keypad button[data-key="{k}"]').click()
    el(drv, "#btn-submit").click()


def wrong_told(drv, tries, text):
    wait(drv, lambda d: el(d, "#feedback").text == f"{text} (tries {tries})", 10, f"wrong guess {tries}: {text}")


def guess_by_keypad(drv, cells, tries=0):
    """Tries each grid with that many cells on the keypad until the grid shows; returns the tries."""
    for rows, columns in grids(cells):
        type_guess(drv, rows, columns)
        wait(drv, lambda d, t=tries: board(d) or "tries {}".format(t + 1) in el(d, "#feedback").text, 10, "the verdict")
        if board(drv):
            return tries
        tries += 1
    raise AssertionError(f"no grid of {cells} cells was accepted")


def steer(drv, via):
    """Moves the robot to the goal, each step by `via(direction)`; waits for the server's update each time."""
    steps = 0
    while True:
        (r, c), (gr, gc) = robot(drv), goal(drv)
        if (r, c) == (gr, gc):
            return steps
        d = "south" if r < gr else "north" if r > gr else "east" if c < gc else "west"
        nr, nc = (r + (d == "south") - (d == "north"), c + (d == "east") - (d == "west"))
        via(d)
        steps += 1
        if (nr, nc) == (gr, gc):
            return steps
        wait(drv, lambda x: robot(x) == (nr, nc), 10, f"the robot at {(nr, nc)}")


def button(drv):
    return lambda d: el(drv, f'#path-controls [data-move="{d}"]').click()


def keys(drv):
    names = {"north": Keys.ARROW_UP, "south": "s", "east": "d", "west": Keys.ARROW_LEFT}
    return lambda d: ActionChains(drv).send_keys(names[d]).perform()


def api(path):
    with urllib.request.urlopen(BASE_URL + path, timeout=10) as r:
        return json.load(r)


def test_solo_rounds_boards(browser):
    assert any(g["id"] == "path_finder" and g["answer_input"] == "move" for g in api("/api/games")["games"])
    drv = browser()
    name = new_player(drv, "Pf")
    wait_scene(drv, "menu")
    open_home(drv)
    el(drv, "#path-generate").click()
    cells = cells_shown(drv)
    assert el(drv, "#question .path-cells").text == f"{cells} cells"

    # Wrong on the keypad (9 × 9 is no grid), then right written on the pad, rows then columns.
    # A wrong guess says what was wrong (issue 45): 9 × 9 is not the number of cells.
    type_guess(drv, 9, 9)
    wrong_told(drv, 1, f"9 × 9 is 81, not {cells}. Try again")
    wait(drv, lambda d: el(d, "#keypad-display").text == "", 5, "a clean keypad")
    tries = 1
    for rows, columns in grids(cells):
        draw_number(drv, f"{rows}{columns}")
        wait(drv, lambda d, w=f"{rows}{columns}": el(d, "#guess").get_attribute("data-number") == w, 10, "the live guess")
        el(drv, "#btn-submit").click()
        wait(drv, lambda d, t=tries: board(d) or f"tries {t + 1}" in el(d, "#feedback").text, 10, "the verdict")
        if board(drv):
            break
        tries += 1
    assert board(drv), "the written grid was accepted"
    b = el(drv, "#question .path-board")
    rows, columns = int(b.get_attribute("data-rows")), int(b.get_attribute("data-columns"))
    assert rows * columns == cells and robot(drv) == (1, 1)
    best = goal(drv)[0] - 1 + goal(drv)[1] - 1
    assert el(drv, "#question .path-status").text == f"Steps 0 · best possible {best} · {best} to go"

    # Off the grid: refused by the server, the robot bumps, nothing counted.
    el(drv, '#path-controls [data-move="north"]').click()
    wait(drv, lambda d: el(d, "#question .path-board").get_attribute("data-bumps") == "1", 10, "the bump")
    assert robot(drv) == (1, 1) and el(drv, "#question .path-status").get_attribute("data-steps") == "0"
    # Two steps with the buttons, the rest with the keys.
    first = [0]

    def mixed(d):
        (button if first[0] < 2 else keys)(drv)(d)
        first[0] += 1
    steps = steer(drv, mixed)
    assert steps == best
    wait_scene(drv, "results", 15)
    assert el(drv, "#results-path").text == f"{best} step{'' if best == 1 else 's'}, best possible {best}"
    rank = el(drv, "#results-rank").text
    assert rank not in ("", "—", "not finished")
    # The review: every guess, the right one last with its drawing; the goal's
    # move ended the run, and a move is no answer: no row says it ended it.
    review = review_rows(drv, "results")
    assert len(review) == tries + 1, review
    assert [r[3][0] for r in review] == ["✗"] * tries + ["✓"], review
    assert review[0][2] == "typed" and review[-1][2].startswith("svg:"), review
    assert review[-1][4] == f"{rows} × {columns}", review
    assert not any("ended the run" in r[1] for r in review), review
    snap(drv, "path-real-10-results")

    # The last five: this round, as the server ranked it.
    el(drv, "#results-rounds").click()
    wait_scene(drv, "path-rounds")
    wait(drv, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#path-rounds-body tr")) == 1, 10, "one round")
    cellstext = [td.text for td in drv.find_elements(By.CSS_SELECTOR, "#path-rounds-body tr td")]
    assert cellstext[:3] == ["1", f"{best} (best {best})", f"{rows} × {columns} ({cells})"]
    assert cellstext[4] == rank
    snap(drv, "path-real-11-rounds")
    axe_check(drv, "the last five rounds (real)")

    # A second round, guessed on the keypad; the last five now has two, best first.
    el(drv, "#path-rounds-again").click()
    cells = cells_shown(drv)
    guess_by_keypad(drv, cells)
    steer(drv, button(drv))
    wait_scene(drv, "results", 15)
    el(drv, "#results-rounds").click()
    wait(drv, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#path-rounds-body tr")) == 2, 10, "two rounds")
    values = api(f"/api/players/{name}/path_rounds")["rounds"]
    assert [r["rank"] for r in values] == [1, 2] and values[0]["rank_value"] <= values[1]["rank_value"]

    # The global board: rank values, lower first, this player on it.
    rounds_to_leaderboards(drv)
    wait(drv, lambda d: any(td.text == name for td in d.find_elements(By.CSS_SELECTOR, "#lb-body td.name")), 10, "me on the board")
    assert el(drv, "#lb-score-h").text == "Rank value (lower is better)"
    mine = drv.find_element(By.CSS_SELECTOR, "#lb-body tr.me").find_elements(By.CSS_SELECTOR, "td")[2].text
    lb = api(f"/api/leaderboard?game=path_finder&mode=normal&period=all&around={name}")
    assert mine == f"{lb['me']['rank_value']:.3f}".rstrip("0").rstrip("."), (mine, lb["me"])
    snap(drv, "path-real-12-leaderboard")
    # Highscores: the best (lowest) rank value, as the board shows it.
    el(drv, "#scene-leaderboards .back").click()
    wait_scene(drv, "menu")
    el(drv, "#btn-highscores").click()
    wait_scene(drv, "highscores")
    wait(drv, lambda d: d.find_elements(By.CSS_SELECTOR, '#hs-body tr[data-mode="normal"]'), 10, "the highscores")
    wait(drv, lambda d: el(d, '#hs-body tr[data-mode="normal"] td').text == mine, 10, "the best rank value")
    # Labelled a rank value, lower first, never a "highest score" (issue 45).
    assert el(drv, "#hs-best-h").text == "Best rank value (lower is better)"
    snap(drv, "path-real-16-highscores")


def test_two_browsers_race(browser):
    ann = browser()
    ann_name = new_player(ann, "Ann")
    wait_scene(ann, "menu")
    open_home(ann)
    el(ann, "#path-home-menu").click()
    wait_scene(ann, "menu")
    open_lobby(ann)
    bo, bo_name = join_ready(browser, ann)
    snap(ann, "path-real-13-lobby")
    el(ann, "#lobby-start").click()
    cells = [cells_shown(d) for d in (ann, bo)]
    assert cells[0] == cells[1], "both racers get the same grid"
    for d in (ann, bo):
        guess_by_keypad(d, cells[0])
    assert goal(ann) == goal(bo)
    best = goal(ann)[0] - 1 + goal(ann)[1] - 1

    def lane_left(d):
        return {e.find_element(By.CSS_SELECTOR, ".name").text: e.find_element(By.CSS_SELECTOR, ".lane-left").get_attribute("data-remaining")
                for e in d.find_elements(By.CSS_SELECTOR, "#lanes-list .lane") if e.find_elements(By.CSS_SELECTOR, ".lane-left")}
    def ann_completed(d):
        return any(e.find_element(By.CSS_SELECTOR, ".name .who").text == ann_name and "completed" in e.get_attribute("class").split()
                   for e in d.find_elements(By.CSS_SELECTOR, "#lanes-list .lane"))
    wait(ann, lambda d: lane_left(d) == {ann_name: str(best), bo_name: str(best)}, 10, "both lanes at the start")
    # Ann takes one step: both browsers see her lane one closer. A goal next
    # to the start (best 1) is reached by that step: her lane then shows her
    # finished, with no distance left to show.
    first = "south" if goal(ann)[0] > 1 else "east"
    el(ann, f'#path-controls [data-move="{first}"]').click()
    after = {ann_name: str(best - 1), bo_name: str(best)}
    for d in (ann, bo):
        wait(d, lambda x: lane_left(x) == after and (best > 1 or ann_completed(x)), 10, "Ann's lane one closer")
    ann_said = "at the flag" if best == 1 else f"{best - 1} to go"
    assert sorted(e.text for e in bo.find_elements(By.CSS_SELECTOR, "#lanes-list .lane-left")) == sorted([ann_said, f"{best} to go"])
    snap(bo, "path-real-14-race")
    axe_check(bo, "the race (real)")
    if best > 1:
        steer(ann, button(ann))
    # Issue 45: Ann at the flag while Bo still steers. Her winning move is drawn (the robot on the
    # flag, not one cell short), and both lanes say she is at the flag: no rank value, no "1 to go".
    wait(ann, lambda d: robot(d) == goal(d), 10, "Ann's robot drawn on the flag")
    assert el(ann, "#question .path-status").get_attribute("data-remaining") == "0"
    for d in (ann, bo):
        wait(d, lambda x: ann_completed(x) and lane_left(x).get(ann_name) == "0", 10, "Ann's lane at the flag")
        texts = {e.find_element(By.CSS_SELECTOR, ".name .who").text: e.find_element(By.CSS_SELECTOR, ".lane-score").text
                 for e in d.find_elements(By.CSS_SELECTOR, "#lanes-list .lane")}
        assert texts == {ann_name: "at the flag", bo_name: f"{best} to go"}, texts
    snap(ann, "path-real-14b-race-at-flag")
    steer(bo, keys(bo))
    for d in (ann, bo):
        wait_scene(d, "standings", 20)
    names = [e.text for e in ann.find_elements(By.CSS_SELECTOR, "#standings-list .standing .name")]
    assert set(names) == {ann_name, bo_name}
    details = [e.text for e in ann.find_elements(By.CSS_SELECTOR, "#standings-list .detail")]
    assert all(f"{best} (best {best})" in x for x in details), details
    snap(ann, "path-real-15-standings")


def test_phone_swipes_on_the_real_server(browser):
    drv = browser()
    viewport(drv, PHONE, True)
    new_player(drv, "Thumb")
    wait_scene(drv, "menu")
    drv.execute_script("import('/js/controller.js').then((app) => app.playSolo('path_finder', 'normal'))")
    guess_by_keypad(drv, cells_shown(drv))
    finger = PointerInput("touch", "finger")

    def swipe(d):
        dx, dy = {"north": (0, -70), "south": (0, 70), "east": (70, 0), "west": (-70, 0)}[d]
        chain = ActionChains(drv, duration=0)
        chain.w3c_actions = ActionBuilder(drv, mouse=finger, duration=0)
        chain.move_to_element(el(drv, "#question .path-board")).click_and_hold().move_by_offset(dx, dy).release().perform()

    def tap(d):
        (r, c) = robot(drv)
        nr, nc = r + (d == "south") - (d == "north"), c + (d == "east") - (d == "west")
        chain = ActionChains(drv, duration=0)
        chain.w3c_actions = ActionBuilder(drv, mouse=finger, duration=0)
        chain.move_to_element(el(drv, f'.path-cell[data-row="{nr}"][data-column="{nc}"]')).click().perform()
    moves = [0]

    def swipe_or_tap(d):
        (swipe if moves[0] % 2 == 0 else tap)(d)
        moves[0] += 1
    best = goal(drv)[0] - 1 + goal(drv)[1] - 1
    assert steer(drv, swipe_or_tap) == best
    wait_scene(drv, "results", 15)
    assert el(drv, "#results-path").text == f"{best} step{'' if best == 1 else 's'}, best possible {best}"
