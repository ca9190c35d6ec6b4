"""Xwayland dying at any moment (killed at once after an eager start, a few ms, 50 ms, 1 s later; or
killed again while its restart is starting): the compositor, its Wayland clients and its socket survive,
and it ends cleanly. The delays are the experiment's variable, not waits: every wait polls a fact."""
import os
import select
import signal
import socket
import struct
import subprocess
import time

import pytest

from conftest import TIMEOUT, x_server_pids


def poll(condition, what, timeout=TIMEOUT):
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        assert time.monotonic() < deadline, f"not within {timeout} s: {what}"
        select.select([], [], [], 0.01)


def xwayland_pids(c):
    """This compositor's Xwayland: on its DISPLAY, and started with its XDG_RUNTIME_DIR (another suite's
    Xwayland may still be ending on the same display number)."""
    pids = x_server_pids(c.display, c.runtime)
    # Xwayland forks to run xkbcomp: such a child has Xwayland's command line until it execs.
    return {pid for pid in pids if parent(pid) not in pids}


def parent(pid):
    try:
        with open(f"/proc/{pid}/stat") as f:
            return int(f.read().rsplit(")", 1)[1].split()[1])
    except OSError:
        return None


def x_answers(display):
    """An X round trip on DISPLAY (xdpyinfo ends once it has its answers)."""
    env = {k: v for k, v in os.environ.items() if k != "WAYLAND_DISPLAY"}
    env["DISPLAY"] = display
    return subprocess.run(["xdpyinfo"], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                          timeout=TIMEOUT).returncode == 0


class RawClient:
    """A Wayland client of a few bytes (wl_display.sync round trips), connected in a millisecond, so
    that Xwayland can be killed right after the ready line with a client already there."""

    def __init__(self, path):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.connect(path)
        self.sock.settimeout(TIMEOUT)
        self.next_id, self.buf = 2, b""

    def round_trip(self):
        callback, self.next_id = self.next_id, self.next_id + 1
        self.sock.sendall(struct.pack("<III", 1, (12 << 16) | 0, callback))  # wl_display.sync
        while True:
            while len(self.buf) < 8 or len(self.buf) < struct.unpack("<II", self.buf[:8])[1] >> 16:
                chunk = self.sock.recv(4096)
                assert chunk, "the compositor closed the client's connection"
                self.buf += chunk
            obj, size_op = struct.unpack("<II", self.buf[:8])
            self.buf = self.buf[size_op >> 16:]
            if obj == callback and size_op & 0xFFFF == 0:  # wl_callback.done
                return

    def close(self):
        self.sock.close()


def start_with_a_wayland_client(start_compositor):
    c = start_compositor("--xwayland=eager", xwayland_starts=True)
    client = RawClient(os.path.join(c.runtime, c.wayland_display))
    client.round_trip()
    c.ok("plug DP-1 mode=1024x768")
    return c, client


def assert_alive(c, client):
    assert c.ok("ping") == "pong"
    client.round_trip()
    assert c.ok("clients") == "1", "the Wayland client lost its display"
    assert os.path.exists(os.path.join(c.runtime, c.wayland_display))
    # A new client of either kind still gets its monitors.
    gtk, lines = c.gtk4()
    lines.wait_for(lambda s: s["event"] == "monitors" and [m["connector"] for m in s["monitors"]] == ["DP-1"])
    client.close()


@pytest.mark.parametrize("delay", [0, 0.003, 0.05, 1.0])
def test_xwayland_killed_after_an_eager_start_is_survived_and_restarted(start_compositor, delay):
    c, client = start_with_a_wayland_client(start_compositor)
    (first,) = xwayland_pids(c)
    time.sleep(delay)  # the moment of the kill is what the test varies
    os.kill(first, signal.SIGKILL)
    # wlroots restarts an Xwayland that was ready: a new one serves the same DISPLAY.
    poll(lambda: xwayland_pids(c) - {first}, "a restarted Xwayland")
    assert x_answers(c.display)
    assert_alive(c, client)


def test_xwayland_killed_while_starting_is_survived(start_compositor):
    c, client = start_with_a_wayland_client(start_compositor)
    (first,) = xwayland_pids(c)
    os.kill(first, signal.SIGKILL)
    (second,) = poll(lambda: xwayland_pids(c) - {first}, "a restarted Xwayland")
    os.kill(second, signal.SIGKILL)  # most likely before it is ready: wlroots gives that start up
    poll(lambda: second not in xwayland_pids(c), "the second Xwayland gone")
    assert_alive(c, client)


def test_ending_while_xwayland_restarts_leaves_no_xwayland(start_compositor):
    """wlroots' go-between fork holds the compositor's ends of a starting Xwayland's sockets: unless the
    compositor ends it, that Xwayland and the fork wait for each other for ever."""
    c, client = start_with_a_wayland_client(start_compositor)
    (first,) = xwayland_pids(c)
    os.kill(first, signal.SIGKILL)
    poll(lambda: xwayland_pids(c) - {first}, "a restarted Xwayland")
    client.close()
    # stop() ends the compositor now, while the new Xwayland starts, and checks no Xwayland is left.
