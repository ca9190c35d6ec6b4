#!/usr/bin/python3
"""A Chromium client on native Wayland (`--ozone-platform=wayland`, headful: `--headless` does not use
Wayland) for the compositor's tests: prints one JSON line with what a web page sees of the screens
through the Window Management API (`window.getScreenDetails()`) at start, at each `screenschange` and
at each screen's own `change` event, with the CLOCK_MONOTONIC time this client read it from Chromium.
Each screen: its `label`, `left`, `top`, `width`, `height`, `devicePixelRatio`, `isPrimary`,
`isInternal`. Ends at end of stdin, closing Chromium. Lines {"event": "error", …} say why it could not
start (with the end of Chromium's log).

Chromium is run and driven as Tests/ToolkitClients/chromium-screens.py drives it on X11, by the same
`devtools.run_page` (no sandbox, a profile of its own, DevTools over a pipe, the page served from 127.0.0.1
with the window-management permission, reports through a binding). Only the standard library."""
import json
import os
import sys
import time

# The suite's DevTools client, beside the X11 Chromium client.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "Tests", "ToolkitClients"))
from devtools import run_page  # noqa: E402

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


def main():
    def fail(reason, log_tail):
        say({"event": "error", "reason": reason, "log": log_tail})
        return 1

    return run_page(PAGE, "wayland", lambda payload: say(json.loads(payload)), fail, TIMEOUT)


if __name__ == "__main__":
    sys.exit(main())
