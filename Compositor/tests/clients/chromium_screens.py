#!/usr/bin/python3
"""A Chromium client on native Wayland (`--ozone-platform=wayland`, headful: `--headless` does not use
Wayland) for the compositor's tests: prints one JSON line with what a web page sees of the screens
through the Window Management API (`window.getScreenDetails()`) at start, at each `screenschange` and
at each screen's own `change` event, with the CLOCK_MONOTONIC time this client read it from Chromium.
Each screen: its `label`, `left`, `top`, `width`, `height`, `devicePixelRatio`, `isPrimary`,
`isInternal`. Ends at end of stdin, closing Chromium. Lines {"event": "error", …} say why it could not
start (with the end of Chromium's log).

The shape of Tests/ToolkitClients/chromium-screens.py (which drives Chromium on X11): Chromium runs
without its sandbox, with a profile of its own in a temporary folder (its XDG_CONFIG_HOME and
XDG_CACHE_HOME too), driven over the DevTools protocol on a pipe (`--remote-debugging-pipe`: commands
on fd 3, answers on fd 4, each JSON message ending in a NUL); the page is served from 127.0.0.1 (a
secure context), the window-management permission is granted to its origin, and the page reports
through a binding (`Runtime.addBinding`). Only the standard library."""
import http.server
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time

# The suite's DevTools client, beside the X11 Chromium client.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "Tests", "ToolkitClients"))
from devtools import DevTools, high  # noqa: E402

#: How long Chromium may take to start and answer a DevTools command (seconds): it is slow on a busy CI.
TIMEOUT = 60

PAGE = b"""<!doctype html><title>screens</title><script>
const info = s => ({label: s.label, left: s.left, top: s.top, width: s.width, height: s.height,
                    devicePixelRatio: s.devicePixelRatio, isPrimary: s.isPrimary, isInternal: s.isInternal});
async function watchScreens() {
  const details = await window.getScreenDetails();
  const send = (reason, screen) => report(JSON.stringify({event: "screens", reason, screen: screen ? screen.label : null,
                                                          screens: details.screens.map(info)}));
  const follow = s => s.addEventListener("change", () => { if (details.screens.includes(s)) send("change", s); });
  details.screens.forEach(follow);
  let known = new Set(details.screens);
  details.addEventListener("screenschange", () => {
    for (const s of details.screens) if (!known.has(s)) follow(s);
    known = new Set(details.screens);
    send("screenschange", null);
  });
  send("start", null);
}
watchScreens().catch(e => report(JSON.stringify({event: "error", reason: "getScreenDetails: " + e})));
</script>"""


def say(obj):
    obj["t"] = time.monotonic()
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


class Page(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(len(PAGE)))
        self.end_headers()
        self.wfile.write(PAGE)

    def log_message(self, *_):
        pass


def main():
    binary = shutil.which("chromium")
    if binary is None:
        say({"event": "error", "reason": "no chromium on PATH (Debian's package is `chromium`)"})
        return 2
    profile = tempfile.mkdtemp(prefix="chromium-wayland-")
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Page)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    origin = f"http://127.0.0.1:{server.server_address[1]}"
    commands_read, commands_write = os.pipe()
    answers_read, answers_write = os.pipe()
    commands_read, answers_write = (high(fd) for fd in (commands_read, answers_write))
    log = open(os.path.join(profile, "chromium.log"), "wb")
    chromium = subprocess.Popen(
        ["/bin/bash", "-c", f'exec "$@" 3<&{commands_read} 4>&{answers_write} {commands_read}<&- {answers_write}>&-', "sh",
         # Chromium ends with this client, however it ends (setpriv: util-linux).
         *(["setpriv", "--pdeathsig", "KILL", "--"] if shutil.which("setpriv") else []),
         binary, "--no-sandbox", "--ozone-platform=wayland", f"--user-data-dir={profile}", "--remote-debugging-pipe",
         "--no-first-run", "--no-default-browser-check", "--disable-gpu", "--password-store=basic",
         "--use-mock-keychain", "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-features=Translate,MediaRouter", "--enable-logging=stderr", "about:blank"],
        stdin=subprocess.DEVNULL, stdout=log, stderr=log, pass_fds=(commands_read, answers_write),
        env=dict(os.environ, XDG_CONFIG_HOME=os.path.join(profile, "config"), XDG_CACHE_HOME=os.path.join(profile, "cache")))
    os.close(commands_read)
    os.close(answers_write)
    devtools = DevTools(commands_write, answers_read, TIMEOUT)
    stdin_ended = threading.Event()

    def watch_stdin():
        while sys.stdin.readline():
            pass
        stdin_ended.set()
        devtools.events.put(None)

    threading.Thread(target=watch_stdin, daemon=True).start()

    def fail(reason):
        log.flush()
        with open(log.name, "rb") as said:
            tail = said.read().decode(errors="replace").splitlines()[-20:]
        say({"event": "error", "reason": str(reason), "log": tail})
        return 1

    try:
        try:
            devtools.call("Browser.grantPermissions", origin=origin, permissions=["windowManagement"])
            target = devtools.call("Target.createTarget", url="about:blank")["targetId"]
            session = devtools.call("Target.attachToTarget", targetId=target, flatten=True)["sessionId"]
            devtools.call("Runtime.enable", session)  # without it, the binding is never installed
            devtools.call("Runtime.addBinding", session, name="report")
            devtools.call("Page.navigate", session, url=origin + "/")
        except RuntimeError as error:
            return fail(error)
        while not stdin_ended.is_set():
            event = devtools.events.get()
            if event is None:
                if devtools.closed and not stdin_ended.is_set():
                    return fail(f"ended ({chromium.wait()})")
                continue
            if event.get("method") == "Runtime.bindingCalled" and event["params"]["name"] == "report":
                say(json.loads(event["params"]["payload"]))
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


if __name__ == "__main__":
    sys.exit(main())
