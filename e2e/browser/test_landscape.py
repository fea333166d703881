"""A phone on its side (844 × 390): in every game the way to answer is on the screen without
scrolling. The pad and Submit sit beside the question. So do Add-One's keypad, the kids' options
and the path finder's board and moves. The clock is on the screen too, and in a race the racers'
lanes come after the question. Each game is played on the real server. Screenshots go to
e2e/artifacts/landscape-*.png."""
from conftest import (ARTIFACTS, DESKTOP, current_question, draw_digit, el, hidden_digit, join_ready, new_player,
                      open_lobby, scene, too_wide, viewport, wait, wait_scene)
from test_fish import create_fish, draw_number, to_fish_start
from kids_answers import right_value
from test_kids import level_buttons, next_question, tap, to_kids, to_levels
from test_path import cells_shown, guess_by_keypad
from test_path_client import open_home

SIDEWAYS = (844, 390)


def sideways(drv, on=True):
    viewport(drv, SIDEWAYS if on else DESKTOP, on)


def on_screen(drv, name, selectors):
    """Every element the selectors find, shown, lies within the sideways phone's screen, with the
    page scrolled to its top; the page is no wider than the screen. A screenshot is kept."""
    sideways(drv)
    drv.execute_script("window.scrollTo(0, 0)")
    drv.save_screenshot(str(ARTIFACTS / f"landscape-{name}.png"))
    out = drv.execute_script("""
      const [sels] = arguments, found = [];
      for (const s of sels) {
        const shown = [...document.querySelectorAll(s)].filter((e) => e.getClientRects().length > 0);
        if (!shown.length) found.push([s, 'not shown']);
        for (const e of shown) {
          const r = e.getBoundingClientRect();
          if (r.top < 0 || r.bottom > innerHeight || r.left < 0 || r.right > innerWidth) found.push([s, Math.round(r.top), Math.round(r.bottom)]);
        }
      }
      return found;""", selectors) + too_wide(drv)
    sideways(drv, False)
    assert not out, f"{name}: off a {SIDEWAYS[0]} × {SIDEWAYS[1]} screen ([what, top, bottom] or [what, width, room]): {out}"


def test_every_game_is_answered_on_a_phone_on_its_side(browser):
    drv = browser()
    new_player(drv, "Side")
    wait_scene(drv, "menu")

    # MindPad: the pad, the guess and the three buttons beside the question.
    el(drv, "#btn-normal").click()
    wait_scene(drv, "game")
    wait(drv, lambda d: current_question(d)[0] not in (None, ""), 10, "the first question")
    sideways(drv)
    draw_digit(drv, hidden_digit(current_question(drv)[1]))
    on_screen(drv, "mindpad", ["#question", "#pad", "#guess", "#btn-undo", "#btn-clear", "#btn-submit", "#clock"])
    el(drv, "#game-quit").click()
    wait_scene(drv, "menu")

    # Add-One: the tank, the digits, the wide pad and the keypad.
    to_fish_start(drv)
    create_fish(drv, "Finn", "betta")
    wait(drv, lambda d: scene(d) == "game" and el(d, "#aquarium").is_displayed(), 10, "the tank")
    el(drv, "#fish-go").click()
    wait(drv, lambda d: el(d, "#pad-area").is_displayed(), 10, "the pad")
    sideways(drv)
    draw_number(drv, "123")
    on_screen(drv, "addone", ["#aquarium", "#question", "#pad", "#keypad .keys button", "#btn-submit", "#clock"])
    el(drv, "#game-quit").click()
    el(drv, "#ask button[value=quit]").click()
    wait_scene(drv, "fish-start")
    el(drv, "#fish-menu").click()
    wait_scene(drv, "menu")

    # The kids' counting at level 2: the picture, the options and the pad.
    to_kids(drv)
    to_levels(drv, "kids_counting")
    level_buttons(drv)[1].click()
    qid, prompt = next_question(drv)
    wait(drv, lambda d: el(d, "#pad").is_displayed(), 5, "the pad")
    on_screen(drv, "kids", ["#question .kid-picture", "#choices .choice", "#pad", "#btn-submit", "#clock"])
    # Once answered, the feedback card has said it (issue 45): the look back gives its room to the
    # picture, and the next question is all on the screen.
    sideways(drv)
    tap(drv, qid, right_value(prompt))
    next_question(drv, qid)
    assert not el(drv, "#recap").is_displayed()
    on_screen(drv, "kids-recap", ["#question .kid-picture", "#choices .choice", "#pad", "#btn-submit", "#clock"])
    el(drv, "#game-quit").click()
    wait_scene(drv, "kids-levels")
    drv.get(drv.current_url)
    wait_scene(drv, "menu")

    # The path finder: the guess on the wide pad, then the board and the moves.
    open_home(drv)
    el(drv, "#path-generate").click()
    cells = cells_shown(drv)
    on_screen(drv, "path-guess", ["#question", "#pad", "#keypad .keys button", "#btn-submit", "#clock"])
    guess_by_keypad(drv, cells)
    wait(drv, lambda d: d.find_elements("css selector", "#question .path-board"), 10, "the grid")
    on_screen(drv, "path-steer", ["#question .path-board", "#path-controls .move", "#clock"])


def test_a_race_sideways_shows_the_question_before_the_lanes(browser):
    """Three racers: on the host's phone turned sideways, the question, the clock, the pad and
    Submit are on the screen, and the racers' lanes come after the question (eight lanes are
    taller than such a screen: before the question, they pushed it below the screen)."""
    ann = browser()
    new_player(ann, "Side")
    wait_scene(ann, "menu")
    open_lobby(ann)
    others = [join_ready(browser, ann, prefix)[0] for prefix in ("Bo", "Cy")]
    el(ann, "#lobby-start").click()
    for d in [ann] + others:
        wait_scene(d, "game", 10)
    wait(ann, lambda d: current_question(d)[0] not in (None, ""), 10, "the first question")
    on_screen(ann, "race", ["#question", "#clock", "#pad", "#btn-submit"])
    sideways(ann)
    question, lanes = (ann.execute_script("return document.querySelector(arguments[0]).getBoundingClientRect()[arguments[1]]",
                                          sel, side) for sel, side in ((".question-area", "bottom"), ("#lanes", "top")))
    sideways(ann, False)
    assert lanes >= question, f"the lanes (top {lanes}) come before the question (bottom {question}) sideways"
