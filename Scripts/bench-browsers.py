#!/usr/bin/env python3
"""The browser rows (Scripts/bench-browsers): a browser test's overhead, its fixture's setup and teardown
(the test's own call left out), with a fresh browser per test (`multihead_chromium`, `multihead_selenium`)
and with one shared by the module (`multihead_chromium_shared`, `multihead_selenium_shared`: a test that
changed nothing, one that plugged a monitor, which the restore unplugs, and the module's first test, which
launches it), each against the fresh launch of its driver; and the latency of Chromium's `screenschange`
after a `plug` (from the start of `plug`'s request) on each kind of server. Each group is a pytest session
of its own (no xdist), on the default kind unless it says another; the first test of each session (the
Playwright driver's start, the warm server's) is left out of the fresh rows. Usage: bench-browsers.py
MULTIHEAD_CLI [RUNS] (in a venv with pytest, Playwright, Selenium and the plugin). Prints a markdown table."""

import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

CLI = sys.argv[1]
RUNS = int(sys.argv[2]) if len(sys.argv) > 2 else 10

CONFTEST = '''
import json, os

def pytest_runtest_logreport(report):
    with open(os.environ["BENCH_OUT"], "a") as f:
        f.write(json.dumps({"test": report.nodeid, "when": report.when, "duration": report.duration,
                            "outcome": report.outcome}) + "\\n")
'''

OVERHEAD = '''
import pytest

{mark}

@pytest.mark.parametrize("i", range({runs}))
def test_a_page(FIXTURE, multihead_server, i):
    # The test's own work: what the page sees.
    assert len(FIXTURE.screens()) == 2
    if {plug}:
        multihead_server.plug("HDMI-1", "1280x720+3200+0")
'''

LATENCY = '''
import json, os, time
import pytest

@pytest.mark.multihead(monitors=["1920x1080", "1280x720"], kind={kind!r})
def test_latency(multihead_chromium, multihead_server):
    b, s = multihead_chromium, multihead_server
    second = {{"xorg": "HDMI-1", "wayland": "HDMI-1", "xorg-dummy": "DUMMY2", "xvfb": "VIRTUAL-3"}}[s.kind]
    plugged, unplugged = [], []
    for _ in range({runs}):
        try:
            with b.expect_screens_change(timeout=3 if s.kind == "xvfb" else 10) as change:
                s.plug(second, "1280x720+3200+0")
            plugged.append(change.value.latency_ms)
        except Exception:
            # Xvfb: Chromium sees no plug (one screen, the X root), once is enough to say so.
            plugged.append(None)
            s.unplug(second)
            break
        with b.expect_screens_change() as change:
            s.unplug(second)
        unplugged.append(change.value.latency_ms)
    with open(os.environ["BENCH_LATENCY"], "w") as f:
        json.dump({{"plug": plugged, "unplug": unplugged}}, f)
'''


def session(folder: Path, source: str, *extra: str) -> list[dict]:
    """Runs one pytest session of `source` and returns its reports."""
    folder.mkdir(parents=True)
    (folder / "conftest.py").write_text(CONFTEST)
    (folder / "test_bench.py").write_text(source)
    out = folder / "reports.jsonl"
    env = dict(os.environ, BENCH_OUT=str(out), BENCH_LATENCY=str(folder / "latency.json"))
    done = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-p", "no:randomly", "-q",
                           f"--multihead-bin={CLI}", *extra, str(folder)], cwd=folder, env=env, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"bench-browsers: the session in {folder} failed:\n{done.stdout[-4000:]}\n{done.stderr[-2000:]}")
    return [json.loads(line) for line in out.read_text().splitlines()]


def overheads(reports: list[dict]) -> list[float]:
    """Each test's setup and teardown (ms), in the order run."""
    tests: dict[str, float] = {}
    for r in reports:
        if r["when"] in ("setup", "teardown"):
            tests[r["test"]] = tests.get(r["test"], 0.0) + r["duration"] * 1000
    return list(tests.values())


def main() -> None:
    scratch = Path(tempfile.mkdtemp(prefix="bench-browsers-"))
    rows = []  # (row, value ms or None, baseline ms, note)
    for driver, fresh, shared in (("Playwright", "multihead_chromium", "multihead_chromium_shared"),
                                  ("Selenium", "multihead_selenium", "multihead_selenium_shared")):
        source = lambda fixture, plug, mark="": OVERHEAD.format(runs=RUNS + 1, mark=mark, plug=plug).replace("FIXTURE", fixture)
        first, *rest = overheads(session(scratch / fresh, source(fresh, False)))
        baseline = statistics.median(rest)
        rows.append((f"`{fresh}` ({driver}): a test's overhead, a fresh browser", baseline, baseline, "the baseline"))
        still = overheads(session(scratch / shared, source(shared, False, "pytestmark = pytest.mark.multihead()")))
        rows.append((f"`{shared}`: a test's overhead, the browser shared", statistics.median(still[1:]), baseline,
                     "restore: layout unchanged"))
        plugged = overheads(session(scratch / (shared + "-plug"), source(shared, True, "pytestmark = pytest.mark.multihead()")))
        rows.append((f"`{shared}`: a test that plugged a monitor", statistics.median(plugged[1:]), baseline,
                     "restore: unplug, the page waits to see it"))
        rows.append((f"`{shared}`: the module's first test", statistics.median([still[0], plugged[0]]), baseline,
                     "its own server and the launch"))
    launch = rows[0][1]
    for kind in ("xorg", "xorg-dummy", "wayland", "xvfb"):
        folder = scratch / f"latency-{kind}"
        session(folder, LATENCY.format(kind=kind, runs=RUNS))
        seen = json.loads((folder / "latency.json").read_text())
        values = [v for v in seen["plug"] if v is not None]
        if values:
            rows.append((f"`screenschange` after `plug`, {kind} (median of {len(values)})", statistics.median(values), launch,
                         f"unplug: {statistics.median(seen['unplug']):.0f} ms"))
        else:
            rows.append((f"`screenschange` after `plug`, {kind}", None, launch, "never: Chromium sees one screen, the X root"))
    print("| row | value | baseline: a fresh launch | ratio | note |")
    print("|---|---|---|---|---|")
    for row, value, base, note in rows:
        shown = "—" if value is None else f"{value:.0f} ms"
        ratio = "—" if value is None else f"{value / base:.3f}×"
        print(f"| {row} | {shown} | {base:.0f} ms | {ratio} | {note} |")


if __name__ == "__main__":
    main()
