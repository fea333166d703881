#!/usr/bin/env python3
"""Which share of a server profile's samples each part of the hot path took.

    tools/loadgen/profile_share.py A-1.perf B-1.perf ...

For each `perf record -g` file (compare.sh with PERF_DIR), the share of all
the server's samples, and of the service thread's (`mindpad-lws`), whose
call stack holds a frame of each part below (Swift names demangled with
`swift demangle`). A sample counts once per part, wherever in the stack.
"""
import re
import subprocess
import sys

PARTS = {
    "encoding server messages": r"ServerMessage\.|OutgoingMessage\.init|JSONWriter\.|JSON\.writeObject|JSON\.write\(|JSON\.quote|WebSocketPayload\.init",
    "queueing to a connection (WebServer.send)": r"WebServer\.send\(",
    "prompts and answers through Codable (JSONValueEncoder)": r"JSONValueEncoder\.encode",
    "decoding client messages (ClientMessage.decode)": r"ClientMessage\.decode",
}


def samples(path):
    """Yields (thread name, stack text) for each sample of a perf file."""
    # A system-wide profile (compare.sh records with -a) names the server's
    # pid beside it: only that process's samples count.
    try:
        pid = ["--pid", open(path + ".pid").read().strip()]
    except OSError:
        pid = []
    script = subprocess.run(["perf", "script", "-i", path, *pid, "-F", "comm,ip,sym"],
                            capture_output=True, text=True, check=True).stdout
    text = subprocess.run(["swift", "demangle", "--simplified"], input=script,
                          capture_output=True, text=True, check=True).stdout
    for block in text.split("\n\n"):
        lines = block.strip("\n").split("\n")
        if lines and lines[0].strip():
            yield lines[0].split()[0], "\n".join(lines[1:])


def main():
    parts = {name: re.compile(rx) for name, rx in PARTS.items()}
    for path in sys.argv[1:]:
        total = service = 0
        hits = {name: [0, 0] for name in parts}
        for thread, stack in samples(path):
            on_service = thread.startswith("mindpad-lws")
            total += 1
            service += on_service
            for name, rx in parts.items():
                if rx.search(stack):
                    hits[name][0] += 1
                    hits[name][1] += on_service
        print(f"{path}: {total} samples, {service} on the service thread")
        for name, (all_, svc) in hits.items():
            print(f"  {name}: {100 * all_ / max(1, total):.2f}% of the server, "
                  f"{100 * svc / max(1, service):.2f}% of the service thread")


if __name__ == "__main__":
    main()
