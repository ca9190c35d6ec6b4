#!/usr/bin/python3
"""A Chromium client that says what a web page sees of the X server's screens through the Window
Management API (`window.getScreenDetails()`), one line at a time:
  "screens N", then "screen LABEL WxH+LEFT+TOP dpr R" per screen, "end" at start; at each `screenschange`
  "added LABEL WxH+LEFT+TOP dpr R" / "removed LABEL" for each screen that came or went; "changed LABEL
  WxH+LEFT+TOP dpr R" from a screen's own `change` event (a mode change; also any other attribute's, such
  as `isExtended` when a second screen comes). LABEL is the screen's `label` as JSON (Chromium takes it
  from the monitor's EDID). Ends at end of stdin, closing Chromium.

Chromium runs on the X server in DISPLAY, as an X client (`--ozone-platform=x11`; headless mode is not
X), as root without its sandbox, with a profile of its own in a temporary folder (its XDG_CONFIG_HOME and XDG_CACHE_HOME too). It is driven over the
DevTools protocol on a pipe (`--remote-debugging-pipe`: it reads commands on fd 3 and writes on fd 4,
each message JSON ending in a NUL): the page is served from 127.0.0.1 (a secure context), the
window-management permission granted to its origin, and the page's callbacks come back through a
binding (`Runtime.addBinding`). Only the standard library: run with Debian's python3 and `chromium`.
Lines starting "chromium:" say why it could not start (the end of Chromium's own log)."""
import http.server
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from devtools import DevTools, high  # noqa: E402 (beside this file)

#: How long Chromium may take to start and answer a DevTools command (seconds): it is slow on a busy CI.
TIMEOUT = 90

PAGE = b"""<!doctype html><title>screens</title><script>
function text(s) {
  return JSON.stringify(s.label) + " " + s.width + "x" + s.height + "+" + s.left + "+" + s.top + " dpr " + s.devicePixelRatio;
}
async function watchScreens() {
  const details = await window.getScreenDetails();
  // A screen that went reads as an empty one: its label as it was last seen.
  const labels = new Map();
  const seen = s => { labels.set(s, JSON.stringify(s.label)); return text(s); };
  const follow = s => s.addEventListener("change", () => { if (details.screens.includes(s)) report("changed " + seen(s)); });
  let known = new Set(details.screens);
  report(["screens " + known.size, ...details.screens.map(s => "screen " + seen(s)), "end"].join("\\n"));
  known.forEach(follow);
  details.addEventListener("screenschange", () => {
    const now = new Set(details.screens);
    const lines = [];
    for (const s of known) if (!now.has(s)) { lines.push("removed " + labels.get(s)); labels.delete(s); }
    for (const s of now) if (!known.has(s)) { lines.push("added " + seen(s)); follow(s); }
    known = now;
    if (lines.length) report(lines.join("\\n"));
  });
}
watchScreens().catch(e => report("chromium: getScreenDetails: " + e));
</script>"""


def say(line):
    print(line, flush=True)


class Page(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(len(PAGE)))
        self.end_headers()
        self.wfile.write(PAGE)

    def log_message(self, *_):
        pass


def chromium_binary():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found:
            return found
    say("chromium: no chromium on PATH (Debian's package is `chromium`)")
    sys.exit(2)


def main():
    binary = chromium_binary()
    profile = tempfile.mkdtemp(prefix="chromium-screens-")
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Page)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    origin = f"http://127.0.0.1:{server.server_address[1]}"
    commands_read, commands_write = os.pipe()
    answers_read, answers_write = os.pipe()
    # Chromium's ends above 4, so that putting them on 3 and 4 overwrites neither.
    commands_read, answers_write = (high(fd) for fd in (commands_read, answers_write))
    log = open(os.path.join(profile, "chromium.log"), "wb")
    # fd 3 and 4 in Chromium: bash puts the pipes there (dash takes no
    # descriptor above 9; Popen's pass_fds keeps their own numbers).
    chromium = subprocess.Popen(
        ["/bin/bash", "-c", f'exec "$@" 3<&{commands_read} 4>&{answers_write} {commands_read}<&- {answers_write}>&-', "sh",
         # Chromium ends with this client, however it ends (setpriv: util-linux).
         *(["setpriv", "--pdeathsig", "KILL", "--"] if shutil.which("setpriv") else []),
         binary, "--no-sandbox", "--ozone-platform=x11", f"--user-data-dir={profile}", "--remote-debugging-pipe", "--no-first-run", "--no-default-browser-check", "--disable-gpu",
         "--password-store=basic", "--use-mock-keychain", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--disable-features=Translate,MediaRouter",
         "about:blank"],
        stdin=subprocess.DEVNULL, stdout=log, stderr=log, pass_fds=(commands_read, answers_write),
        # Its crash reports' folder and caches in the profile too, not in the user's home.
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
        say(f"chromium: {reason}")
        log.flush()
        with open(log.name, "rb") as said:
            for line in said.read().decode(errors="replace").splitlines()[-20:]:
                say(f"chromium: {line}")
        return 1

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
            return fail(error)
        while not stdin_ended.is_set():
            event = devtools.events.get()
            if event is None:
                if devtools.closed and not stdin_ended.is_set():
                    return fail(f"ended ({chromium.wait()})")
                continue
            if event.get("method") == "Runtime.bindingCalled" and event["params"]["name"] == "report":
                say(event["params"]["payload"])
                if event["params"]["payload"].startswith("chromium: "):
                    return 1
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
