"""Scripts/check-portability's pytest checks of the wheel in a Debian 13 root (not collected by the suite:
its name does not start with test_), installed in a venv with --system-site-packages (Debian's pytest),
gtk4_sees.py beside this file: the wheel's CLI, driver and compositor (with
the libraries auditwheel put in the wheel) serve a lease on the default kind and one on the wayland kind."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import pytest_multihead
from gtk4_lines import first_match

# The compositor names a PNP id by its company where hwdata's table is installed (the .deb recommends it).
WAYLAND_MAKE = "Dell Inc." if os.path.exists("/usr/share/hwdata/pnp.ids") else "DEL"

GTK4 = Path(__file__).with_name("gtk4_sees.py")
PACKAGE = Path(pytest_multihead.__file__).parent


def test_the_wheels_doctor_says_every_kind_can_start():
    command = Path(sys.executable).parent / "multihead"
    report = json.loads(subprocess.run([str(command), "doctor", "--json"], capture_output=True, text=True, timeout=60).stdout)
    kinds = {k["kind"]: k for k in report["kinds"]}
    assert all(k["canStart"] for k in kinds.values()), kinds
    assert report["driver"]["path"] == str(PACKAGE / "lib" / "multihead" / "drivers" / "multihead_drv.so"), report["driver"]
    compositor = [c for c in report["components"] if c["name"] == "compositor"]
    assert compositor and compositor[0]["path"] == str(PACKAGE / "lib" / "multihead" / "multihead-compositor"), compositor


@pytest.mark.multihead(monitors=["1920x1080"])
def test_default_kind_plugs_hdmi(multihead_server):
    s = multihead_server
    assert s.kind == "xorg"
    s.plug("HDMI-1", "2560x1440+1920+0", manufacturer="DEL", model="DELL U2720Q", serial_number="ABC123")
    assert [x["name"] for x in s.screens()] == ["DP-1", "HDMI-1"]
    s.unplug("HDMI-1")
    assert [x["name"] for x in s.screens()] == ["DP-1"]


def wait_for(client, predicate, bound=20.0):
    event, seen = first_match(client, predicate, bound)
    if event is None:
        raise AssertionError(f"no such monitor list within {bound} s: {seen}")
    return event


@pytest.mark.multihead(kind="wayland", monitors=["1920x1080"])
def test_wayland_kind_plugs_hdmi_and_gtk4_sees_it(multihead_server):
    s = multihead_server
    assert s.kind == "wayland"
    env = dict(s.env, GDK_BACKEND="wayland")
    env.pop("DISPLAY", None)
    client = subprocess.Popen(["/usr/bin/python3", str(GTK4)], env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        first = wait_for(client, lambda ms: list(ms) == ["DP-1"])
        assert "Wayland" in first["backend"], first
        s.plug("HDMI-1", "2560x1440+1920+0", manufacturer="DEL", model="U2720Q")
        wait_for(client, lambda ms: "HDMI-1" in ms and ms["HDMI-1"]["manufacturer"] == WAYLAND_MAKE)
        assert [x["name"] for x in s.screens()] == ["DP-1", "HDMI-1"]
        s.unplug("HDMI-1")
        wait_for(client, lambda ms: list(ms) == ["DP-1"])
    finally:
        client.stdin.close()
        client.wait(timeout=10)
