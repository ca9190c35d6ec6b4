"""The configuration serial: one number that grows with every change of an output, whoever made it (a
command, an output manager client), and stays while nothing changes: what a test waits on for "kanshi has
applied". Answers: `configuration` (the outputs and the serial together), `plug` and `mode` (the output and
the serial its change made), `unplug`."""
import subprocess

from conftest import TIMEOUT


def configuration(compositor):
    answer = compositor.ok("configuration")
    return answer["configurationSerial"], {o["name"]: o for o in answer["outputs"]}


def test_serial_grows_with_each_change_and_only_then(compositor):
    empty, outputs = configuration(compositor)
    assert outputs == {}
    plugged = compositor.ok("plug HDMI-1 mode=1920x1080")
    assert plugged["configurationSerial"] > empty
    # Nothing changed: the same serial, however often asked (`outputs` rows carry none).
    assert configuration(compositor)[0] == plugged["configurationSerial"]
    assert configuration(compositor)[0] == plugged["configurationSerial"]
    assert "configurationSerial" not in compositor.ok("outputs")[0]

    moved = compositor.ok("mode HDMI-1 pos=100,0")
    assert moved["configurationSerial"] > plugged["configurationSerial"]
    second = compositor.ok("plug DP-1 mode=1280x720")
    assert second["configurationSerial"] > moved["configurationSerial"]
    serial, outputs = configuration(compositor)
    assert serial == second["configurationSerial"] and set(outputs) == {"HDMI-1", "DP-1"}

    # An output manager's change (wlr-randr) moves it too, with the outputs it made.
    done = subprocess.run(["wlr-randr", "--output", "DP-1", "--scale", "1.5"], env=compositor.client_env(),
                          capture_output=True, text=True, timeout=TIMEOUT)
    assert done.returncode == 0, done.stderr
    after, outputs = configuration(compositor)
    assert after > serial and outputs["DP-1"]["scale"] == 1.5

    gone = compositor.ok("unplug DP-1")
    assert gone["configurationSerial"] > after
    serial, outputs = configuration(compositor)
    assert serial == gone["configurationSerial"] and set(outputs) == {"HDMI-1"}


def test_configuration_takes_no_arguments(compositor):
    assert compositor.cmd("configuration now").startswith("error usage ")
