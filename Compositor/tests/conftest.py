"""Harness for multihead-compositor's tests: each test starts its own compositor in a fresh private
XDG_RUNTIME_DIR, waits for its ready line, talks to it over stdin/stdout, starts toolkit clients whose
JSON lines it waits on, and at the end stops every process by PID and checks nothing is left behind.
Waits are on lines read from a child; their timeouts are only upper bounds."""
import json
import os
import select
import shutil
import signal
import subprocess
import tempfile
import time

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
TIMEOUT = 20.0
FIGURES = []


def compositor_binary():
    path = os.environ.get("MULTIHEAD_COMPOSITOR")
    if path:
        return path
    out = subprocess.run([os.path.join(ROOT, "Scripts", "build-compositor")], check=True,
                         stdout=subprocess.PIPE, text=True)
    return out.stdout.strip()


class Lines:
    """Reads lines from a child's pipe with an upper bound on the wait, without Python's buffering."""

    def __init__(self, fd, name):
        self.fd, self.name, self.buf, self.seen = fd, name, b"", []
        self.last_raw = b""  # the last line's bytes, for checks a lenient decoding would hide

    def readline(self, timeout=TIMEOUT):
        deadline = time.monotonic() + timeout
        while b"\n" not in self.buf:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"{self.name}: no line within {timeout} s (seen: {self.seen[-5:]})")
            ready, _, _ = select.select([self.fd], [], [], left)
            if ready:
                chunk = os.read(self.fd, 65536)
                if not chunk:
                    raise EOFError(f"{self.name}: ended (seen: {self.seen[-5:]})")
                self.buf += chunk
        line, self.buf = self.buf.split(b"\n", 1)
        self.last_raw = line
        text = line.decode("utf-8", "replace")
        self.seen.append(text)
        return text

    def wait_for(self, predicate, timeout=TIMEOUT):
        """The first JSON line for which predicate holds (earlier lines are passed over)."""
        deadline = time.monotonic() + timeout
        while True:
            line = self.readline(max(0.0, deadline - time.monotonic()))
            try:
                obj = json.loads(line)
            except ValueError:
                continue
            if predicate(obj):
                return obj


class Compositor:
    def __init__(self, binary, tmp_path, args=(), xwayland_starts=False):
        self.runtime = tempfile.mkdtemp(prefix="mhc-runtime.")
        os.chmod(self.runtime, 0o700)
        self.stderr_path = os.path.join(tmp_path, "compositor.stderr")
        self.clients = []
        env = {k: v for k, v in os.environ.items() if k not in ("WAYLAND_DISPLAY", "DISPLAY")}
        env["XDG_RUNTIME_DIR"] = self.runtime
        # Where Xwayland starts, wlroots 0.15 leaks its X window manager at exit (lsan-xwayland.supp).
        supp = "lsan-xwayland.supp" if xwayland_starts else "lsan.supp"
        if xwayland_starts:
            combined = os.path.join(tmp_path, "lsan.supp")
            with open(combined, "w") as f:
                for name in ("lsan.supp", "lsan-xwayland.supp"):
                    with open(os.path.join(HERE, name)) as part:
                        f.write(part.read())
            supp = combined
        env["LSAN_OPTIONS"] = f"suppressions={os.path.join(HERE, supp)}:print_suppressions=0"
        self.started = time.monotonic()
        with open(self.stderr_path, "wb") as err:
            self.proc = subprocess.Popen([binary, *args], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         stderr=err, env=env)
        self.out = Lines(self.proc.stdout.fileno(), "compositor")
        ready = self.out.readline()
        self.ready_seconds = time.monotonic() - self.started
        assert ready.startswith("ready "), ready
        self.vars = dict(word.split("=", 1) for word in ready.split()[1:])
        self.wayland_display = self.vars["WAYLAND_DISPLAY"]
        self.display = self.vars.get("DISPLAY")
        assert int(self.vars["PID"]) == self.proc.pid
        # The X socket this compositor's wlroots made (it listens from the start, lazy or eager): after the
        # end, another server may take the same display number and make a socket of its own there.
        self.x_socket = file_identity(f"/tmp/.X11-unix/X{self.display.lstrip(':')}") if self.display else None

    def cmd(self, line, timeout=TIMEOUT):
        """Sends one command line and returns its one answer line."""
        self.send_raw((line + "\n").encode())
        return self.out.readline(timeout)

    def ok(self, line):
        answer = self.cmd(line)
        assert answer.startswith("ok"), f"{line!r} -> {answer!r}"
        rest = answer[2:].strip()
        return json.loads(rest) if rest[:1] in ("{", "[") else rest

    def send_raw(self, data):
        self.proc.stdin.write(data)
        self.proc.stdin.flush()

    def client_env(self, **extra):
        env = {k: v for k, v in os.environ.items() if k not in ("WAYLAND_DISPLAY", "DISPLAY")}
        env.update(XDG_RUNTIME_DIR=self.runtime, WAYLAND_DISPLAY=self.wayland_display, NO_AT_BRIDGE="1",
                   GTK_A11Y="none", GSK_RENDERER="cairo", GSETTINGS_BACKEND="memory")
        env.pop("LSAN_OPTIONS", None)
        env.pop("ASAN_OPTIONS", None)
        env.update(extra)
        return env

    def start_client(self, argv, **env):
        proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                env=self.client_env(**env))
        self.clients.append(proc)
        return proc, Lines(proc.stdout.fileno(), os.path.basename(argv[-1]))

    def gtk4(self, *args):
        return self.start_client(["/usr/bin/python3", os.path.join(HERE, "clients", "gtk4_monitors.py"), *args],
                                 GDK_BACKEND="wayland")

    def qt6(self):
        return self.start_client(["/usr/bin/python3", os.path.join(HERE, "clients", "qt6_screens.py")],
                                 QT_QPA_PLATFORM="wayland")

    def sdl2(self, binary, *args):
        return self.start_client([binary, *args], SDL_VIDEODRIVER="wayland")

    def raw_title(self, title, app_id):
        return self.start_client(["/usr/bin/python3", os.path.join(HERE, "clients", "raw_title.py"), title.hex(),
                                  app_id.hex()])

    def chromium(self):
        return self.start_client(["/usr/bin/python3", os.path.join(HERE, "clients", "chromium_screens.py")])

    def stop(self):
        """Ends the clients, then the compositor (end of its stdin), each by PID; returns its stderr. Once: a
        test may stop one itself before the fixture's end stops every compositor it started."""
        if getattr(self, "stopped_stderr", None) is not None:
            return self.stopped_stderr
        for proc in self.clients:
            stop_process(proc)
        self.proc.stdin.close()
        try:
            status = self.proc.wait(TIMEOUT)
        except subprocess.TimeoutExpired:
            stop_process(self.proc)
            status = None
        self.proc.stdout.close()
        with open(self.stderr_path, "rb") as f:
            stderr = f.read().decode("utf-8", "replace")
        self.stopped_stderr = stderr
        leftovers = os.listdir(self.runtime)
        shutil.rmtree(self.runtime, ignore_errors=True)
        assert status == 0, f"compositor exit status {status}; stderr:\n{stderr[-4000:]}"
        assert "Sanitizer" not in stderr, stderr[-8000:]
        # The socket and its lock are the compositor's to remove (the folder itself is ours, removed above).
        assert [f for f in leftovers if f.startswith("wayland-")] == [], leftovers
        assert not os.path.exists(self.runtime)
        if self.display:
            wait_x_server_gone(self.display, self.runtime, self.x_socket)
        return stderr


def stop_process(proc):
    if proc.poll() is None:
        try:
            if proc.stdin:
                proc.stdin.close()
            proc.wait(5)
        except subprocess.TimeoutExpired:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(5)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
    if proc.stdout:
        proc.stdout.close()


def zombie(pid):
    """An ended process not yet reaped (a container's PID 1 may never reap what it inherits)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] == "Z"
    except OSError:
        return True


def x_server_pids(display, runtime=None):
    """PIDs of processes whose command line names this X display (Xwayland :N …); with `runtime`, only
    those started with that XDG_RUNTIME_DIR (one compositor's: another suite's Xwayland may be on the same
    display number once this one's has ended)."""
    pids = []
    mark = runtime and f"XDG_RUNTIME_DIR={runtime}".encode()
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/cmdline", "rb") as f:
                argv = f.read().split(b"\0")
            if mark:
                with open(f"/proc/{entry}/environ", "rb") as f:
                    if mark not in f.read().split(b"\0"):
                        continue
        except OSError:
            continue
        if argv and argv[0].endswith(b"Xwayland") and display.encode() in argv and not zombie(entry):
            pids.append(int(entry))
    return pids


def file_identity(path):
    """(device, inode, change time) of a file, or None when there is none. The inode alone is not enough:
    ext4 gives a file made just after another's removal the freed inode (another suite's X server taking
    the display number at once looked like our socket left behind)."""
    try:
        st = os.lstat(path)
    except OSError:
        return None
    return (st.st_dev, st.st_ino, st.st_ctime_ns)


def wait_x_server_gone(display, runtime, socket_identity, timeout=10.0):
    # Xwayland ends on its own when it loses the compositor: an upper bound on how long that takes.
    deadline = time.monotonic() + timeout
    while x_server_pids(display, runtime) and time.monotonic() < deadline:
        select.select([], [], [], 0.05)
    assert not x_server_pids(display, runtime), f"Xwayland on {display} still runs"
    number = display.lstrip(":")
    # Gone, or another server's made since (another socket file at that path).
    left = file_identity(f"/tmp/.X11-unix/X{number}")
    assert left is None or left != socket_identity, "the X socket was left behind"


@pytest.fixture(scope="session")
def binary():
    return compositor_binary()


def built_client(name, package):
    """clients/NAME.c built against a Debian -dev package's library (pkg-config's name), in a temporary folder
    removed at the end (a generator for a fixture)."""
    folder = tempfile.mkdtemp(prefix=f"mhc-{name}.")
    try:
        flags = subprocess.run(["pkg-config", "--cflags", "--libs", package], check=True, stdout=subprocess.PIPE,
                               text=True).stdout.split()
        out = os.path.join(folder, name)
        subprocess.run(["cc", "-O1", "-Wall", "-Wextra", "-Werror", "-o", out,
                        os.path.join(HERE, "clients", f"{name}.c"), *flags], check=True)
        yield out
    finally:
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(scope="session")
def sdl2_client():
    """clients/sdl2_displays.c built against Debian's libsdl2-dev."""
    yield from built_client("sdl2_displays", "sdl2")


@pytest.fixture(scope="session")
def x11_fullscreen_client():
    """clients/x11_fullscreen.c built against Debian's libx11-dev."""
    yield from built_client("x11_fullscreen", "x11")


@pytest.fixture(scope="session")
def x11_window_client():
    """clients/x11_window.c (a window of one colour) built against Debian's libx11-dev."""
    yield from built_client("x11_window", "x11")


@pytest.fixture
def compositor(binary, tmp_path):
    c = Compositor(binary, str(tmp_path))
    FIGURES.append(("compositor start to ready line", c.ready_seconds))
    yield c
    c.stop()


@pytest.fixture
def start_compositor(binary, tmp_path):
    made = []

    def start(*args, xwayland_starts=False):
        folder = tmp_path / f"compositor-{len(made)}"
        folder.mkdir()
        c = Compositor(binary, str(folder), args, xwayland_starts=xwayland_starts)
        made.append(c)
        return c

    yield start
    failures = []
    for c in made:
        try:
            c.stop()
        except Exception as error:  # every compositor is stopped; the first failure is reported
            failures.append(error)
    if failures:
        raise failures[0]


def pytest_terminal_summary(terminalreporter):
    if not FIGURES:
        return
    terminalreporter.section("figures")
    by_name = {}
    for name, value in FIGURES:
        by_name.setdefault(name, []).append(value)
    for name, values in by_name.items():
        values.sort()
        terminalreporter.write_line(f"{name}: median {values[len(values) // 2] * 1000:.1f} ms, "
                                    f"min {values[0] * 1000:.1f}, max {values[-1] * 1000:.1f} (n={len(values)})")
