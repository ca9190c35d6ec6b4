#!/usr/bin/python3
"""Scripts/check-portability's checks of the .deb in a Debian 13 root, run as a user (not root) with the
.deb's `multihead` on PATH and gtk4_sees.py beside this file:
1. `multihead doctor --json` says every kind can start, and names the packaged compositor;
2. `multihead run` (the default kind: Xorg with the packaged driver) plugs HDMI-1 with an EDID, which
   `multihead screens` lists, and unplugs it;
3. `multihead run --wayland` (the packaged compositor and the wlroots 0.15 it carries) plugs HDMI-1 and
   unplugs it, and a GTK 4 client on native Wayland sees both.
Prints one line a check; exits non-zero, with what was seen, at the first failure. Standard library only."""

import json
import os
import subprocess
import sys
import time
from pathlib import Path

from gtk4_lines import first_match

# The compositor names a PNP id by its company where hwdata's table is installed (the .deb recommends it).
WAYLAND_MAKE = "Dell Inc." if os.path.exists("/usr/share/hwdata/pnp.ids") else "DEL"

HERE = Path(__file__).resolve().parent
GTK4 = HERE / "gtk4_sees.py"
PLUG = ["HDMI-1", "2560x1440+1920+0", "--manufacturer", "DEL", "--model", "DELL U2720Q", "--serial-number", "ABC123"]


def check(what, ok, detail=""):
    print(("ok   " if ok else "FAIL ") + what + (f": {detail}" if detail and not ok else ""), flush=True)
    if not ok:
        sys.exit(1)


def doctor():
    run = subprocess.run(["multihead", "doctor", "--json"], capture_output=True, text=True, timeout=60)
    report = json.loads(run.stdout)
    kinds = {k["kind"]: k for k in report["kinds"]}
    check("doctor: every kind can start (" + ", ".join(kinds) + ")", all(k["canStart"] for k in kinds.values()), kinds)
    check("doctor: the default kind is xorg", report["defaultKind"] == "xorg", report["defaultKind"])
    compositor = [c for c in report["components"] if c["name"] == "compositor"]
    check("doctor: the compositor is the .deb's", compositor and compositor[0]["path"] == "/usr/lib/multihead/multihead-compositor",
          compositor)


def inside(kind):
    """Run inside `multihead run`: plug, list, unplug (and on wayland, a GTK 4 client watching)."""
    client = None
    if kind == "wayland":
        env = dict(os.environ, GDK_BACKEND="wayland")
        env.pop("DISPLAY", None)  # native Wayland, not Xwayland
        client = subprocess.Popen(["/usr/bin/python3", str(GTK4)], env=env, stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, text=True)
        wait_for(client, lambda ms: list(ms) == ["DP-1", "DP-2"])
    subprocess.run(["multihead", "plug", *PLUG], check=True, timeout=30)
    names = [s["name"] for s in json.loads(subprocess.run(["multihead", "screens", "--json"], capture_output=True, text=True,
                                                             check=True, timeout=30).stdout)]
    check(f"{kind}: screens lists HDMI-1 plugged", "HDMI-1" in names, names)
    if client:
        seen = wait_for(client, lambda ms: "HDMI-1" in ms and ms["HDMI-1"]["manufacturer"] == WAYLAND_MAKE)
        check("wayland: GTK 4 on native Wayland sees HDMI-1 plugged (" + seen["backend"] + ")", "Wayland" in seen["backend"], seen)
    subprocess.run(["multihead", "unplug", "HDMI-1"], check=True, timeout=30)
    names = [s["name"] for s in json.loads(subprocess.run(["multihead", "screens", "--json"], capture_output=True, text=True,
                                                             check=True, timeout=30).stdout)]
    check(f"{kind}: screens lists HDMI-1 unplugged", "HDMI-1" not in names, names)
    if client:
        wait_for(client, lambda ms: list(ms) == ["DP-1", "DP-2"])
        check("wayland: GTK 4 sees HDMI-1 unplugged", True)
        client.stdin.close()
        client.wait(timeout=10)


def wait_for(client, predicate, bound=20.0):
    """The GTK 4 client's JSON lines until one whose monitors satisfy `predicate`."""
    event, seen = first_match(client, predicate, bound)
    if event is None:
        check("the GTK 4 client's monitors", False, f"none matched within {bound} s: {seen}")
    return event


def main():
    if len(sys.argv) == 2:
        inside(sys.argv[1])
        return
    doctor()
    for kind, flags in (("default", []), ("wayland", ["--wayland"])):
        started = time.monotonic()
        run = subprocess.run(["multihead", "run", *flags, "--", sys.executable, __file__, kind], timeout=120)
        check(f"multihead run {' '.join(flags)}-- … ({kind} kind, {time.monotonic() - started:.1f} s)", run.returncode == 0,
              f"exit {run.returncode}")


if __name__ == "__main__":
    main()
