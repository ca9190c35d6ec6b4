"""The JavaScript the browser fixtures run in a page: what `getScreenDetails()` says of each screen, the
watch on its `screenschange` and `change` events and the wait for its screens to agree with the server's,
an element's fullscreen asked and waited for, and a page's title set and given back (to find its window).
Each is a function of one argument, run by Playwright's evaluate or Selenium's execute_async_script;
ChromiumBrowser (browsers.py), the drivers' classes and SharedBrowser send them. Only text: no Python runs
here."""

# --- What the page runs (each a function of one argument, run by Playwright's evaluate or Selenium's
# execute_async_script) --------------------------------------------------------------------------------

_DESCRIBE = """s => ({label: s.label, left: s.left, top: s.top, width: s.width, height: s.height,
  availLeft: s.availLeft, availTop: s.availTop, availWidth: s.availWidth, availHeight: s.availHeight,
  devicePixelRatio: s.devicePixelRatio, isPrimary: s.isPrimary, isInternal: s.isInternal, isExtended: s.isExtended})"""

# getScreenDetails(), or a rejection naming UNSETTLED after `timeout` ms.
UNSETTLED = "getScreenDetails() did not settle"
_DETAILS = f"""timeout => Promise.race([window.getScreenDetails(),
  new Promise((_, reject) => setTimeout(() => reject(new Error("{UNSETTLED} within " + timeout + " ms")), timeout))])"""

SCREENS_JS = f"""async timeout => {{
  const details = await ({_DETAILS})(timeout);
  return details.screens.map({_DESCRIBE});
}}"""

# Once per document: the ScreenDetails kept, each `screenschange` and each screen's `change` noted with
# its time (Date.now(): the wall clock Python's time.time() reads), and whoever waits told at each.
WATCH_JS = """async timeout => {
  if (!window.__multihead) {
    const details = await (DETAILS)(timeout);
    if (!window.__multihead) {
      const m = window.__multihead = {details, events: [], waiters: new Set()};
      const followed = new WeakSet();
      const note = (type, label) => {
        m.events.push({type, label, time: Date.now()});
        for (const waiter of [...m.waiters]) waiter();
      };
      const follow = s => {
        if (!followed.has(s)) { followed.add(s); s.addEventListener("change", () => note("change", s.label)); }
      };
      details.screens.forEach(follow);
      details.addEventListener("screenschange", () => { details.screens.forEach(follow); note("screenschange", null); });
    }
  }
  return window.__multihead.events.length;
}""".replace("DETAILS", _DETAILS)

# Waits (until `timeout` ms) for a `screenschange` after event `since` (when `needEvent`) and for the
# screens to agree with `expected`, the server's frames: as many screens, each frame there as it is or
# over the screen's devicePixelRatio. Then one more turn of the event loop, so that the events Chromium
# queued with the last one (a screen's `change` after its `screenschange`) are seen too.
WAIT_JS = f"""async ({{since, expected, needEvent, timeout}}) => {{
  const m = window.__multihead;
  if (!m) return {{ok: false, happened: false, navigated: true, screens: [], events: []}};
  const describe = {_DESCRIBE};
  const has = (s, f) => {{
    const r = s.devicePixelRatio || 1;
    return (s.left === f.x && s.top === f.y && s.width === f.width && s.height === f.height) ||
      (s.left === Math.round(f.x / r) && s.top === Math.round(f.y / r) && s.width === Math.round(f.width / r) &&
       s.height === Math.round(f.height / r));
  }};
  const agrees = () => m.details.screens.length === expected.length && expected.every(f => m.details.screens.some(s => has(s, f)));
  const happened = () => !needEvent || m.events.slice(since).some(e => e.type === "screenschange");
  const ready = () => happened() && agrees();
  if (!ready()) {{
    await new Promise(resolve => {{
      const done = () => {{ m.waiters.delete(check); clearTimeout(timer); resolve(); }};
      const check = () => {{ if (ready()) done(); }};
      const timer = setTimeout(done, timeout);
      m.waiters.add(check);
    }});
  }}
  await new Promise(resolve => setTimeout(resolve, 0));
  return {{ok: ready(), happened: happened(), screens: m.details.screens.map(describe), events: m.events.slice(since)}};
}}"""

# Asks for the element's fullscreen (as the element `e`, with the user gesture the caller gives) without
# waiting for it: Chromium settles requestFullscreen()'s promise once the window has followed, which under
# Playwright (#27598) may be never, until the window is made fullscreen by other means. Its outcome is
# kept for FILLED_JS.
REQUEST_FULLSCREEN_JS = """e => {
  window.__multiheadFullscreen = "pending";
  e.requestFullscreen().then(() => { window.__multiheadFullscreen = "ok"; },
                             error => { window.__multiheadFullscreen = String(error && error.message || error); });
}"""

# Waits (until `timeout` ms) for the fullscreen element to fill `width` × `height` CSS pixels; a refused
# requestFullscreen() ends the wait at once.
FILLED_JS = """async ({width, height, timeout}) => {
  const refused = () => !["pending", "ok", undefined].includes(window.__multiheadFullscreen);
  const filled = () => !!document.fullscreenElement && innerWidth === width && innerHeight === height;
  if (!filled() && !refused()) {
    await new Promise(resolve => {
      const check = () => { if (filled() || refused()) done(); };
      // requestFullscreen()'s refusal comes with no event of its own (fullscreenerror is not always sent).
      const poll = setInterval(check, 50);
      const timer = setTimeout(() => done(), timeout);
      const done = () => {
        removeEventListener("resize", check);
        document.removeEventListener("fullscreenchange", check);
        clearInterval(poll);
        clearTimeout(timer);
        resolve();
      };
      addEventListener("resize", check);
      document.addEventListener("fullscreenchange", check);
    });
  }
  const e = document.fullscreenElement;
  return {filled: filled(), request: window.__multiheadFullscreen, element: e ? e.outerHTML.slice(0, 80) : null,
          width: innerWidth, height: innerHeight};
}"""

# Leaves fullscreen without waiting for exitFullscreen()'s promise (settled only once the window follows).
EXIT_FULLSCREEN_JS = "() => { if (document.fullscreenElement) document.exitFullscreen().catch(() => {}); }"

SET_TITLE_JS = "title => { const old = document.title; document.title = title; return old; }"
RESTORE_TITLE_JS = "title => { document.title = title; }"
