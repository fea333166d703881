#!/usr/bin/env python3
"""Draws the growth plots of scripts/bench.sh into docs/ (matplotlib, Agg).

usage: plot.py RESULTS_DIR DOCS_DIR

- bench-racers-latency.png: p50 / p99 unthrottled stroke→guess and submit→grade against racers
- bench-racers-cpu.png: server CPU per message received against racers, mindpad and the lws echo
- bench-idle-rss.png: RSS per idle connection against connections
Every point is one scenario of the one run in RESULTS_DIR.
"""
import glob
import json
import os
import re
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

res, docs = sys.argv[1], sys.argv[2]


def load(path):
    with open(path) as f:
        return json.load(f)


def series(kind):
    out = []
    for p in glob.glob(os.path.join(res, f"{kind}-*.json")):
        n = int(re.search(r"(\d+)", os.path.basename(p)).group(1))
        out.append((n, load(p)))
    return sorted(out, key=lambda x: x[0])


def cpu_per_msg(d):
    return d["server_cpu_percent"] / 100 * d["window_s"] / max(1, d["window_sent"]) * 1e6


machine = dict(line.split("=", 1) for line in open(os.path.join(res, "machine.txt")).read().splitlines() if "=" in line)
subtitle = f"{machine.get('date', '')}, {machine.get('cores', '?')} cores shared with the load generator, loop {machine.get('server_loop', '?')}"


def finish(fig, ax, xlabel, ylabel, title, name, legend_size=8):
    """Labels, legend and grid, then the PNG into docs/."""
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(f"{title}\n{subtitle}", fontsize=9)
    ax.legend(fontsize=legend_size)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(os.path.join(docs, name), dpi=110)

race, echo = series("race"), series("echo")
if race:
    ns = [n for n, _ in race]
    fig, ax = plt.subplots(figsize=(7, 4.2))
    for key, label, style in [("stroke_to_guess_unthrottled", "stroke→guess (unthrottled)", "o-"),
                              ("submit_to_grade", "submit→grade", "s-")]:
        for pct, alpha in [("p50_ms", 0.5), ("p99_ms", 1.0)]:
            ax.plot(ns, [d.get(key, {}).get(pct) for _, d in race], style, alpha=alpha, label=f"{label} {pct[:3]}")
    ax.axhline(50, color="grey", linestyle="--", linewidth=1, label="target p99 50 ms")
    ax.set_yscale("log")
    finish(fig, ax, "racers (rooms of 8)", "ms", "mindpad latency against racers", "bench-racers-latency.png", 7)

    fig, ax = plt.subplots(figsize=(7, 4.2))
    ax.plot(ns, [cpu_per_msg(d) for _, d in race], "o-", label="mindpad")
    en = [n for n, _ in echo]
    ax.plot(en, [cpu_per_msg(d) for _, d in echo], "s-", label="lws echo (ceiling)")
    finish(fig, ax, "racers (rooms of 8)", "server CPU µs per message received", "server CPU per message against racers",
           "bench-racers-cpu.png")

idle = series("idle")
if idle:
    fig, ax = plt.subplots(figsize=(7, 4.2))
    ax.plot([d["connections_open"] for _, d in idle], [d.get("rss_per_connection_kb") for _, d in idle], "o-", label="mindpad")
    ax.axhline(8, color="grey", linestyle="--", linewidth=1, label="target 8 KB")
    ax.set_ylim(bottom=0)
    finish(fig, ax, "idle WebSocket connections", "server RSS per connection, KB", "RSS per idle connection",
           "bench-idle-rss.png")
