#!/usr/bin/env python3
"""Writes docs/benchmarks.md from the results of scripts/bench.sh.

usage: render.py RESULTS_DIR OUTPUT.md

Every figure comes from RESULTS_DIR (one run); the analysis paragraphs in
tools/loadgen/analysis.md are included as written, after the figures.
"""
import glob
import json
import os
import re
import sys

loops_only = sys.argv[1] == "--loops-only"
if loops_only:
    res, dest = sys.argv[2], None
else:
    res, dest = sys.argv[1], sys.argv[2]
here = os.path.dirname(os.path.abspath(__file__))


def load(name):
    p = os.path.join(res, name)
    if not os.path.exists(p):
        return None
    with open(p) as f:
        return json.load(f)


def text(name):
    p = os.path.join(res, name)
    return open(p).read() if os.path.exists(p) else ""


machine = dict(line.split("=", 1) for line in text("machine.txt").splitlines() if "=" in line)
facts = machine   # kept: `machine` is reused for the profile's text below
quick = machine.get("quick") == "1"
L = []
w = L.append


def mark(ok):
    return "met" if ok else "**missed**"


def ms(x):
    return "–" if x is None else f"{x:.2f}"


def cpu_per_msg(d):
    """Server CPU µs per message it received in the window (≈ what the client sent)."""
    return d["server_cpu_percent"] / 100 * d["window_s"] / max(1, d["window_sent"]) * 1e6


def failures(d):
    return d["lost_guesses"] + d["lost_grades"], sum(d["errors_by_code"].values()) + d["connect_errors"] + d["unexpected_closes"]


def loops_section():
    """The event loops side by side (loops/<loop>/{echo,race}-N.json), one run."""
    loops = sorted(os.path.basename(p) for p in glob.glob(os.path.join(res, "loops", "*")) if os.path.isdir(p))
    if not loops:
        return []
    out = []
    o = out.append
    sizes = sorted({int(re.search(r"(\d+)", os.path.basename(p)).group(1))
                    for lp in loops for p in glob.glob(os.path.join(res, "loops", lp, "race-*.json"))})
    o(f"The server and the lws echo on each event loop (`MINDPAD_EVENT_LOOP`), the same racers, the")
    o(f"load generator on `{machine.get('loadgen_loop', '?')}` throughout; at each size one loop after the other")
    o(f"({machine.get('loops_order', 'poll libuv')}) in this run. CPU per message: the process's CPU time over the window per message it received.")
    o("")
    o("| racers | loop | server | stroke→guess p50 / p99 ms | unthrottled p50 / p99 ms | submit→grade p50 / p99 ms | lost | errors | CPU | CPU µs per message | mindpad ÷ echo, CPU per message |")
    o("|---:|---|---|---|---|---|---:|---:|---:|---:|---:|")
    for n in sizes:
        for lp in loops:
            e = load(os.path.join("loops", lp, f"echo-{n}.json"))
            r = load(os.path.join("loops", lp, f"race-{n}.json"))
            for kind, d in [("lws echo", e), ("mindpad", r)]:
                if not d:
                    continue
                sg, sgo, gr = d["stroke_to_guess"], d.get("stroke_to_guess_unthrottled", {}), d["submit_to_grade"]
                lost, errs = failures(d)
                unthr = f"{ms(sgo.get('p50_ms'))} / {ms(sgo.get('p99_ms'))}" if kind == "mindpad" else "(every echo)"
                ratio = f"{cpu_per_msg(r) / cpu_per_msg(e):.2f}×" if kind == "mindpad" and e and cpu_per_msg(e) > 0 else ""
                o(f"| {d['racers']:,} of {n:,} | {lp} | {kind} | {ms(sg.get('p50_ms'))} / {ms(sg.get('p99_ms'))} | {unthr} | "
                  f"{ms(gr.get('p50_ms'))} / {ms(gr.get('p99_ms'))} | {lost} | {errs} | {d['server_cpu_percent']:.0f}% | "
                  f"{cpu_per_msg(d):.0f} | {ratio} |")
    o("")
    if "poll" in loops and len(loops) > 1:
        o("libuv against poll, same size, same run (below 1 = libuv lower):")
        o("")
        o("| racers | server | submit→grade p99 | unthrottled stroke→guess p99 | CPU per message |")
        o("|---:|---|---:|---:|---:|")
        for n in sizes:
            for kind, f in [("mindpad", "race"), ("lws echo", "echo")]:
                a = load(os.path.join("loops", "poll", f"{f}-{n}.json"))
                b = load(os.path.join("loops", "libuv", f"{f}-{n}.json"))
                if not a or not b:
                    continue

                def rr(x, y):
                    return f"{y / x:.2f}×" if x and y else "–"
                key = "stroke_to_guess_unthrottled" if f == "race" else "stroke_to_guess"
                o(f"| {n:,} | {kind} | {rr(a['submit_to_grade'].get('p99_ms'), b['submit_to_grade'].get('p99_ms'))} | "
                  f"{rr(a.get(key, {}).get('p99_ms'), b.get(key, {}).get('p99_ms'))} | {rr(cpu_per_msg(a), cpu_per_msg(b))} |")
        o("")
    return out


if loops_only:
    print(f"load before {machine.get('load_before')}, after {machine.get('load_after')}")
    print("\n".join(loops_section()))
    sys.exit(0)


w("# Benchmarks")
w("")
w("Written by `make bench` (`scripts/bench.sh`); do not edit by hand: the figures below are")
w("from one run, every comparison measured side by side in that run.")
if quick:
    w("")
    w("> **This is a scaled-down run (`BENCH_QUICK=1`)**: fewer racers, fewer players, shorter windows.")
    w("> The figures show the method works; they are not the issue's scenarios.")
w("")
w("| | |")
w("|---|---|")
for k in ["date", "cpu", "cores", "memory", "os", "kernel", "swift", "lws", "postgres", "journal_fs", "load_before", "load_after"]:
    if k in machine:
        w(f"| {k.replace('_', ' ')} | {machine[k]} |")
w("")
w("The load generator, the server, PostgreSQL and (in this workplace) other engineers' builds")
w("share the same 2 cores: `load before/after` is the 1/5/15-minute load average around the run.")
w("")
w("Reproduce: `make bench` (after `make test`'s bootstrap). Stages: `swift build -c release`,")
w("`tools/loadgen` (`swift build -c release`), `gcc tools/loadgen/echo/lws-echo.c`,")
w("`tools/train/evaluate.py`, `tools/train/number_reading.py --bench`, `loadgen --mode echo|race|idle …`, `storagebench …`, this renderer.")
w("")

# ---------------------------------------------------------------- recognition
w("## Recognition")
w("")
log = text("recognition.log")
timing = re.search(r"Timing, one core.*?(?=\n\n|\Z)", log, re.S)
if timing:
    w("`tools/train/evaluate.py` (Swift `recog-bench` and ONNX Runtime on the same rasterized images,")
    w("one thread, pinned to one core, batch 1):")
    w("")
    w("```")
    w(timing.group(0).strip())
    w("```")
    agree = re.search(r"ONNX Runtime agrees with Swift on \d+/\d+ stroke drawings", log)
    if agree:
        w("")
        w(agree.group(0) + ".")
else:
    w("The recognition stage did not produce its timing (see the run's `recognition.log`).")
w("")


def log_section(pattern, log, intro, fenced, missing=None):
    """A log's block matching `pattern`, after `intro` (lines); `missing` when
    the log has none (nothing when None)."""
    found = re.search(pattern, text(log), re.S)
    if not found:
        if missing:
            w(missing)
            w("")
        return
    for line in intro:
        w(line)
    w("")
    fence = ["```"] if fenced else []
    for line in fence + [found.group(0).strip()] + fence + [""]:
        w(line)


log_section(r"Number reading, one core.*?(?=\n\n|\Z)", "numbers.log",
            ["`tools/train/number_reading.py --bench` (`recog-bench --numbers`: `Recognizer.readNumber`, segmenting a",
             "handwritten 6-digit number and reading each digit, pinned to one core; target ≤ 300 µs median):"],
            fenced=True, missing="The number reading stage did not produce its timing (see the run's `numbers.log`).")
log_section(r"One reading of drawings that are no handwriting.*?(?=\Z)", "numbers-worst.log",
            ["`tools/train/number_reading.py --worst`: what one number reading may cost, drawings within the input",
             "limits that are no handwriting, with the work limit (`NumberReadingTuning.workLimit`) and without it",
             "(docs/recognition.md, \"Numbers\"):"],
            fenced=False)

# ---------------------------------------------------------------- realtime
w("## Realtime")
w("")
w("`tools/loadgen`: racers on the libwebsockets client API (one service thread), rooms of 8,")
w("Time Attack. Each racer draws a digit every ~3 s as 12 batches of 5 points, 50 ms apart,")
w("waits for the live guess that covers all its points, submits, and reads `graded`, the next")
w("`question` and the room's progress broadcasts. Latencies are HdrHistogram (µs resolution):")
w("")
w("- **stroke→guess**: from a batch leaving the client to the first `guess` covering it (the newest")
w("  batch a guess covers; older ones it also covers were coalesced). The protocol allows one live")
w("  guess per player per 100 ms, so with a batch every 50 ms about every other batch waits for that")
w("  window: this figure includes the protocol's own pacing.")
w("- **stroke→guess, unthrottled**: the same, for batches sent ≥ 100 ms after the racer's previous")
w("  guess arrived, when the pacing cannot have held the guess back: the server's own latency.")
w("- **submit→grade**: from `submit` leaving the client to `graded`.")
w("")
w("The **transport ceiling** runs the same racers, messages and schedule against `lws-echo`, a")
w("minimal echo on the same libwebsockets build (one service thread): each echoed batch plays the")
w("guess and each echoed submit the grade. Each scenario measures a window after every racer is")
w("in a running race (warm-up 3 s); messages in flight at the window's end are not counted lost.")
w("")
loop_lines = loops_section()
if loop_lines:
    w("### Event loops side by side (issue 20)")
    w("")
    L.extend(loop_lines)
w("### Growth: racers")
w("")
w(f"On the default loop (`{machine.get('server_loop') or 'poll'}`), each size first against the lws echo, then mindpad; sizes")
w("past 5,000 only while the p99 of the size before stayed within 50 ms.")
w("")
sizes = sorted({int(re.search(r"(\d+)", os.path.basename(p)).group(1)) for p in glob.glob(os.path.join(res, "race-*.json"))})
rows = []
w("| racers | server | window | stroke→guess p50 / p99 ms | unthrottled p50 / p99 ms | submit→grade p50 / p99 ms | msgs sent / received | lost | errors | server CPU | server RSS max |")
w("|---:|---|---:|---|---|---|---|---:|---:|---:|---:|")
for n in sizes:
    for kind in ["echo", "race"]:
        d = load(f"{kind}-{n}.json")
        if not d:
            continue
        sg, sgo, gr = d["stroke_to_guess"], d.get("stroke_to_guess_unthrottled", {}), d["submit_to_grade"]
        lost = d["lost_guesses"] + d["lost_grades"]
        errs = sum(d["errors_by_code"].values()) + d["connect_errors"] + d["unexpected_closes"]
        name = "lws echo (ceiling)" if kind == "echo" else "mindpad"
        unthr = f"{ms(sgo.get('p50_ms'))} / {ms(sgo.get('p99_ms'))}" if kind == "race" else "(every echo)"
        w(f"| {d['racers']:,} of {n:,} | {name} | {d['window_s']} s | {ms(sg.get('p50_ms'))} / {ms(sg.get('p99_ms'))} | {unthr} | "
          f"{ms(gr.get('p50_ms'))} / {ms(gr.get('p99_ms'))} | {d['window_sent']:,} / {d['window_received']:,} | {lost} | {errs} | "
          f"{d['server_cpu_percent']:.0f}% | {d['server_rss_max_kb'] / 1024:.1f} MB |")
w("")
w("CPU is the server process's user+system time over the window (100% = one core of two).")
w("")
# Who had the cores: each server thread's share of one core, and the load generator's.
threaded = [(n, d) for n in sizes for d in [load(f"race-{n}.json")] if d and d.get("server_threads_cpu_percent")]
if threaded:
    w("Where the cores went over the window (`/proc/<pid>/task/*/stat`; 100% = one whole core, 200% = the machine):")
    w("")
    w("| racers | service thread (`mindpad-lws`) | recognition (`mindpad-recog-*`) | other server threads | load generator | anything else (PostgreSQL, other jobs) | waited for a core: service thread / load generator |")
    w("|---:|---:|---:|---:|---:|---:|---:|")
    for n, d in threaded:
        th = d["server_threads_cpu_percent"]
        lws_ = th.get("mindpad-lws", 0)
        recog = sum(v for k, v in th.items() if k.startswith("mindpad-recog"))
        other = max(0.0, sum(th.values()) - lws_ - recog)   # rounding: never "-0%"
        rest = d.get("machine_cpu_percent", 0) - d["server_cpu_percent"] - d.get("loadgen_cpu_percent", 0)
        waits = d.get("server_threads_wait_percent")
        waited = (f"{waits.get('mindpad-lws', 0):.1f}% / {d.get('loadgen_wait_percent', 0):.1f}%"
                  if waits is not None else "–")
        w(f"| {n:,} | {lws_:.0f}% | {recog:.0f}% | {other:.0f}% | {d.get('loadgen_cpu_percent', 0):.0f}% | "
          f"{max(0, rest):.0f}% | {waited} |")
    w("")
    w("Waited for a core: the share of the window the thread was ready to run but on a run queue "
      "(`/proc/<pid>/task/<tid>/schedstat`). While the load generator waits, what the server sent it waits "
      "too, and counts in the latencies above; while the service thread waits, every connection does. "
      "Part of it is there on an idle machine: a thread that sleeps in `epoll_wait` and wakes thousands of "
      "times a second waits a few microseconds for a core at each wake.")
    w("")
w("### Overhead against the transport ceiling (same run)")
w("")
w("| racers | submit→grade p50 ratio | submit→grade p99 ratio | unthrottled stroke→guess p50 ratio | server CPU ratio | CPU per message received by the server, µs (echo → mindpad) |")
w("|---:|---:|---:|---:|---:|---|")
for n in sizes:
    e, r = load(f"echo-{n}.json"), load(f"race-{n}.json")
    if not e or not r:
        continue

    def ratio(a, b):
        return f"{a / b:.1f}×" if a and b else "–"

    w(f"| {n:,} | {ratio(r['submit_to_grade'].get('p50_ms'), e['submit_to_grade'].get('p50_ms'))} | "
      f"{ratio(r['submit_to_grade'].get('p99_ms'), e['submit_to_grade'].get('p99_ms'))} | "
      f"{ratio(r.get('stroke_to_guess_unthrottled', {}).get('p50_ms'), e['stroke_to_guess'].get('p50_ms'))} | "
      f"{ratio(r['server_cpu_percent'], e['server_cpu_percent'])} | {cpu_per_msg(e):.0f} → {cpu_per_msg(r):.0f} |")
w("")
w("mindpad also answers more than it is sent (guesses, grades, questions and the rooms' progress at")
w("5 Hz to 8 members), so its per-message figure carries that fan-out; the echo sends one for one.")
w("")

# the balancer (issue 21)
w("### Through HAProxy (issue 21)")
w("")
balanced = sorted({int(re.search(r"(\d+)", os.path.basename(p)).group(1)) for p in glob.glob(os.path.join(res, "direct-*.json"))})
if balanced:
    w("The same race load three ways, one after the other in this run, on instances started afresh")
    w("for each: through HAProxy (`scripts/haproxy-config.sh`) to one instance alone (the hop's own")
    w("cost), straight to that instance, and through HAProxy to three instances (cluster mode, one")
    w("database; a joiner balanced to another instance than its room's follows `moved`, as the web")
    w("client does). CPU is the instances' sum (HAProxy's own not included). Added = through HAProxy")
    w("minus straight.")
    w("")
    w("| racers | path | submit→grade p50 / p99 ms | added p50 / p99 ms | unthrottled stroke→guess p50 / p99 ms | added p50 / p99 ms | moved hops | lost | errors | servers' CPU |")
    w("|---:|---|---|---|---|---|---:|---:|---:|---:|")
    for n in balanced:
        base = load(f"direct-{n}.json")
        for label, name in [("direct", "straight to i1"), ("haproxy1", "HAProxy → i1"), ("haproxy3", "HAProxy → i1..i3")]:
            d = load(f"{label}-{n}.json")
            if not d:
                continue
            gr, sg = d["submit_to_grade"], d.get("stroke_to_guess_unthrottled", {})

            def added(key, pct, now=None):
                a, b = (now or {}).get(pct), base[key].get(pct) if key in base else None
                return f"{a - b:+.2f}" if a is not None and b is not None and label != "direct" else "–"
            lost = d["lost_guesses"] + d["lost_grades"]
            errs = sum(d["errors_by_code"].values()) + d["connect_errors"] + d["unexpected_closes"]
            w(f"| {d['racers']:,} of {n:,} | {name} | {ms(gr.get('p50_ms'))} / {ms(gr.get('p99_ms'))} | "
              f"{added('submit_to_grade', 'p50_ms', gr)} / {added('submit_to_grade', 'p99_ms', gr)} | "
              f"{ms(sg.get('p50_ms'))} / {ms(sg.get('p99_ms'))} | "
              f"{added('stroke_to_guess_unthrottled', 'p50_ms', sg)} / {added('stroke_to_guess_unthrottled', 'p99_ms', sg)} | "
              f"{d.get('hops', 0):,} | {lost} | {errs} | {d['server_cpu_percent']:.0f}% |")
    w("")
    w("On 2 shared cores the three instances, HAProxy and the load generator compete for the same")
    w("CPU: the three-instance row shows the routing works under load, not that it scales here.")
else:
    w("Not run.")
w("")

idles = sorted((load(os.path.basename(p)) for p in glob.glob(os.path.join(res, "idle-*.json"))),
               key=lambda d: d["connections_wanted"])
idle = idles[-1] if idles else None
w("### Idle connections")
w("")
if idles:
    w("Connections that take `welcome` and stay silent for 10 s, from several loopback source addresses")
    w("(127.0.0.1 … N: one address has ~28,000 ports); RSS growth over the connections open:")
    w("")
    for k, v in machine.items():
        if k.startswith("idle_capped_"):
            w(f"> {int(k[12:]):,} connections were asked for; the file limit here ({machine.get('nofile')} descriptors, a hard")
            w(f"> limit this container cannot raise) held {int(v):,}: measured at that size instead.")
            w("")
    w("| connections | open | server RSS before → after | RSS per connection | target ≤ 8 KB | connect errors | unexpected closes |")
    w("|---:|---:|---|---:|---|---:|---:|")
    for d in idles:
        per = d.get("rss_per_connection_kb")
        w(f"| {d['connections_wanted']:,} | {d['connections_open']:,} | {d['server_rss_before_kb'] / 1024:.1f} → "
          f"{d['server_rss_end_kb'] / 1024:.1f} MB | {per} KB | {mark(per is not None and per <= 8)} | "
          f"{d['connect_errors']} | {d['unexpected_closes']} |")
else:
    w("Not run.")
w("")
for png, what in [("bench-racers-latency.png", "p50 / p99 latency against racers"),
                  ("bench-racers-cpu.png", "server CPU per message against racers, beside the lws echo"),
                  ("bench-idle-rss.png", "RSS per idle connection")]:
    if os.path.exists(os.path.join(os.path.dirname(os.path.abspath(dest)), png)):
        w(f"![{what}]({png})")
        w("")

# targets
w("### Targets (issues 8 and 20)")
w("")
# The targets are at 5,000 racers; the sweep's larger sizes only say
# where they stop holding (the "largest racer count" line below).
target_size = 5000 if 5000 in sizes else (max(sizes) if sizes else None)
big = load(f"race-{target_size}.json") if sizes else None
if big:
    n = big["racers"]
    sg = big["stroke_to_guess"].get("p99_ms")
    sgo = big.get("stroke_to_guess_unthrottled", {}).get("p99_ms")
    gr = big["submit_to_grade"].get("p99_ms")
    lost = big["lost_guesses"] + big["lost_grades"]
    rss = big["server_rss_max_kb"] / 1024
    w(f"At {n:,} racers{' (the scaled-down run, not 2,000)' if n < 2000 else ''}:")
    w("")
    w("| target | measured | |")
    w("|---|---|---|")
    # Judged unthrottled: a batch sent within 100 ms of the racer's last
    # guess waits for the protocol's pacing (≤ 10 guesses/s), not the server.
    w(f"| p99 stroke→guess ≤ 50 ms (unthrottled; with the protocol's pacing in parentheses) | {ms(sgo)} ms ({ms(sg)} ms) | {mark(sgo is not None and sgo <= 50)} |")
    w(f"| p99 submit→grade ≤ 50 ms | {ms(gr)} ms | {mark(gr is not None and gr <= 50)} |")
    w(f"| zero lost messages | {lost} lost, {big['connect_errors'] + big['unexpected_closes']} connection failures | {mark(lost == 0 and big['connect_errors'] + big['unexpected_closes'] == 0)} |")
    w(f"| server RSS ≤ 300 MB | {rss:.1f} MB | {mark(rss <= 300)} |")
    e = load(f"echo-{target_size}.json")
    if e and cpu_per_msg(e) > 0:
        q = cpu_per_msg(big) / cpu_per_msg(e)
        w(f"| CPU per message ≤ 1.5× the lws echo's (same loop, same run) | {q:.2f}× ({cpu_per_msg(e):.0f} → {cpu_per_msg(big):.0f} µs) | {mark(q <= 1.5)} |")
    if idle and idle.get("rss_per_connection_kb") is not None:
        w(f"| ≤ 8 KB RSS per idle connection | {idle['rss_per_connection_kb']} KB × {idle['connections_open']:,} | {mark(idle['rss_per_connection_kb'] <= 8)} |")
    held = [m for m in sizes if (lambda d: d and failures(d) == (0, 0) and max(d["submit_to_grade"].get("p99_ms", 1e9), d.get("stroke_to_guess_unthrottled", {}).get("p99_ms", 1e9)) <= 50)(load(f"race-{m}.json"))]
    w("")
    w(f"Largest racer count that held the targets in this run (0 lost, 0 failed, p99 submit→grade and unthrottled stroke→guess ≤ 50 ms): "
      f"**{max(held):,}**." if held else "No racer count held the targets in this run.")
    errs = {k: v for k, v in big["errors_by_code"].items()}
    if errs:
        w("")
        w(f"Errors the server answered (code/request): {', '.join(f'{k} ×{v}' for k, v in sorted(errs.items()))}.")
w("")
top = text("perf-top.txt").strip()
threads = text("perf-threads.txt").strip()
machine = text("perf-machine.txt").strip()
missing = text("perf-missing.txt").strip()
# The size the profile was taken at (bench.sh profiles a run of its own at the last
# size of the sweep's list, after the sweep, into profiled/).
profiled = int(text("perf-racers.txt").strip() or (max(sizes) if sizes else 0))
if not top and sizes:
    w(f"### Server profile at {profiled:,} racers")
    w("")
    w("No profile in this run: " + (missing.splitlines()[0] if missing else "no perf output (see .build/bench/perf.log)."))
    if missing and len(missing.splitlines()) > 1:
        w("")
        w("```")
        w("\n".join(missing.splitlines()[1:]))
        w("```")
    w("")
if top:
    w(f"### Server profile at {profiled:,} racers")
    w("")
    w("`perf record -e cpu-clock -F 499 -g -a` for half the measured window, from its start; first the whole")
    w("machine by thread (who had the 2 cores: the load generator, the server's threads, anything else),")
    w("then the server alone by thread, then its top symbols (self time, shares of the server's samples).")
    pr = load(os.path.join("profiled", f"race-{profiled}.json"))
    if pr:
        sw = load(f"race-{profiled}.json")
        w(f"The profile is a run of its own after the sweep, so the profiler's share of the cores is in none of the sweep's")
        w(f"figures. That run, profiled: p99 unthrottled stroke→guess {ms(pr['stroke_to_guess_unthrottled'].get('p99_ms'))} ms,")
        w(f"submit→grade {ms(pr['submit_to_grade'].get('p99_ms'))} ms, {pr['server_cpu_percent']:.0f}% server CPU"
          + (f" (the sweep's run at {profiled:,}, not profiled: {ms(sw['stroke_to_guess_unthrottled'].get('p99_ms'))} / "
             f"{ms(sw['submit_to_grade'].get('p99_ms'))} ms, {sw['server_cpu_percent']:.0f}%)" if sw else "") + ".")
    w("")
    w("```")
    if machine:
        w(machine)
        w("")
    if threads:
        w(threads)
        w("")
    w("\n".join(line.rstrip() for line in top.splitlines()[:25]))
    w("```")
    w("")
    inclusive = text("perf-inclusive.txt").strip()
    if inclusive:
        w("The service thread (`mindpad-lws`), user-space frames with their callees (children, self):")
        w("")
        w("```")
        w("\n".join(line.rstrip() for line in inclusive.splitlines()[:30]))
        w("```")
        w("")

# ---------------------------------------------------------------- wire
wire = load("wire.json")
w("### Decoding client messages, every kind (issues 13 and 20)")
w("")
if wire:
    w(f"`wirebench {wire['rounds']}` (release build): each decoder reads each message {wire['iterations_per_round']:,} times")
    w(f"per round, decoders interleaved within a round, {wire['rounds']} rounds; median ns per message, and the")
    w("ratio to the server's decoder (`ClientMessage.decode` on MindPadJSON) measured in the same round.")
    w("`JSONSerialization` with the field checks is what the server ran before; `JSONDecoder` into Codable")
    w("structs is the obvious alternative. Every kind of client message is a row (wirebench refuses to run")
    w("without one); `points` is the one a drawing racer sends 20 times a second.")
    w("")
    w("| message | bytes | MindPadJSON (server) | JSONSerialization (before) | JSONDecoder |")
    w("|---|---:|---:|---:|---:|")
    for m in wire["messages"]:
        w(f"| `{m['message']}` | {m['bytes']} | {m['mindpad_json_ns'] / 1000:.2f} µs | "
          f"{m['json_serialization_ns'] / 1000:.2f} µs (×{m['json_serialization_ratio']}) | "
          f"{m['json_decoder_ns'] / 1000:.2f} µs (×{m['json_decoder_ratio']}) |")
else:
    w("Not run.")
w("")

# ---------------------------------------------------------------- classroom
cr = load("classroom.json")
w("### The classroom (issue 46)")
w("")
if cr:
    p2p = cr.get("pen_to_projector", {})
    lost = cr["pads_lost"] + cr["lost_guesses"] + cr["lost_grades"] + cr["connect_errors"] + cr["unexpected_closes"]
    ok = p2p.get("p99_ms", 1e9) <= 150 and lost == 0
    w(f"{cr['classes']} classes, {cr['racers'] - cr['classes']} pupils and {cr['projectors']} projectors on one server "
      "(`BENCH_STAGE=classroom scripts/bench.sh`; `scripts/classroom-setup.py` makes the teachers, classes and pupils over "
      "HTTP first): each class's projector opens its lesson (Time Attack), its pupils join, the projector starts it, and every "
      "pupil writes a digit as 16 batches 100 ms apart every 5 s, waits for the live guess, submits. Pen → projector is from a "
      "pupil's batch leaving the load generator to the projector's `pad_points` of it, the load generator beside the server on "
      f"the same {facts.get('cores', '?')} cores. Target: p99 ≤ 150 ms, nothing lost: {mark(ok)}.")
    w("")
    w("| measure | count | p50 ms | p90 ms | p99 ms | max ms |")
    w("|---|---:|---:|---:|---:|---:|")
    for label, key in (("pen → projector", "pen_to_projector"), ("stroke → guess (unthrottled)", "stroke_to_guess_unthrottled"),
                       ("submit → graded", "submit_to_grade")):
        h = cr.get(key, {})
        w(f"| {label} | {h.get('count', 0):,} | {ms(h.get('p50_ms'))} | {ms(h.get('p90_ms'))} | {ms(h.get('p99_ms'))} | {ms(h.get('max_ms'))} |")
    w("")
    w(f"Lost: {cr['pads_lost']} batches never drawn on a projector, {cr['lost_guesses']} guesses, {cr['lost_grades']} grades; "
      f"{cr['connect_errors']} connection errors, {cr['unexpected_closes']} unexpected closes; errors {cr['errors_by_code'] or 'none'}. "
      f"Server CPU {cr['server_cpu_percent']} % of one core, load generator {cr['loadgen_cpu_percent']} %.")
else:
    w("Not run.")
w("")

# ---------------------------------------------------------------- storage
st = load("storage.json")
w("## Storage (issue 6)")
w("")
if st:
    w(f"`storagebench` runs the server's own storage code (`ScoreStore`, `DatabaseWorkerPool`, symlinked from")
    w(f"`Sources/MindPadStorage`) on {st['players']:,} players with an all-time highscore in every mode")
    w(f"({st['board_rows']:,} board rows at the end), `{st['postgres'].split(' on ')[0]}` (the private cluster of")
    w(f"`scripts/pg.sh`, PostgreSQL's default settings: {st.get('settings', 'not recorded')}). Reads: one connection,")
    w("sequential, random mode (and random player).")
    w("")
    t, a = st["top100"], st["around_me"]
    w("| query | n | p50 ms | p99 ms | max ms | target p99 ≤ 10 ms |")
    w("|---|---:|---:|---:|---:|---|")
    w(f"| top-100 | {t['count']:,} | {ms(t['p50_ms'])} | {ms(t['p99_ms'])} | {ms(t['max_ms'])} | {mark(t['p99_ms'] <= 10)} |")
    w(f"| around-me (top 10 + rank + ±5) | {a['count']:,} | {ms(a['p50_ms'])} | {ms(a['p99_ms'])} | {ms(a['max_ms'])} | {mark(a['p99_ms'] <= 10)} |")
    w("")
    w(f"Result writes: {st['concurrent']} finishes handed at once to the worker pool, {st['rounds']} times, side")
    w("by side in the same run: one statement per result; batched (`ResultBatchWriter`: every result waiting")
    w("when a batch may start goes in one statement, as many in flight as the server's writer, whatever the")
    w("pool: see the statements column); and journal first, as")
    if any(x.get("way") == "parallel" for x in st["writes"]):
        w("the server did from issue 14: each result appended to the results journal and fsynced by")
        w("`JournalWriter` (results handed over during one fsync share the next), then batched, then marked")
        w("done; and journal and database side by side, as the server does since issue 20: each journal group's")
        w("results handed to the batch writer together when the group is formed, before its fsync, and stored")
        w("(`result_saved`) once both are done. Each result is timed from hand-over to its outcome (what a player waits for `result_saved`),")
    else:
        w("the server does since issue 14: each result appended to the results journal and fsynced by")
        w("`JournalWriter` (results handed over during one fsync share the next), then batched, then marked")
        w("done. Each result is timed from hand-over to its outcome (what a player waits for `result_saved`),")
    w("and journal first also from durable (when the server sends `finished`) to stored (`result_saved`):")
    w("the target's span. A statement is one result's or one batch's. Since issue 20 (migration 0013) a")
    w("batch stores the results and answers them; the boards follow in their own statement (`boards`),")
    w("and a round's next 200 start once its bests are on the boards:")
    w("")
    w("| pool | way | writes | p50 ms | p99 ms | finished → saved p50 / p99 ms | statements | statement p50 / p99 ms | boards statement p50 / p99 ms | writes/s | failures | target p99 ≤ 20 ms |")
    w("|---:|---|---:|---:|---:|---|---|---|---|---:|---:|---|")
    names = {"single": "one per result", "batched": "batched", "journaled": "journal, then batched",
             "parallel": "journal beside the batch (server)"}
    def way_of(x):
        return x.get("way") or ("batched" if x.get("batched") else "single")
    for x in st["writes"]:
        s = x.get("statement", {})
        if x.get("batched"):
            stmts = (f"{x.get('batches', 0):,} (median {x.get('batch_size_median')}, max {x.get('batch_size_max')} results), "
                     f"{x['in_flight']} in flight")
        else:
            stmts = f"{s.get('count', 0):,}"
        ad, bd = x.get("after_durable"), x.get("boards")
        span = f"{ms(ad['p50_ms'])} / {ms(ad['p99_ms'])}" if ad else "–"
        boards = f"{ms(bd['p50_ms'])} / {ms(bd['p99_ms'])}" if bd else "–"
        target = ad["p99_ms"] if ad else x["p99_ms"]
        w(f"| {x['pool']} | {names.get(way_of(x), way_of(x))} | {x['count']:,} | {ms(x['p50_ms'])} | {ms(x['p99_ms'])} | {span} | {stmts} | "
          f"{ms(s.get('p50_ms'))} / {ms(s.get('p99_ms'))} | {boards} | {x['writes_per_second']:,} | {x['failures']} | {mark(target <= 20)} |")
    pairs = {}
    for x in st["writes"]:
        pairs.setdefault(x["pool"], {})[way_of(x)] = x
    for pool, pair in sorted(pairs.items()):
        s_, b, j = pair.get("single"), pair.get("batched"), pair.get("journaled")
        if b and s_ and b["p99_ms"] and b["p50_ms"]:
            w("")
            w(f"Pool of {pool}: batched is {s_['p50_ms'] / b['p50_ms']:.1f}× faster at p50, "
              f"{s_['p99_ms'] / b['p99_ms']:.1f}× at p99, and writes "
              f"{b['writes_per_second'] / s_['writes_per_second']:.1f}× as many results per second.")
        if j and j.get("durable"):
            d, f = j["durable"], j.get("fsync", {})
            w("")
            w(f"Pool of {pool}, journal first: a result is durable (in the fsynced journal: when `finished` may be")
            w(f"sent) {ms(d['p50_ms'])} ms after hand-over at p50, {ms(d['p99_ms'])} ms at p99; {j['count']:,} results took "
              f"{j.get('fsyncs', 0):,} fsyncs (median group {j.get('group_size_median')}, max {j.get('group_size_max')}), "
              f"each write + fsync {ms(f.get('p50_ms'))} / {ms(f.get('p99_ms'))} ms at p50 / p99.")
            if b:
                w(f"Stored in PostgreSQL {ms(j['p50_ms'])} / {ms(j['p99_ms'])} ms after hand-over against "
                  f"{ms(b['p50_ms'])} / {ms(b['p99_ms'])} ms batched without the journal (p50 / p99), "
                  f"{j['writes_per_second']:,} against {b['writes_per_second']:,} results per second; "
                  f"{j.get('journal_left', 0)} left in the journal.")
            par = pair.get("parallel")
            if par and par.get("after_durable") and j.get("after_durable"):
                pa, ja = par["after_durable"], j["after_durable"]
                w(f"Journal and database side by side: finished → saved {ms(pa['p50_ms'])} / {ms(pa['p99_ms'])} ms "
                  f"against {ms(ja['p50_ms'])} / {ms(ja['p99_ms'])} ms journal, then batched (p50 / p99); hand-over → saved "
                  f"{ms(par['p50_ms'])} / {ms(par['p99_ms'])} ms; durable {ms(par['durable']['p50_ms'])} / "
                  f"{ms(par['durable']['p99_ms'])} ms after hand-over (the fsync shares the cores with the statements); "
                  f"{par.get('journal_left', 0)} left in the journal.")
            if j.get("boards_settled"):
                g = j["boards_settled"]
                w(f"A round's last best was on the boards {ms(g['p50_ms'])} / {ms(g['p99_ms'])} ms after its 200 "
                  f"finishes were handed over (p50 / p99 of {g['count']} rounds); "
                  f"{j.get('boards_pending_left', 0)} left pending.")
    w("")
    w("Journal and database side by side against journal first, before/after in alternating pairs of runs")
    w("(the figures and the command): \"Result writes beside the journal's fsync\" under \"What the figures say\".")
    w("")
    w("The plan of the hardest rank (`ScoreStore.explainRank`: the slowest player in the largest group")
    w("of equal scores on the normal all-time board):")
    w("")
    w("```")
    w(st["rank_count_plan"])
    w("```")
else:
    w("Not run.")
w("")

analysis = os.path.join(here, "analysis.md")
if os.path.exists(analysis):
    w(open(analysis).read().rstrip())
    w("")

with open(dest, "w") as f:
    f.write("\n".join(L))
print("wrote", dest)
