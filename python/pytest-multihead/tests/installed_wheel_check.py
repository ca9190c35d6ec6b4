"""Run by Scripts/test-python against the installed wheel (not collected with the plugin's own tests: its
name does not start with test_): the plugin finds the CLI inside the wheel, with no --multihead-bin, no
MULTIHEAD_BIN and no multihead on PATH; the wheel's `multihead` command is that CLI; the CLI finds the
driver beside itself; and a tester's test on the default kind sees what a GTK 4 app sees of a cable with an
EDID plugged and pulled (Tests/ToolkitClients/gtk4-monitors.py, which Scripts/test-python copies beside this
file, run by Debian's python3: its python3-gi, which the environment's python has not)."""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import pytest_multihead
from pytest_multihead import LineReader

#: The GTK 4 client, beside this file.
GTK4_CLIENT = Path(__file__).with_name("gtk4-monitors.py")


def test_the_cli_is_the_wheels_own():
    assert "MULTIHEAD_BIN" not in os.environ
    assert shutil.which("multihead") is None  # not on PATH (Scripts/test-python empties it): only in the environment's bin/
    package = Path(pytest_multihead.__file__).parent
    command = Path(sys.executable).parent / "multihead"
    doctor = subprocess.run([str(command), "doctor", "--json", "--kind", "xorg"], capture_output=True, text=True)
    report = json.loads(doctor.stdout)
    assert report["driver"]["source"] == "prebuilt", report["driver"]
    assert report["driver"]["path"] == str(package / "lib" / "multihead" / "drivers" / "multihead_drv.so")


@pytest.mark.multihead(monitors=["1280x720"])
def test_plug_a_monitor(multihead_server):
    before = [s["name"] for s in multihead_server.screens()]
    assert len(before) == 1
    multihead_server.plug("TV", "1920x1080+1280+0")
    assert [s["name"] for s in multihead_server.screens()] == before + ["TV"]
    multihead_server.unplug("TV")
    assert [s["name"] for s in multihead_server.screens()] == before


def _expect(reader, said, wanted, timeout=10):
    """Reads the client's lines until one equals `wanted`; fails with every line read when none does in time."""
    while wanted not in said:
        try:
            line = reader.readline(timeout)
        except TimeoutError:
            pytest.fail(f"no {wanted!r} within {timeout} s; the client said {said}")
        if line is None:
            pytest.fail(f"the client ended before {wanted!r}; it said {said}")
        said.append(line)


@pytest.mark.multihead(monitors=["1920x1080"])
def test_a_gtk4_app_sees_a_cable_with_an_edid(multihead_server):
    """The default kind is Xorg with the wheel's driver (the first test says so): GTK 4 lists DP-1, sees
    HDMI-1 plugged with a Dell's EDID (GTK 4.8 gives the EDID's PNP id as the manufacturer) and pulled."""
    assert multihead_server.kind == "xorg", f"the default kind started {multihead_server.kind}: GTK 4 sees no plug there"
    assert GTK4_CLIENT.is_file(), f"{GTK4_CLIENT} is missing (Scripts/test-python copies it beside this check)"
    client = subprocess.Popen(["/usr/bin/python3", str(GTK4_CLIENT)], env=multihead_server.env, stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, bufsize=0)
    reader, said = LineReader(client.stdout), []
    try:
        _expect(reader, said, "end")
        assert "monitor DP-1 1920x1080+0+0 scale 1|MHD|DP-1" in said, said
        multihead_server.plug("HDMI-1", "2560x1440+1920+0", manufacturer="DEL", model="DELL U2720Q", serial_number="ABC123")
        _expect(reader, said, "added HDMI-1 2560x1440+1920+0 scale 1|DEL|HDMI-1")
        multihead_server.unplug("HDMI-1")
        _expect(reader, said, "removed HDMI-1")
    finally:
        client.stdin.close()
        try:
            client.wait(timeout=10)
        except subprocess.TimeoutExpired:
            client.kill()
            client.wait()
        reader.close()
        client.stdout.close()
    assert client.returncode == 0, said
