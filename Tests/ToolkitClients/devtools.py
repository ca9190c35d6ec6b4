"""Chromium's DevTools protocol over its pipe (`--remote-debugging-pipe`: JSON messages ending in a NUL), for
the suite's Chromium clients (chromium-screens.py on X11, Compositor/tests/clients/chromium_screens.py on
Wayland), and `run_page`, what both do with it. Only the standard library."""
import fcntl
import http.server
import json
import os
import queue
import shutil
import subprocess
import sys
import tempfile
import threading


class DevTools:
    """The DevTools protocol over Chromium's pipe: `call` waits for a command's answer; the events go to
    `events`. A closed pipe (Chromium ended) puts None there and fails every call waiting."""

    def __init__(self, to_chromium, from_chromium, timeout):
        self._out = to_chromium
        self._in = from_chromium
        self._next = 0
        self._answers = {}
        self._timeout = timeout
        self._ready = threading.Condition()
        self.closed = False
        self.events = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        buffer = b""
        while True:
            chunk = os.read(self._in, 1 << 16)
            if not chunk:
                break
            buffer += chunk
            while b"\0" in buffer:
                raw, _, buffer = buffer.partition(b"\0")
                message = json.loads(raw)
                if "id" in message:
                    with self._ready:
                        self._answers[message["id"]] = message
                        self._ready.notify_all()
                else:
                    self.events.put(message)
        with self._ready:
            self.closed = True
            self._ready.notify_all()
        self.events.put(None)

    def call(self, method, session=None, **params):
        self._next += 1
        number = self._next
        message = {"id": number, "method": method, "params": params}
        if session:
            message["sessionId"] = session
        try:
            os.write(self._out, json.dumps(message).encode() + b"\0")
        except OSError:
            raise RuntimeError(f"{method}: Chromium ended") from None
        with self._ready:
            if not self._ready.wait_for(lambda: number in self._answers or self.closed, self._timeout):
                raise RuntimeError(f"{method}: no answer within {self._timeout} s")
            if number not in self._answers:
                raise RuntimeError(f"{method}: Chromium ended")
            answer = self._answers.pop(number)
        if "error" in answer:
            raise RuntimeError(f"{method}: {answer['error'].get('message')}")
        return answer["result"]


def high(fd):
    """The same pipe end on a descriptor above 9 (the other closed)."""
    moved = fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 10)
    os.close(fd)
    return moved


def run_page(page, platform, on_report, fail, timeout):
    """Runs Chromium on `platform` (`--ozone-platform`: x11 or wayland), as root without its sandbox, with a
    profile of its own in a temporary folder (its XDG_CONFIG_HOME and XDG_CACHE_HOME too), driven over the
    DevTools protocol on a pipe; serves `page` (bytes of HTML) from 127.0.0.1 (a secure context) with the
    window-management permission granted to its origin, and hands each payload the page sends through its
    `report` binding to `on_report`, until end of stdin (0), or until `on_report` returns a status. Why it
    could not start goes to `fail(reason, log_tail)`, whose value is the status (2: no Chromium on PATH)."""
    binary = next((found for found in map(shutil.which, ("chromium", "chromium-browser", "google-chrome")) if found), None)
    if binary is None:
        fail("no chromium on PATH (Debian's package is `chromium`)", [])
        return 2

    class Page(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", str(len(page)))
            self.end_headers()
            self.wfile.write(page)

        def log_message(self, *_):
            pass

    profile = tempfile.mkdtemp(prefix=f"chromium-{platform}-")
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Page)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    origin = f"http://127.0.0.1:{server.server_address[1]}"
    commands_read, commands_write = os.pipe()
    answers_read, answers_write = os.pipe()
    # Chromium's ends above 4, so that putting them on 3 and 4 overwrites neither.
    commands_read, answers_write = (high(fd) for fd in (commands_read, answers_write))
    log = open(os.path.join(profile, "chromium.log"), "wb")
    # fd 3 and 4 in Chromium: bash puts the pipes there (dash takes no descriptor above 9; Popen's pass_fds
    # keeps their own numbers).
    chromium = subprocess.Popen(
        ["/bin/bash", "-c", f'exec "$@" 3<&{commands_read} 4>&{answers_write} {commands_read}<&- {answers_write}>&-', "sh",
         # Chromium ends with this client, however it ends (setpriv: util-linux).
         *(["setpriv", "--pdeathsig", "KILL", "--"] if shutil.which("setpriv") else []),
         binary, "--no-sandbox", f"--ozone-platform={platform}", f"--user-data-dir={profile}", "--remote-debugging-pipe",
         "--no-first-run", "--no-default-browser-check", "--disable-gpu", "--password-store=basic",
         "--use-mock-keychain", "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-features=Translate,MediaRouter", "--enable-logging=stderr", "about:blank"],
        stdin=subprocess.DEVNULL, stdout=log, stderr=log, pass_fds=(commands_read, answers_write),
        # Its crash reports' folder and caches in the profile too, not in the user's home.
        env=dict(os.environ, XDG_CONFIG_HOME=os.path.join(profile, "config"), XDG_CACHE_HOME=os.path.join(profile, "cache")))
    os.close(commands_read)
    os.close(answers_write)
    devtools = DevTools(commands_write, answers_read, timeout)
    stdin_ended = threading.Event()

    def watch_stdin():
        while sys.stdin.readline():
            pass
        stdin_ended.set()
        devtools.events.put(None)

    threading.Thread(target=watch_stdin, daemon=True).start()

    def failed(reason):
        log.flush()
        with open(log.name, "rb") as said:
            tail = said.read().decode(errors="replace").splitlines()[-20:]
        return fail(str(reason), tail)

    try:
        try:
            # The permission's name since Chromium 111; before, "windowPlacement".
            try:
                devtools.call("Browser.grantPermissions", origin=origin, permissions=["windowManagement"])
            except RuntimeError:
                devtools.call("Browser.grantPermissions", origin=origin, permissions=["windowPlacement"])
            # The binding first, then the page: its script reports through it as it runs.
            target = devtools.call("Target.createTarget", url="about:blank")["targetId"]
            session = devtools.call("Target.attachToTarget", targetId=target, flatten=True)["sessionId"]
            devtools.call("Runtime.enable", session)  # without it, the binding is never installed
            devtools.call("Runtime.addBinding", session, name="report")
            devtools.call("Page.navigate", session, url=origin + "/")
        except RuntimeError as error:
            return failed(error)
        while not stdin_ended.is_set():
            event = devtools.events.get()
            if event is None:
                if devtools.closed and not stdin_ended.is_set():
                    return failed(f"ended ({chromium.wait()})")
                continue
            if event.get("method") == "Runtime.bindingCalled" and event["params"]["name"] == "report":
                status = on_report(event["params"]["payload"])
                if status is not None:
                    return status
        return 0
    finally:
        if not devtools.closed:
            try:
                os.write(commands_write, json.dumps({"id": 0, "method": "Browser.close", "params": {}}).encode() + b"\0")
            except OSError:
                pass
        try:
            chromium.wait(timeout=10)
        except subprocess.TimeoutExpired:
            chromium.kill()
            chromium.wait()
        server.shutdown()
        log.close()
        shutil.rmtree(profile, ignore_errors=True)
