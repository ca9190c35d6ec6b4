#!/usr/bin/python3
"""The figures of docs/benchmarks.md's "Wayland" section: multihead-compositor's start (to its ready
line, --xwayland=off and lazy) against Xvfb's (to the display number it writes on -displayfd),
alternated, median of 15; and for each toolkit client of Compositor/tests/clients on native Wayland, the
time from `plug`'s answer (and from the command written) to the client's line showing the new output,
and the same for `unplug`, median of 5. Usage: Scripts/compositor-figures.py [COMPOSITOR]  (default:
Scripts/build-compositor's release build). Every process is stopped by PID, every folder removed."""
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "Compositor", "tests"))
from conftest import Compositor, Lines, compositor_binary, stop_process  # noqa: E402


def xvfb_start():
    read_end, write_end = os.pipe()
    started = time.monotonic()
    proc = subprocess.Popen(["Xvfb", "-displayfd", str(write_end), "-screen", "0", "1920x1080x24", "-nolisten", "tcp"],
                            pass_fds=(write_end,), stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    os.close(write_end)
    line = Lines(read_end, "Xvfb").readline()
    took = time.monotonic() - started
    assert line.strip().isdigit(), line
    proc.terminate()
    proc.wait()
    os.close(read_end)
    return took


def compositor_start(binary, folder, *args):
    c = Compositor(binary, folder, args)
    took = c.ready_seconds
    c.stop()
    return took


def ms(values):
    return f"{statistics.median(values) * 1000:.1f} ms ({min(values) * 1000:.1f}–{max(values) * 1000:.1f})"


def main():
    binary = sys.argv[1] if len(sys.argv) > 1 else compositor_binary()
    folder = tempfile.mkdtemp(prefix="mhc-figures.")
    try:
        starts = {"compositor --xwayland=off": [], "compositor (lazy Xwayland)": [], "Xvfb -displayfd": []}
        for _ in range(15):
            starts["compositor --xwayland=off"].append(compositor_start(binary, folder, "--xwayland=off"))
            starts["Xvfb -displayfd"].append(xvfb_start())
            starts["compositor (lazy Xwayland)"].append(compositor_start(binary, folder))
        for name, values in starts.items():
            print(f"start {name}: median {ms(values)}")

        sdl = os.path.join(folder, "sdl2_displays")
        flags = subprocess.run(["pkg-config", "--cflags", "--libs", "sdl2"], check=True, stdout=subprocess.PIPE,
                               text=True).stdout.split()
        subprocess.run(["cc", "-O1", "-o", sdl, os.path.join(HERE, "..", "Compositor", "tests", "clients",
                                                              "sdl2_displays.c"), *flags], check=True)
        def has(s, name):
            text = str(s.get("monitors", s.get("screens", s.get("displays", []))))
            return name in text
        toolkits = {
            "GTK 4": lambda c: c.gtk4(),
            "Qt 6": lambda c: c.qt6(),
            "SDL 2": lambda c: c.sdl2(sdl),
            "Chromium": lambda c: c.chromium(),
        }
        for name, start in toolkits.items():
            c = Compositor(binary, folder, ("--xwayland=off",))
            try:
                c.ok("plug DP-1")
                _, lines = start(c)
                lines.wait_for(lambda s: has(s, "DP-1"), timeout=60)
                plug, plug_sent, unplug, unplug_sent = [], [], [], []
                for _ in range(5):
                    sent = time.monotonic()
                    c.ok("plug HDMI-1 mode=2560x1440@60 pos=1920,0 scale=2 make=Dell model=U2720Q")
                    answered = time.monotonic()
                    seen = lines.wait_for(lambda s: has(s, "HDMI-1"))
                    plug.append(seen["t"] - answered)
                    plug_sent.append(seen["t"] - sent)
                    sent = time.monotonic()
                    c.ok("unplug HDMI-1")
                    answered = time.monotonic()
                    seen = lines.wait_for(lambda s: not has(s, "HDMI-1") and s.get("event") != "window")
                    unplug.append(seen["t"] - answered)
                    unplug_sent.append(seen["t"] - sent)
                print(f"{name}: plug from answer {ms(plug)}, from command {ms(plug_sent)}; "
                      f"unplug from answer {ms(unplug)}, from command {ms(unplug_sent)}")
            finally:
                c.stop()
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
