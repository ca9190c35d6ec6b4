"""Bad input on the control channel and garbage on the Wayland socket: an error line or a dropped
client, never a dead compositor."""
import os
import socket
import struct
import time


BAD_LINES = [
    b"bogus",
    b"",
    b"plug",
    b"plug DP-9",
    b"plug HDMI-0",
    b"plug DP-1 mode=nanxnan",
    b"plug DP-1 mode=infx1080",
    b"plug DP-1 mode=0x0",
    b"plug DP-1 mode=-5x10",
    b"plug DP-1 mode=99999999999999999999x1",
    b"plug DP-1 mode=8192x8192",
    b"plug DP-1 mode=1920x1080@nan",
    b"plug DP-1 mode=1920x1080@0",
    b"plug DP-1 mode=1920x1080@1e309",
    b"plug DP-1 pos=1,2,3",
    b"plug DP-1 pos=99999,0",
    b"plug DP-1 scale=0",
    b"plug DP-1 scale=0.5",
    b"plug DP-1 scale=5",
    b"plug DP-1 scale=abc",
    b"plug DP-1 scale=1 scale=2",
    b"plug DP-1 colour=red",
    b'plug DP-1 make="unterminated',
    b"plug DP-1 model=ThisModelNameIsFarTooLong",
    b"plug DP-1 make=\x1b[31m",
    b"plug DP-1 make=\xff\xfe",
    b"unplug DP-3",
    b"unplug",
    b"mode DP-3 scale=2",
    b"mode DP-3",
    b"pixel DP-3 0 0",
    b"pixel layout 0 0",
    b"pixel layout x y",
    b"screenshot layout relative.png",
    b"screenshot layout /nonexistent-folder/x.png",
    b"screenshot DP-4 /tmp/x.png format=gif",
    b"pointer nan 0",
    b"pointer inf inf",
    b"pointer 1e400 0",
    b"button fourth",
    b"button left twice",
    b"key NoSuchKeysym",
    b"type \xc3",
    b"ping extra",
    b"frame now",
    b"a b c d e f g h i j k l m n o p q r s t",
    b"ping\x00quit",
    b"\xff\xfe\xfd garbage \x01\x02",
    b"x" * 5000,
    b"y" * 100000,
]


def test_every_bad_line_gets_one_error_line(compositor):
    for line in BAD_LINES:
        compositor.send_raw(line + b"\n")
        answer = compositor.out.readline()
        assert answer.startswith("error "), (line[:60], answer)
        code = answer.split()[1]
        assert code in {"usage", "unknown-command", "bad-value", "line-too-long", "no-such-output",
                        "output-exists", "no-outputs", "too-large", "unsupported", "io", "internal"}, answer
    assert compositor.ok("ping") == "pong"
    compositor.ok("plug DP-1")
    assert compositor.cmd("plug DP-1").startswith("error output-exists")
    # Lines split across writes, and several in one write, are answered one by one, in order.
    compositor.send_raw(b"pi")
    compositor.send_raw(b"ng\r\nclients\nbogus\n")
    answers = [compositor.out.readline() for _ in range(3)]
    assert answers[:2] == ["ok pong", "ok 0"]
    assert compositor.cmd("frame") == "ok"
    assert answers[2].startswith("error unknown-command")


def test_garbage_on_the_wayland_socket_drops_only_that_client(compositor):
    compositor.ok("plug DP-1")
    path = os.path.join(compositor.runtime, compositor.wayland_display)
    payloads = [
        os.urandom(4096),
        # wl_display.get_registry with a size field far past the message.
        struct.pack("<III", 1, (0xFFFF << 16) | 1, 2),
        # An object id that does not exist, then a request opcode out of range.
        struct.pack("<III", 77, (8 << 16) | 0, 0) + struct.pack("<II", 1, (8 << 16) | 200),
        b"\x00" * 8,
    ]
    for payload in payloads:
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.connect(path)
        try:
            s.sendall(payload)
            # A message cut short is not yet garbage: libwayland waits for its rest. Ending our side
            # makes every payload complete, or an error.
            s.shutdown(socket.SHUT_WR)
        except (BrokenPipeError, ConnectionResetError):
            pass
        s.settimeout(10)
        # The compositor ends the connection (after an error event, perhaps): read to its end.
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                if not s.recv(65536):
                    break
            except ConnectionResetError:
                break
        s.close()
        assert compositor.ok("ping") == "pong"
    # A well-behaved client still works afterwards.
    gtk, lines = compositor.gtk4()
    lines.wait_for(lambda s: s["event"] == "monitors" and any(m["connector"] == "DP-1" for m in s["monitors"]))
    assert compositor.ok("clients") == "1"


def test_a_compositor_ends_with_its_input_and_removes_its_socket(start_compositor):
    c = start_compositor()
    socket_path = os.path.join(c.runtime, c.wayland_display)
    assert os.path.exists(socket_path)
    c.ok("plug DP-1")
    c.proc.stdin.close()
    assert c.proc.wait(20) == 0
    assert not os.path.exists(socket_path)
    # stop() then finds nothing left to end and checks the rest (no Xwayland, no runtime folder).
    c.proc.stdin = open(os.devnull, "wb")


def test_two_compositors_have_sockets_and_displays_of_their_own(start_compositor):
    a, b = start_compositor(), start_compositor()
    assert a.runtime != b.runtime
    assert a.display != b.display
    a.ok("plug DP-1")
    assert b.ok("outputs") == []


def lock_is_stale(path):
    """What wlroots 0.15 asks of an existing lock before it reuses the display: a pid whose process is gone."""
    try:
        with open(path) as f:
            pid = int(f.read().strip())
    except (OSError, ValueError):
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except PermissionError:
        return False
    return False


def test_no_x_display_free_means_wayland_clients_only(start_compositor):
    """wlroots 0.15 gives Xwayland a display among :0…:32 only. With every one of them taken (lock files
    naming this live process, which X servers and wlroots respect), lazy Xwayland says so in the ready line
    and on stderr, and the compositor serves Wayland clients; the lock files made here are removed.
    A stale lock (its process gone: a SIGKILLed server's, such as this suite's killed compositors leave) is
    not taken: wlroots removes it and uses the display, so the test replaces it with one of its own."""
    made = []

    def take_every_display():
        for n in range(33):
            path = f"/tmp/.X{n}-lock"
            if lock_is_stale(path):
                try:
                    os.unlink(path)
                except OSError:
                    pass  # another user's in sticky /tmp: wlroots cannot remove it either
            try:
                fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o444)
            except FileExistsError:
                continue  # a live server's (or another user's): taken already
            made.append(path)
            with os.fdopen(fd, "w") as f:
                f.write("%10d\n" % os.getpid())

    try:
        # A display another process held while the locks were taken may be let go before the compositor
        # looks (an earlier test's Xwayland still ending: a CI run gave Xwayland :27): that one is taken
        # too, and the compositor started again, a bounded number of times.
        for _ in range(10):
            take_every_display()
            c = start_compositor()
            if c.display is None:
                break
            c.stop()
        assert c.display is None and c.vars.get("XWAYLAND") == "unavailable", c.vars
        c.ok("plug DP-1")
        assert [o["name"] for o in c.ok("outputs")] == ["DP-1"]
        with open(c.stderr_path) as err:
            assert "no Xwayland" in err.read()
    finally:
        for path in made:
            os.unlink(path)
