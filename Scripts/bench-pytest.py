#!/usr/bin/env python3
"""The pytest rows of Scripts/bench: a test of docs/control-socket.md's shape (a lease with one monitor,
plug a second, screens(), an X client run against it, unplug), its own overhead (setup, call and teardown,
less its client) on warm leases of the default kind (Xorg with Multihead's driver where it can start: the
second monitor a cable, HDMI-1) and of Xvfb (a virtual monitor), under -n 2, and on a fresh server per
test, against C doing the same on a fresh Xvfb per test; and `multihead plug` with and without the control
socket against `xrandr --setmonitor` (on Xvfb). Usage: bench-pytest.py MULTIHEAD_CLI XLIB_BASELINE (in a
venv with pytest, pytest-xdist and the plugin). Prints table rows."""

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from pytest_multihead import MultiheadServer

CLI, BASELINE = sys.argv[1], sys.argv[2]

CONFTEST = '''
import json, os, time
import pytest

CLIENT = {}
TOTAL = {}

@pytest.fixture
def client_time(request):
    """Runs the test's X client and keeps its time apart: it is the test's own work, not overhead."""
    def run(cmd, env):
        start = time.perf_counter()
        out = __import__("subprocess").run(cmd, env=env, capture_output=True, text=True, check=True).stdout
        CLIENT[request.node.nodeid] = time.perf_counter() - start
        return out
    return run

def pytest_runtest_logreport(report):
    TOTAL[report.nodeid] = TOTAL.get(report.nodeid, 0.0) + report.duration
    if report.when == "teardown":
        with open(os.environ["BENCH_OUT"], "a") as f:
            f.write(json.dumps({"worker": os.environ.get("PYTEST_XDIST_WORKER", "main"), "test": report.nodeid,
                                "overhead": TOTAL[report.nodeid] - CLIENT.get(report.nodeid, 0.0)}) + "\\n")
'''

TEST = '''
import pytest

@pytest.mark.parametrize("i", range({count}))
@pytest.mark.multihead(monitors=["1920x1080"]{options})
def test_shape(multihead_server, client_time, i):
    s = multihead_server
    # On Xorg with Multihead's driver the second monitor is a cable, on Wayland an output (the X client sees
    # it through Xwayland); on Xvfb a virtual monitor.
    second = "HDMI-1" if s.kind in ("xorg", "wayland") else "SECOND"
    s.plug(second, "1280x720+1920+0")
    assert [x["name"] for x in s.screens()][1:] == [second]
    listed = client_time(["xrandr", "--listmonitors"], s.env)
    # Xwayland 22.1 names its outputs XWAYLAND0, 1, …: there, the count says the plug was seen.
    assert ("Monitors: 2" in listed) if s.kind == "wayland" else (second in listed)
    s.unplug(second)
'''


def pytest_overheads(count, fresh=False, workers=None, kind=None):
    """Each test's overhead in ms, in the order each worker ran them, the first 20 of each worker dropped;
    on the default kind unless `kind` names one."""
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        (root / "conftest.py").write_text(CONFTEST)
        options = (", fresh=True" if fresh else "") + (f", kind={kind!r}" if kind else "")
        (root / "test_shape.py").write_text(TEST.format(count=count, options=options))
        out = root / "out.jsonl"
        env = dict(os.environ, BENCH_OUT=str(out))
        env.pop("DISPLAY", None)
        args = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", f"--multihead-bin={CLI}", str(root)]
        if workers:
            args += ["-n", str(workers)]
        done = subprocess.run(args, env=env, cwd=folder, capture_output=True, text=True)
        if done.returncode != 0:
            sys.exit(f"pytest failed:\n{done.stdout[-3000:]}\n{done.stderr[-2000:]}")
        by_worker = {}
        for line in out.read_text().splitlines():
            r = json.loads(line)
            by_worker.setdefault(r["worker"], []).append(r["overhead"] * 1000)
        skip = 5 if fresh else 20
        return [v for runs in by_worker.values() for v in runs[skip:]]


def c_test_ms(count):
    out = subprocess.run([BASELINE, "pytestshape", str(count)], capture_output=True, text=True, check=True,
                         env={k: v for k, v in os.environ.items() if k != "DISPLAY"}).stdout
    return float(out.split("median_us=")[1]) / 1000


def timed(cmd, env, count, after=None):
    """The median wall time of a command in ms; `after` (untimed) undoes it between runs."""
    times = []
    for _ in range(count):
        start = time.perf_counter()
        subprocess.run(cmd, env=env, check=True, capture_output=True)
        times.append((time.perf_counter() - start) * 1000)
        if after:
            subprocess.run(after, env=env, check=True, capture_output=True)
    return statistics.median(times)


def row(name, swift, c):
    print(f"| {name} | {swift:.2f} ms | {c:.2f} ms | {swift / c:.2f}x |", flush=True)


def default_kind():
    out = subprocess.run([CLI, "doctor", "--json"], capture_output=True, text=True).stdout
    return json.loads(out)["defaultKind"]


def main():
    c = c_test_ms(15)
    kind = default_kind()
    warm = pytest_overheads(220)
    row(f"pytest test (lease, plug, screens, X client, unplug), overhead less its client, warm lease of the default kind ({kind}), "
        "median of 200 after 20, against C on a fresh Xvfb each", statistics.median(warm), c)
    warm_xvfb = pytest_overheads(220, kind="xvfb")
    row("the same on Xvfb (kind=\"xvfb\"), median of 200 after 20, against C on a fresh Xvfb each", statistics.median(warm_xvfb), c)
    warm_wayland = pytest_overheads(220, kind="wayland")
    row("the same on Multihead's Wayland compositor (kind=\"wayland\"; the X client through Xwayland), median of 200 after 20, "
        "against C on a fresh Xvfb each", statistics.median(warm_wayland), c)
    parallel = pytest_overheads(440, workers=2)
    row(f"the same on the default kind ({kind}) under -n 2 (median of 400 after 20 per worker), against C on a fresh Xvfb each",
        statistics.median(parallel), c)
    fresh = pytest_overheads(35, fresh=True)
    row(f"the same on the default kind ({kind}) with fresh=True (a multihead server per test), median of 30 after 5, against C",
        statistics.median(fresh), c)

    server = MultiheadServer(CLI, monitors=["1920x1080"], kind="xvfb")
    try:
        x_env = dict(server.env)
        socket_env = dict(server.env, MULTIHEAD_CONTROL=server._control.path)
        plug = [CLI, "plug", "EXT-1", "640x480+1920+0"]
        unplug = [CLI, "unplug", "EXT-1"]
        xrandr = ["xrandr", "--setmonitor", "EXT-1", "640/169x480/127+1920+0", "none"]
        xrandr_off = ["xrandr", "--delmonitor", "EXT-1"]
        for _ in range(5):
            timed(plug, socket_env, 1, unplug)
        through = timed(plug, socket_env, 50, unplug)
        direct = timed(plug, x_env, 50, unplug)
        c_plug = timed(xrandr, x_env, 50, xrandr_off)
    finally:
        server.stop()
    row("multihead plug through the control socket (MULTIHEAD_CONTROL), median of 50, against xrandr --setmonitor", through, c_plug)
    row("multihead plug over its own X connection, median of 50, against xrandr --setmonitor", direct, c_plug)


if __name__ == "__main__":
    main()
