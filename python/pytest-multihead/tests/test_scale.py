"""`multihead run --scale`: what Qt and GTK apps (Debian's python3 with PyQt5 and GTK 3) see of it, and what
Multihead's own `screens` says inside the run."""

import json
import subprocess

import pytest

QT = """
from PyQt5.QtGui import QGuiApplication
app = QGuiApplication(["scale", "-platform", "xcb"])
for s in app.screens():
    print(s.name(), s.devicePixelRatio())
"""

GTK = """
import gi
gi.require_version("Gdk", "3.0")
from gi.repository import Gdk
d = Gdk.Display.get_default()
print(" ".join(str(d.get_monitor(i).get_scale_factor()) for i in range(d.get_n_monitors())))
"""


def run(binary, *args):
    return subprocess.run([binary, "run", "--xorg-dummy", "--monitors", "1024x768,800x600", *args], capture_output=True,
                          text=True, timeout=300)


def test_qt_gets_each_screens_factor(request):
    binary = request.config.getoption("--multihead-bin")
    done = run(binary, "--scale", "DUMMY0=2;DUMMY1=1", "--", "/usr/bin/python3", "-c", QT)
    assert done.returncode == 0, done.stderr
    assert sorted(done.stdout.split("\n")[:-1]) == ["DUMMY0 2.0", "DUMMY1 1.0"]


def test_gtk_gets_one_integer_scale(request):
    binary = request.config.getoption("--multihead-bin")
    done = run(binary, "--scale", "DUMMY0=2;DUMMY1=2", "--", "/usr/bin/python3", "-c", GTK)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["2", "2"]
    # Factors that differ are not one GTK scale: GDK_SCALE is not set.
    env = run(binary, "--scale", "DUMMY0=2;DUMMY1=1", "--", "sh", "-c", "echo ${GDK_SCALE:-unset}")
    assert env.stdout == "unset\n"


def test_screens_inside_the_run_say_the_scale(request):
    binary = request.config.getoption("--multihead-bin")
    script = f"{binary} screens --json; env -u MULTIHEAD_CONTROL {binary} screens --json"
    done = run(binary, "--scale", "DUMMY1=1.5", "--", "sh", "-c", script)
    assert done.returncode == 0, done.stderr
    through_socket, direct = (json.loads(line) for line in done.stdout.splitlines())
    for listed in (through_socket, direct):
        assert [(s["name"], s["scale"]) for s in listed] == [("DUMMY0", 1), ("DUMMY1", 1.5)]


def test_a_bad_scale_is_a_usage_error(request):
    done = subprocess.run([request.config.getoption("--multihead-bin"), "run", "--scale", "DP-1=zero", "--", "true"],
                          capture_output=True, text=True)
    assert done.returncode == 64 and "DP-1" in done.stderr and "zero" in done.stderr


def test_watch_says_a_scale_change(pytester):
    """A 15.6-inch 3840x2160 panel plugged is 2x; the same panel at 1920x1080 is 1x: one modeChange whose
    previous scale is 2."""
    pytester.makepyfile(
        """
        def test_panel(multihead_server):
            s = multihead_server
            with s.watch(timeout=10) as events:
                s.plug("PANEL", "3840x2160+3200+0", physical_size="344x194mm")
                e = next(events)
                assert (e["event"], e["screen"]["name"], e["screen"]["scale"]) == ("connect", "PANEL", 2)
                assert e["screen"]["physicalSize"] == {"width": 344, "height": 194}
                s.mode("PANEL", "1920x1080")
                e = next(events)
                assert e["event"] == "modeChange" and e["screen"]["scale"] == 1 and e["previous"]["scale"] == 2
            assert [x["scale"] for x in s.screens()] == [1, 1, 1]
        """
    )
    from test_plugin import run as run_pytest
    run_pytest(pytester).assert_outcomes(passed=1)
