"""Issue 18: a drawing that is not a digit reads as "?" and is not graded."""
from conftest import (answer, assert_no_alert, current_question, draw_shape, el, new_player, snap, wait,
                      wait_scene)
from digits import SCRIBBLE


def test_a_scribble_shows_a_question_mark_and_is_written_again(browser):
    drv = browser()
    new_player(drv, "Scrib")
    wait_scene(drv, "menu")
    el(drv, "#btn-normal").click()
    wait_scene(drv, "game", 15)
    wait(drv, lambda d: current_question(d)[0], 10, "first question")
    qid, _ = current_question(drv)

    draw_shape(drv, SCRIBBLE)
    # The live guess says it cannot tell a digit: "?", no digit, marked unsure.
    wait(drv, lambda d: el(d, "#guess").get_attribute("data-unsure") == "true", 10, "an unsure guess")
    guess = el(drv, "#guess")
    assert guess.text == "?"
    assert guess.get_attribute("data-digit") == ""
    snap(drv, "unsure-01-scribble")

    # Submitting it is refused: the player is asked to write it again, nothing is graded.
    wait(drv, lambda d: el(d, "#btn-submit").is_enabled(), 5, "Submit enabled")
    el(drv, "#btn-submit").click()
    wait(drv, lambda d: el(d, "#toast").is_displayed(), 5, "the write-it-again toast")
    assert "write it again" in el(drv, "#toast").text
    assert el(drv, "#feedback").get_attribute("data-question") != qid
    assert current_question(drv)[0] == qid
    snap(drv, "unsure-02-refused")

    # The same question, written as a digit, is graded.
    wait(drv, lambda d: el(d, "#btn-clear").is_enabled(), 5, "Clear enabled")
    el(drv, "#btn-clear").click()
    got_qid, text, digit, correct, read = answer(drv)
    assert got_qid == qid
    assert correct, f"{text}: drew {digit}, server read {read}"
    assert_no_alert(drv)
