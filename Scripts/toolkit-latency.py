#!/usr/bin/env python3
"""The latency column of docs/other-toolkits.md's matrix for GTK 4, Qt 6 and Chromium: on a private server
(`multihead server --xorg`, `--xorg-dummy` or Xvfb), a client of Tests/ToolkitClients runs while a monitor is plugged, set
to 1920x1080 and unplugged, RUNS times; each figure is from the start of the `multihead plug` / `mode` /
`unplug` command (the CLI, through the server's control socket, as a test script runs it) to the arrival of
the client's line for that callback (the client prints it from the callback, flushed; Chromium's comes
through the page's DevTools binding). A toolkit that reports nothing within 3 s is "no".
Usage: Scripts/toolkit-latency.py [-v] MULTIHEAD_CLI [xorg|xorg-dummy|xvfb] [RUNS]   (-v: every line each client
said, after its figures)   (Debian's python3; no package beyond)"""

import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "python" / "pytest-multihead" / "src"))
from pytest_multihead import LineReader, MultiheadServer  # noqa: E402

ARGS = [a for a in sys.argv[1:] if a != "-v"]
CLI = ARGS[0]
KIND = ARGS[1] if len(ARGS) > 1 else "xorg"
RUNS = int(ARGS[2]) if len(ARGS) > 2 else 3
CLIENTS = ROOT / "Tests" / "ToolkitClients"
# The monitor plugged, and what each client prints for its plug, mode change and unplug (starts of lines).
if KIND == "xorg":
    PLUG = ["HDMI-1", "2560x1440+1920+0", "--manufacturer", "DEL", "--model", "DELL U2720Q", "--serial-number", "ABC123"]
    SEEN = {
        "gtk4": ("added HDMI-1 ", "geometry HDMI-1 ", "removed HDMI-1"),
        "qt6": ("added HDMI-1 ", "geometry HDMI-1 ", "removed HDMI-1"),
        "chromium": ('added "DELL U2720Q"', 'changed "DELL U2720Q"', 'removed "DELL U2720Q"'),
    }
elif KIND == "xorg-dummy":
    PLUG = ["DUMMY1", "2560x1440+1920+0", "--manufacturer", "DEL", "--model", "DELL U2720Q", "--serial-number", "ABC123"]
    SEEN = {
        "gtk4": ("added DUMMY1 ", "geometry DUMMY1 ", "removed DUMMY1"),
        "qt6": ("added DUMMY1 ", "geometry DUMMY1 ", "removed DUMMY1"),
        "chromium": ('added "DELL U2720Q"', 'changed "DELL U2720Q"', 'removed "DELL U2720Q"'),
    }
else:
    PLUG = ["VIRTUAL-2", "2560x1440+1920+0"]
    SEEN = {
        "gtk4": ("added ", "geometry ", "removed "),
        "qt6": ("added VIRTUAL-2 ", "geometry VIRTUAL-2 ", "removed VIRTUAL-2"),
        "chromium": ("added ", "changed ", "removed "),
    }
#: How long each command itself took (ms); every line the client said (printed with -v).
COMMANDS = []
SAID = []
VERBOSE = "-v" in sys.argv
SCRIPTS = {"gtk4": "gtk4-monitors.py", "qt6": "qt6-monitors.py", "chromium": "chromium-screens.py"}


def timed(env, lines, args, prefix):
    """Milliseconds from the start of `multihead ARGS` to the client's line starting `prefix`; None if
    none comes within 3 s of the command's end."""
    start = time.monotonic()
    subprocess.run([CLI, *args], env=env, check=True, capture_output=True)
    COMMANDS.append((time.monotonic() - start) * 1000)
    deadline = time.monotonic() + 3
    while True:
        try:
            line = lines.readline(max(0.0, deadline - time.monotonic()))
        except TimeoutError:
            return None
        if line is None:
            sys.exit(f"the client ended before {prefix!r}")
        SAID.append(line)
        if line.startswith(prefix):
            return (time.monotonic() - start) * 1000


def main():
    server = MultiheadServer(CLI, monitors=["1920x1080"], kind=KIND)
    env = dict(server.env, MULTIHEAD_CONTROL=server._control.path, QT_QPA_PLATFORM="xcb")
    try:
        for name, script in SCRIPTS.items():
            client = subprocess.Popen(["/usr/bin/python3", str(CLIENTS / script)], env=env, stdin=subprocess.PIPE,
                                      stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, bufsize=0)
            lines = LineReader(client.stdout)
            SAID.clear()
            while (line := lines.readline(120)) != "end":
                if line is None:
                    sys.exit(f"{name} ended before its list")
                SAID.append(line)
            added, mode, removed = SEEN[name]
            figures = {"plug": [], "mode": [], "unplug": []}
            for _ in range(RUNS):
                figures["plug"].append(timed(env, lines, ["plug", *PLUG], added))
                figures["mode"].append(timed(env, lines, ["mode", PLUG[0], "1920x1080"], mode))
                figures["unplug"].append(timed(env, lines, ["unplug", PLUG[0]], removed))
            client.stdin.close()
            client.wait(timeout=30)
            lines.close()
            client.stdout.close()
            said = ", ".join(f"{event} " + ("no" if None in ms else " ".join(f"{m:.0f}" for m in ms) + " ms")
                             for event, ms in figures.items())
            print(f"{name} on {KIND}: {said}", flush=True)
            if VERBOSE:
                print("\n".join(f"  {line}" for line in SAID), flush=True)
        print(f"the commands themselves: {min(COMMANDS):.0f}-{max(COMMANDS):.0f} ms", flush=True)
    finally:
        server.stop()


if __name__ == "__main__":
    main()
