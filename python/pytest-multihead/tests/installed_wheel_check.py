"""Run by Scripts/test-python against the installed wheel (not collected with the plugin's own tests: its
name does not start with test_): the plugin finds the CLI inside the wheel, with no --multihead-bin, no
MULTIHEAD_BIN and no multihead on PATH; the wheel's `multihead` command is that CLI; the CLI finds the
driver beside itself."""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import pytest_multihead


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
