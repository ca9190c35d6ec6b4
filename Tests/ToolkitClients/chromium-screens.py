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
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from devtools import run_page  # noqa: E402 (beside this file)

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


def main():
    def fail(reason, log_tail):
        for line in [reason, *log_tail]:
            say(f"chromium: {line}")
        return 1

    def report(payload):
        say(payload)
        # The page's own failure ends the client.
        return 1 if payload.startswith("chromium: ") else None

    return run_page(PAGE, "x11", report, fail, TIMEOUT)


if __name__ == "__main__":
    sys.exit(main())
