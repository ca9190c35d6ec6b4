"""The `wayland` kind (issue 56's "done when"): a test leases the worker's warm `multihead server --wayland`,
plugs HDMI-1 at scale 2 with a make and model, a GTK 4 and a Qt 6 client on native Wayland see it with that
scale and identity and see their monitor lists shrink at the unplug; the next test on the same server sees none of it,
and the last test's client has been disconnected."""

import re
from pathlib import Path

from test_plugin import alive, run

CLIENTS = Path(__file__).resolve().parents[3] / "Compositor" / "tests" / "clients"
GTK4 = CLIENTS / "gtk4_monitors.py"
QT6 = CLIENTS / "qt6_screens.py"


def test_wayland_lease_plug_scale_unplug_and_isolation(pytester):
    pytester.makepyfile(
        f"""
        import json, os, select, subprocess, time
        import pytest

        def gtk4(env):
            # Debian's python3 has gi (the one running pytest may not); the client ends when its stdin closes.
            return subprocess.Popen(["/usr/bin/python3", {str(GTK4)!r}], env=dict(env, GDK_BACKEND="wayland"),
                                    stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)

        def qt6(env):
            return subprocess.Popen(["/usr/bin/python3", {str(QT6)!r}], env=dict(env, QT_QPA_PLATFORM="wayland"),
                                    stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)

        def wait_for(client, predicate, bound=20.0, event_name="monitors", key="connector"):
            # The client's JSON lines until one whose monitors satisfy `predicate` (a bound, not a sleep).
            deadline = time.monotonic() + bound
            seen = []
            while time.monotonic() < deadline:
                ready, _, _ = select.select([client.stdout], [], [], deadline - time.monotonic())
                if not ready:
                    break
                line = client.stdout.readline()
                if not line:
                    break
                event = json.loads(line)
                seen.append(event)
                if event.get("event") == event_name and predicate({{m[key]: m for m in event[event_name]}}):
                    return event
            raise AssertionError(f"no such monitor list within {{bound}} s: {{seen}}")

        @pytest.mark.multihead(kind="wayland", monitors=["1920x1080"])
        def test_1_plug_hdmi_at_scale_2(multihead_server):
            s = multihead_server
            assert s.kind == "wayland"
            for key in ("WAYLAND_DISPLAY", "XDG_RUNTIME_DIR", "DISPLAY"):
                assert s.env.get(key), key
            client = gtk4(s.env)
            qt = qt6(s.env)
            wait_for(client, lambda ms: list(ms) == ["DP-1"])
            wait_for(qt, lambda ss: list(ss) == ["DP-1"], event_name="screens", key="name")
            start = time.monotonic()
            s.plug("HDMI-1", "2560x1440+1920+0", scale=2, manufacturer="DEL", model="U2720Q")
            wait_for(client, lambda ms: "HDMI-1" in ms and ms["HDMI-1"]["scale"] == 2
                     and ms["HDMI-1"]["manufacturer"] == "Dell Inc." and ms["HDMI-1"]["model"] == "U2720Q")
            print("PLUG-SEEN-MS", round((time.monotonic() - start) * 1000, 1))
            wait_for(qt, lambda ss: "HDMI-1" in ss and ss["HDMI-1"]["dpr"] == 2
                     and ss["HDMI-1"]["manufacturer"] == "Dell Inc." and ss["HDMI-1"]["model"] == "U2720Q",
                     event_name="screens", key="name")
            hdmi = [x for x in s.screens() if x["name"] == "HDMI-1"]
            assert hdmi and hdmi[0]["scale"] == 2 and hdmi[0]["frame"]["width"] == 1280
            s.unplug("HDMI-1")
            wait_for(client, lambda ms: list(ms) == ["DP-1"])
            wait_for(qt, lambda ss: list(ss) == ["DP-1"], event_name="screens", key="name")
            qt.stdin.close()
            qt.wait(timeout=10)
            # Left running: the lease's end must disconnect it.
            with open("client.pid", "w") as f:
                f.write(str(client.pid))
            print("SERVER", s.cli_pid, s.pid, s.wayland_display)

        @pytest.mark.multihead(kind="wayland", monitors=["1920x1080"])
        def test_2_next_test_sees_none_of_it(multihead_server):
            s = multihead_server
            assert [x["name"] for x in s.screens()] == ["DP-1"]
            assert s.warm and not s.replaced
            last = int(open("client.pid").read())
            deadline = time.monotonic() + 10
            while time.monotonic() < deadline:
                try:
                    done, _ = os.waitpid(last, os.WNOHANG)
                except ChildProcessError:
                    done = last
                if done == last:
                    break
                select.select([], [], [], 0.02)
            else:
                raise AssertionError("the last test's GTK 4 client is still connected")
            client = gtk4(s.env)
            first = wait_for(client, lambda ms: list(ms) == ["DP-1"])
            assert first["monitors"][0]["scale"] == 1
            client.stdin.close()
            client.wait(timeout=10)
            print("SERVER", s.cli_pid, s.pid, s.wayland_display)
        """
    )
    result = run(pytester, "-s")
    result.assert_outcomes(passed=2)
    servers = set(re.findall(r"SERVER (\d+) (\d+) (\S+)", result.stdout.str()))
    assert len(servers) == 1, "one warm compositor served both tests"
    ((cli, compositor, _),) = servers
    assert not alive(int(cli)) and not alive(int(compositor)), "the warm server outlived the session"
    print(re.findall(r"PLUG-SEEN-MS \S+", result.stdout.str()))
