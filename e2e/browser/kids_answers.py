"""The right option of a kids' prompt (docs/protocol.md, "question"), worked
out from the picture as a child would, so a test can tap it (or a wrong one)."""

GROUPS = {
    **{t: "food" for t in ("apple", "banana", "pear", "strawberry", "carrot")},
    **{t: "animal" for t in ("cat", "dog", "duck", "fish", "rabbit", "bird")},
    **{t: "other" for t in ("ball", "car", "star", "house", "tree", "flower")},
}


def _count(o):
    return o if isinstance(o, int) else o["count"]


def right_value(prompt):
    pic, ask = prompt["picture"], prompt["ask"]
    scene = pic["scene"]
    if scene == "count":
        return str(pic["items"][0]["count"])
    if scene == "compare":
        a, b = (g["count"] for g in pic["groups"])
        more = "a" if a > b else "b"
        return more if ask == "more" else ("b" if more == "a" else "a")
    if scene == "colours":
        return next(o["value"] for o in prompt["options"] if o.get("colour") == pic["colour"])
    if scene == "positions":
        place = ask.split("_", 1)[1]
        return next(i["thing"] for i in pic["items"] if i["place"] == place)
    if scene == "odd_one_out":
        items = pic["items"]
        for i, it in enumerate(items):
            others = [o for j, o in enumerate(items) if j != i]
            if all(GROUPS[o["thing"]] != GROUPS[it["thing"]] for o in others) and \
                    len({GROUPS[o["thing"]] for o in others}) == 1:
                return str(i)
        raise AssertionError(f"no odd one in {items}")
    if scene in ("sum", "take_away", "groups", "share", "numbers"):
        a, b = _count(pic["left"]), _count(pic["right"])
        op = pic.get("op") or {"sum": "add", "take_away": "subtract", "groups": "multiply", "share": "divide"}[scene]
        return str({"add": a + b, "subtract": a - b, "multiply": a * b, "divide": a // b if b else 0}[op])
    raise AssertionError(f"unknown scene {scene}")


def wrong_value(prompt):
    right = right_value(prompt)
    return next(o["value"] for o in prompt["options"] if o["value"] != right)
