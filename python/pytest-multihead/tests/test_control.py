"""The control socket as any client sees it (docs/control-socket.md): requests and answers, refusals that
never end the server, the user check, and the CLI going through it."""

import json
import os
import shutil
import socket
import subprocess
import sys
import threading
import time

import pytest

from pytest_multihead import ControlError, MultiheadError, MultiheadServer
from pytest_multihead.server import Control


@pytest.fixture
def server(request):
    # Xvfb: these tests name its virtual monitors (VIRTUAL-1, and EXT-1 plugged beside it).
    s = MultiheadServer(request.config.getoption("--multihead-bin"), monitors=["1920x1080"], kind="xvfb")
    yield s
    s.stop()


def raw(path, *lines):
    """Sends raw lines on one connection; the answers, one per line sent (None once the server closed it)."""
    with socket.socket(socket.AF_UNIX) as s:
        s.settimeout(30)
        s.connect(path)
        f = s.makefile("rb")
        answers = []
        for line in lines:
            try:
                s.sendall(line + b"\n")
            except (BrokenPipeError, ConnectionResetError):
                pass  # the server may have answered and closed already: its answer is still there to read
            try:
                got = f.readline()
            except (ConnectionResetError, OSError):
                got = b""
            answers.append(json.loads(got) if got else None)
        return answers


def test_requests_and_their_answers(server):
    c = Control(server._control.path)
    hello = c.request("hello")
    assert hello["protocol"] == 2 and hello["kind"] == "xvfb" and hello["pid"] == server.pid and hello["leased"]
    c.request("plug", name="EXT-1", geometry="1280x720+1920+0")
    assert [s["name"] for s in c.request("screens")["screens"]] == ["VIRTUAL-1", "EXT-1"]
    assert c.request("mode", name="EXT-1", size="800x600")["mode"]["width"] == 800
    assert c.request("pixel", x=10, y=10, screen="EXT-1")["pixel"] == "#000000"
    c.request("unplug", name="EXT-1")
    assert c.request("release") == {"ok": True, "kept": True, "reason": None}
    with pytest.raises(MultiheadError) as caught:
        c.request("screens")
    assert caught.value.code == "noLease" and caught.value.status == 64
    lease = c.request("lease", monitors=["1024x768", "800x600"])
    assert lease["warm"] and not lease["replaced"] and lease["pid"] == server.pid
    assert [s["frame"]["width"] for s in c.request("screens")["screens"]] == [1024, 800]
    c.close()


def test_fields_are_the_one_encoding(server, tmp_path):
    """Fields, as the CLI sends them too: its folder for relative paths; a command line (`arguments`) is no
    field, and a value is a value, never an option."""
    c = Control(server._control.path)
    c.request("plug", name="EXT-1", geometry="1280x720+1920+0", primary=True)
    assert [(s["name"], s["primary"]) for s in c.request("screens")["screens"]] == [("EXT-1", True), ("VIRTUAL-1", False)]
    assert c.request("mode", name="EXT-1", size="800x600")["name"] == "EXT-1"
    shot = c.request("screenshot", screen="EXT-1", output="ext.png", directory=str(tmp_path))
    assert shot["output"] == str(tmp_path / "ext.png") and (tmp_path / "ext.png").read_bytes()[:4] == b"\x89PNG"
    for request, fields, code in [("unplug", {"arguments": ["EXT-1"]}, "unknownField"),
                                  ("screenshot", {"output": "rel.png"}, "invalidField"),
                                  ("unplug", {"name": "--display"}, "noSuchScreen"),
                                  ("plug", {"name": "X", "geometry": "-100x100+0+0"}, "usage")]:
        with pytest.raises(MultiheadError) as caught:
            c.request(request, **fields)
        assert caught.value.code == code, fields
    c.request("unplug", name="EXT-1")
    c.close()


def test_refusals_never_end_the_server(server):
    path = server._control.path
    answers = raw(path, b"not json", b"[1, 2]", b'{"no": "request"}', b'{"request": "fly", "id": 7}',
                  b'{"request": "plug", "name": "X", "geometry": "1x1+0+0", "colour": "red"}',
                  b'{"request": "plug", "name": "X"}', b'{"request": "plug", "name": "X", "geometry": "12x"}',
                  b'{"request": "plug", "name": "X", "geometry": "-5x5+0+0"}',
                  b'{"request": "mode", "name": "VIRTUAL-1", "size": "800x600", "rate": "fast"}',
                  b'{"request": "screenshot", "output": "relative.png"}',
                  b'{"request": "pixel", "x": -1, "y": 0}', b'{"request": "unplug", "name": "NOPE"}')
    codes = [(a["error"]["code"], a["error"]["status"]) for a in answers]
    assert codes == [("malformedRequest", 64), ("malformedRequest", 64), ("malformedRequest", 64),
                     ("unknownRequest", 64), ("unknownField", 64), ("invalidField", 64), ("usage", 64),
                     ("usage", 64), ("invalidField", 64), ("invalidField", 64), ("invalidField", 64), ("noSuchScreen", 64)]
    assert answers[3]["id"] == 7 and "the requests are hello, lease" in answers[3]["error"]["message"]
    # A line past the limit is refused and its connection closed; the server answers the next one.
    too_long = raw(path, b'{"request": "hello", "pad": "' + b"x" * (1 << 20) + b'"}', b'{"request": "hello"}')
    assert too_long[0]["error"]["code"] == "requestTooLong" and too_long[1] is None
    # A blank line is no request; the next line is answered.
    assert raw(path, b'\n\n{"request": "hello", "id": "a"}')[0]["id"] == "a"
    assert server.alive() and server.screens()[0]["name"] == "VIRTUAL-1"


@pytest.mark.skipif(os.geteuid() != 0 or not shutil.which("setpriv"), reason="needs root to act as another user")
def test_another_user_is_refused(server, tmp_path, request):
    # Another user cannot enter the folder the socket is in.
    probe = "import socket, sys\ntry:\n    socket.socket(socket.AF_UNIX).connect(sys.argv[1])\n    print('connected')\nexcept OSError as e:\n    print(type(e).__name__)\n"
    out = subprocess.run(["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups", sys.executable, "-c", probe,
                          server._control.path], capture_output=True, text=True).stdout
    assert out == "PermissionError\n"
    # A server another user started refuses this process (root) with `forbidden`, and serves on.
    folder = tmp_path / "cli"
    folder.mkdir()
    os.chmod(tmp_path, 0o755)
    os.chmod(folder, 0o755)
    cli = folder / "multihead"
    shutil.copy(request.config.getoption("--multihead-bin"), cli)
    env = {"PATH": os.environ["PATH"], "HOME": "/nonexistent", "TMPDIR": "/tmp"}
    p = subprocess.Popen(["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups", str(cli), "server", "--xvfb"], env=env,
                         cwd="/", stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        values = {}
        while "MULTIHEAD_PID" not in values:
            key, _, value = p.stdout.readline().strip().partition("=")
            assert key, p.stderr.read()
            values[key] = value
        refused = raw(values["MULTIHEAD_CONTROL"], b'{"request": "hello"}')[0]
        assert refused["error"]["code"] == "forbidden" and refused["error"]["status"] == 77
    finally:
        p.terminate()
        assert p.wait(timeout=30) == 143


def test_the_cli_goes_through_the_socket(server, tmp_path):
    binary = server.binary
    # No X connection of its own: DISPLAY names a server that does not exist.
    env = dict(os.environ, MULTIHEAD_CONTROL=server._control.path, DISPLAY=":9999", XAUTHORITY="/nonexistent")

    def cli(*args):
        return subprocess.run([binary, *args], env=env, capture_output=True, text=True, cwd=tmp_path)

    assert cli("plug", "EXT-1", "640x480+1920+0").returncode == 0
    listed = cli("screens", "--json")
    assert listed.returncode == 0 and [s["name"] for s in json.loads(listed.stdout)] == ["VIRTUAL-1", "EXT-1"]
    table = cli("screens").stdout.splitlines()
    assert table[0].split()[:2] == ["NAME", "MAIN"] and table[2].startswith("EXT-1")
    assert cli("mode", "EXT-1", "800x600").stdout == "EXT-1: 800x600\n"
    shot = cli("screenshot", "--screen", "EXT-1", "-o", "ext.png")
    assert shot.returncode == 0 and shot.stdout == "ext.png: 800x600\n"
    assert (tmp_path / "ext.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    bad = cli("unplug", "NOPE")
    assert bad.returncode == 64 and "NOPE" in bad.stderr
    assert cli("unplug", "EXT-1").returncode == 0
    # A socket that is not there is 69, with the path.
    gone = subprocess.run([binary, "screens"], env=dict(env, MULTIHEAD_CONTROL=str(tmp_path / "none.sock")),
                          capture_output=True, text=True)
    assert gone.returncode == 69 and "none.sock" in gone.stderr


def test_a_lease_acts_only_while_it_is_held(server, tmp_path):
    """Each request of a lease carries its identity: once another lease has begun, the old one's requests
    (release included) are refused with noLease and change nothing."""
    a = server.lease(["1920x1080"])
    b = server.lease(["1920x1080"])
    assert a.lease_id and b.lease_id and a.lease_id != b.lease_id
    stale = [lambda: a.plug("EXT-A", "800x600+1920+0"), lambda: a.unplug("VIRTUAL-1"),
             lambda: a.mode("VIRTUAL-1", "800x600"), a.screens, lambda: a.pixel(0, 0),
             lambda: a.screenshot(tmp_path / "a.png")]
    for call in stale:
        with pytest.raises(MultiheadError) as caught:
            call()
        assert (caught.value.code, caught.value.status) == ("noLease", 64), caught.value
    assert [(s["name"], s["frame"]["width"]) for s in b.screens()] == [("VIRTUAL-1", 1920)]
    assert not (tmp_path / "a.png").exists()
    a.stop()  # its release releases nothing: B is still held
    assert [s["name"] for s in b.screens()] == ["VIRTUAL-1"]
    b.stop()
    with pytest.raises(MultiheadError) as caught:
        b.screens()
    assert caught.value.code == "noLease"


class FakeControl:
    """A control socket that answers each connection's first request as told: bytes to send, None to close
    without answering, or "silent" to answer nothing until the client goes."""

    def __init__(self, path, *answers):
        self.path = str(path)
        #: Set as each connection is closed, in order.
        self.closed = [threading.Event() for _ in answers]
        self._listener = socket.socket(socket.AF_UNIX)
        self._listener.bind(self.path)
        self._listener.listen()
        self._thread = threading.Thread(target=self._serve, args=(answers,), daemon=True)
        self._thread.start()

    def _serve(self, answers):
        for answer, closed in zip(answers, self.closed):
            conn, _ = self._listener.accept()
            with conn:
                conn.makefile("rb").readline()
                if answer == "silent":
                    conn.recv(1)  # until the client closes the connection
                elif answer is not None:
                    conn.sendall(answer)
            closed.set()

    def close(self):
        self._thread.join(timeout=30)
        self._listener.close()
        assert not self._thread.is_alive()


@pytest.mark.parametrize("answer, said", [
    (None, "it closed before answering"),
    (b"not json\n", "its answer is malformed"),
    (b"[1, 2]\n", "its answer is malformed"),
    (b'{"ok": false}\n', "its answer is malformed"),
])
def test_a_socket_that_fails_is_a_multihead_error_naming_it(tmp_path, answer, said):
    fake = FakeControl(tmp_path / "c.sock", answer)
    c = Control(fake.path)
    with pytest.raises(ControlError) as caught:
        c.request("screens")
    c.close()
    fake.close()
    assert isinstance(caught.value, MultiheadError)
    assert (caught.value.code, caught.value.status, caught.value.path) == ("controlUnavailable", 69, fake.path)
    assert str(caught.value).startswith(f"`multihead screens` could not use the control socket {fake.path}: {said}")


def test_a_socket_that_does_not_answer_in_time_is_left_and_the_next_request_connects_again(tmp_path):
    fake = FakeControl(tmp_path / "c.sock", "silent", b'{"ok": true, "protocol": 1}\n')
    c = Control(fake.path)
    started = time.monotonic()
    with pytest.raises(ControlError) as caught:
        c.request("hello", timeout=0.5)
    assert time.monotonic() - started < 5
    assert "no answer within 0.5 s" in str(caught.value) and fake.path in str(caught.value)
    # A new connection: the first one's answer, should it come late, is never read as this one's.
    assert c.request("hello") == {"ok": True, "protocol": 1}
    c.close()
    fake.close()


def test_a_socket_that_is_gone_is_a_multihead_error_naming_it(server, tmp_path):
    with pytest.raises(ControlError) as caught:
        Control(str(tmp_path / "none.sock"))
    assert "none.sock" in str(caught.value) and "cannot connect" in str(caught.value)
    c = Control(server._control.path)
    server.stop()  # the server ends: its socket closes
    with pytest.raises(ControlError) as caught:
        c.request("screens")
    assert caught.value.path == server._control.path and caught.value.status == 69
    c.close()


def test_a_connection_the_server_closed_while_idle_is_made_again(tmp_path):
    """The server closes a connection idle for long (300 s); the next request connects again instead of
    failing, so a warm server idle between tests is not taken for gone."""
    fake = FakeControl(tmp_path / "c.sock", b'{"ok": true, "n": 1}\n', b'{"ok": true, "n": 2}\n')
    c = Control(fake.path)
    assert c.request("hello")["n"] == 1
    assert fake.closed[0].wait(timeout=30)
    assert c.request("hello")["n"] == 2
    c.close()
    fake.close()
