"""Warm servers: each test leases this worker's one `multihead server`, reset to fresh and checked, with a
cookie of its own; what one test leaves is gone in the next."""

import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

from test_plugin import alive, run, running

HERE = Path(__file__).resolve().parent
XCLIENT = HERE / "xclient.py"
SERVER_STATE = HERE.parents[2] / "Tests" / "ToolkitClients" / "server-state.py"


def test_each_test_leases_the_same_server_with_its_own_cookie(pytester):
    pytester.makepyfile(
        f"""
        import subprocess, sys
        import pytest

        @pytest.mark.parametrize("i", range(3))
        @pytest.mark.multihead(monitors=["1920x1080"])
        def test_lease(multihead_server, i):
            s = multihead_server
            before = [x["name"] for x in s.screens()]
            assert len(before) == 1
            s.plug("EXT-1", "1280x720+1920+0")
            assert [x["name"] for x in s.screens()] == before + ["EXT-1"]
            assert s.warm and not s.replaced
            print("LEASE", s.display, s.pid, s.xauthority, s.cli_pid)
            assert subprocess.run([sys.executable, {str(XCLIENT)!r}, "connect"], env=s.env,
                                  capture_output=True, text=True).stdout == "connected\\n"
        """
    )
    result = run(pytester, "-s")
    result.assert_outcomes(passed=3)
    leases = re.findall(r"LEASE (\S+) (\d+) (\S+) (\d+)", result.stdout.str())
    assert len(leases) == 3
    assert len({(d, pid, cli) for d, pid, _, cli in leases}) == 1, "one X server and one multihead server served all"
    assert len({auth for _, _, auth, _ in leases}) == 3, "each lease has its own authority file"
    assert not any(os.path.exists(auth) for _, _, auth, _ in leases), "a lease's file outlived it"
    cli = int(leases[0][3])
    assert not alive(cli), "the warm server outlived the session"


def test_what_a_test_leaves_is_gone_in_the_next(pytester, tmp_path):
    """Root properties, an extra monitor, a changed mode and primary, xset settings, xrdb resources, xhost +,
    a window of a client still running (and busy), a held key: all gone for the next test, whose state reads
    as the first (fresh) test's did; the last test's display and authority open nothing."""
    pytester.makepyfile(
        f"""
        import json, os, subprocess, sys
        import pytest

        XCLIENT = {str(XCLIENT)!r}
        STATE = {{}}

        def read(s):
            def py(*args):
                done = subprocess.run([sys.executable, *args], env=s.env, capture_output=True, text=True, check=True)
                return json.loads(done.stdout)
            return {{"screens": s.screens(), "server": py({str(SERVER_STATE)!r}), "client": py(XCLIENT, "state")}}

        def sh(s, *cmd, stdin=None):
            subprocess.run(cmd, env=s.env, input=stdin, text=True, check=True, capture_output=True)

        def test_1_fresh(multihead_server):
            STATE["fresh"] = read(multihead_server)
            STATE["pid"] = multihead_server.pid

        def test_2_leaves_everything(multihead_server):
            s = multihead_server
            assert s.pid == STATE["pid"]
            sh(s, "xprop", "-root", "-f", "MH_LEFT", "8s", "-set", "MH_LEFT", "yes")
            s.plug("EXT-9", "800x600+3200+0", primary=True)
            s.mode(s.screens()[1]["name"], "1024x768")
            sh(s, "xset", "s", "300", "60", "r", "rate", "300", "50")
            sh(s, "xrdb", "-merge", "-", stdin="Left.behind: 1\\n")
            sh(s, "xhost", "+")
            left = []
            for mode in ("window", "keydown"):
                p = subprocess.Popen([sys.executable, XCLIENT, mode], env=s.env, stdout=subprocess.PIPE, text=True)
                assert p.stdout.readline() == "ready\\n"
                left.append(p)
            STATE["left"], STATE["env"] = left, s.env
            now = read(s)
            for part in ("screens", "server", "client"):
                assert now[part] != STATE["fresh"][part], part + " did not change"
            assert now["client"]["mappedWindows"] == 1 and 38 in now["client"]["keysHeld"]
            assert "MH_LEFT" in now["client"]["rootProperties"]

        def test_3_finds_it_fresh(multihead_server):
            s = multihead_server
            assert s.pid == STATE["pid"], "the server was replaced, not reset"
            # The last test's clients were closed when its lease ended: they are gone.
            for p in STATE["left"]:
                assert p.wait(timeout=30) != 0
            assert read(s) == STATE["fresh"]
            # What the last test was given opens nothing now.
            out = subprocess.run([sys.executable, XCLIENT, "connect"], env=STATE["env"], capture_output=True, text=True)
            assert out.stdout == "refused\\n"
        """
    )
    result = run(pytester, "-p", "no:randomly")
    result.assert_outcomes(passed=3)


def test_fresh_marker_gives_a_server_of_the_tests_own(pytester):
    pytester.makepyfile(
        """
        import os, signal
        import pytest
        from pytest_multihead import MultiheadError

        PIDS = []

        def test_warm(multihead_server):
            PIDS.append(multihead_server.pid)

        @pytest.mark.multihead(fresh=True)
        def test_fresh_kills_its_server(multihead_server):
            assert multihead_server.pid not in PIDS
            os.kill(multihead_server.pid, signal.SIGKILL)
            with pytest.raises(MultiheadError):
                multihead_server.screens()

        def test_warm_again(multihead_server):
            assert multihead_server.pid == PIDS[0]
        """
    )
    run(pytester, "-p", "no:randomly").assert_outcomes(passed=3)


def test_a_replaced_server_says_so(pytester):
    """A keymap changed with xmodmap cannot be reset: the next lease gets a new X server, and says why."""
    pytester.makepyfile(
        """
        import subprocess
        PIDS = []

        def test_changes_the_keymap(multihead_server):
            PIDS.append(multihead_server.pid)
            subprocess.run(["xmodmap", "-e", "keycode 38 = z"], env=multihead_server.env, check=True)

        def test_gets_another_server(multihead_server):
            assert multihead_server.replaced and multihead_server.pid != PIDS[0]
            assert "keymap" in multihead_server.reason.lower() or "keyboard" in multihead_server.reason.lower()
            assert [s["frame"]["width"] for s in multihead_server.screens()] == [1920, 1280]
        """
    )
    run(pytester, "-p", "no:randomly").assert_outcomes(passed=2)


def test_each_xdist_worker_keeps_one_server(pytester):
    pytest.importorskip("xdist")
    pytester.makepyfile(
        """
        import os
        import pytest

        @pytest.mark.parametrize("i", range(8))
        def test_lease(multihead_server, i):
            multihead_server.plug(f"EXT-{i}", "640x480+4000+0")
            assert [s["frame"]["width"] for s in multihead_server.screens()] == [1920, 1280, 640]
            assert multihead_server.screens()[-1]["name"] == f"EXT-{i}"
            print("WORKER", os.environ["PYTEST_XDIST_WORKER"], multihead_server.pid)
        """
    )
    result = run(pytester, "-n", "2", "-s")
    result.assert_outcomes(passed=8)
    seen = {}
    for worker, pid in re.findall(r"WORKER (\S+) (\d+)", result.stdout.str()):
        seen.setdefault(worker, set()).add(pid)
    assert all(len(pids) == 1 for pids in seen.values()), seen
    assert len(set().union(*seen.values())) == len(seen), "two workers shared a server"


def test_a_client_holding_a_grab_gets_the_server_replaced(pytester):
    """A client of the last test that grabbed the server keeps the reset from running: after the control
    connection's timeout the next test gets a new server, and the lease says why."""
    pytester.makepyfile(
        f"""
        import subprocess, sys
        GRAB = "import ctypes, ctypes.util\\nx = ctypes.CDLL(ctypes.util.find_library('X11'))\\nx.XOpenDisplay.restype = ctypes.c_void_p\\nd = ctypes.c_void_p(x.XOpenDisplay(None))\\nx.XGrabServer(d)\\nx.XSync(d, 0)\\nprint('grabbed', flush=True)\\nwhile True:\\n    x.XSync(d, 0)\\n"
        PIDS = []

        def test_grabs(multihead_server):
            PIDS.append(multihead_server.pid)
            p = subprocess.Popen([sys.executable, "-c", GRAB], env=multihead_server.env, stdout=subprocess.PIPE, text=True)
            assert p.stdout.readline() == "grabbed\\n"

        def test_next(multihead_server):
            assert multihead_server.replaced and multihead_server.pid != PIDS[0]
            assert "not responding" in multihead_server.reason
            assert [s["frame"]["width"] for s in multihead_server.screens()] == [1920, 1280]
        """
    )
    run(pytester, "-p", "no:randomly").assert_outcomes(passed=2)


@pytest.mark.parametrize("kind", ["xvfb", "xorg-dummy"])
def test_a_warm_server_that_stops_answering_is_replaced_and_the_next_test_told(pytester, tmp_path, kind):
    """A test stops its warm `multihead server` (SIGSTOP): its own teardown says the lease could not be
    released within seconds; the next test gets a fresh server, with a warning and the lease's `replaced`
    and `reason` saying why; the stopped server and its X server are gone, and so are their files."""
    record = tmp_path / "pids"
    pytester.makepyfile(
        f"""
        import os, signal
        SEEN = {{}}

        def test_1_stops_its_server(multihead_server):
            with open({str(record)!r}, "w") as f:
                f.write(f"{{multihead_server.cli_pid}} {{multihead_server.pid}} {{multihead_server.display}}")
            SEEN["cli"], SEEN["screens"] = multihead_server.cli_pid, multihead_server.screens()
            os.kill(multihead_server.cli_pid, signal.SIGSTOP)

        def test_2_gets_a_fresh_one(multihead_server):
            assert multihead_server.cli_pid != SEEN["cli"]
            assert multihead_server.replaced and "did not answer `hello`" in multihead_server.reason
            assert multihead_server.screens() == SEEN["screens"]
            SEEN["new"] = multihead_server.cli_pid

        def test_3_keeps_it(multihead_server):
            assert multihead_server.cli_pid == SEEN["new"] and not multihead_server.replaced
        """
    )
    started = time.monotonic()
    result = run(pytester, "-p", "no:randomly", f"--multihead-kind={kind}")
    took = time.monotonic() - started
    result.assert_outcomes(passed=3, errors=1, warnings=1)
    cli, xserver, display = record.read_text().split()
    result.stdout.fnmatch_lines([
        "*ERROR at teardown of test_1_stops_its_server*",
        f"*`multihead release` could not use the control socket *: its `multihead server` (PID {cli}) did not answer `hello` (no answer within 5 s*the lease was not released",
    ])
    result.stdout.fnmatch_lines([
        f"*MultiheadWarning: the worker's warm {kind} server was replaced by a fresh one: its `multihead server` (PID {cli}) did not answer `hello`*",
    ])
    # One wait for `hello` (5 s) at the teardown, not an answer timeout (60 s) for every test after it.
    assert took < 45, took
    assert not running(int(cli)) and not running(int(xserver))
    tmp = os.environ.get("TMPDIR", "/tmp")
    assert [n for n in os.listdir(tmp) if n.startswith(f"multihead-{cli}-")] == []
    number = display.lstrip(":")
    lock = Path(f"/tmp/.X{number}-lock")
    assert not lock.exists() or lock.read_text().strip() != xserver, "the killed X server's lock is left"
