"""A multi-screen web app tested with a real browser on a private server (docs/browsers.md): a slide show
that offers to present on a projector when one is plugged in, opens its presentation window there and
goes fullscreen on it, and says so when the projector is pulled. The app is the page below, as a site
would serve it; the tests plug and unplug the projector (a monitor with a Dell's EDID) and check what the
page says against what the server says: which screen a window is on, and the pixels there."""

import pytest
from playwright.sync_api import expect
from selenium.webdriver.support.ui import WebDriverWait

from pytest_multihead.browsers import until

SLIDES = """<!doctype html><title>Slides</title>
<style>html, body { margin: 0; font: 16px sans-serif } #slide { width: 320px; height: 180px; background: #0000ff }</style>
<p id="status">…</p><button id="present" hidden>Present</button><div id="slide"></div>
<script>
let details;
const projector = () => details.screens.find(s => !s.isPrimary && s.label !== details.currentScreen.label);
function update() {
  const p = projector();
  document.getElementById("status").textContent = p ? "Projector: " + p.label : "No projector";
  document.getElementById("present").hidden = !p;
}
document.getElementById("present").onclick = () => {
  const p = projector();
  window.open("/slides", "_blank",
              `popup,left=${p.availLeft},top=${p.availTop},width=${p.availWidth / 2},height=${p.availHeight / 2}`);
};
getScreenDetails().then(d => { details = d; d.addEventListener("screenschange", update); update(); });
</script>"""

PROJECTOR = dict(manufacturer="DEL", model="DELL U2720Q", serial_number="X1")


@pytest.mark.multihead(monitors=["1920x1080"], wm=True)
def test_presenting_on_a_projector_plugged_in(multihead_chromium, multihead_server):
    b, server = multihead_chromium, multihead_server
    b.page.goto(b.site.serve("/slides", SLIDES))
    expect(b.page.locator("#status")).to_have_text("No projector")

    with b.expect_screens_change() as change:
        server.plug("HDMI-1", "2560x1440+1920+0", **PROJECTOR)
    assert [(s.name, s.label) for s in change.value.screens] == [("DP-1", "DP-1"), ("HDMI-1", "DELL U2720Q")]
    expect(b.page.locator("#status")).to_have_text("Projector: DELL U2720Q")

    # The app's own button opens the presentation window on the projector: where the server has it.
    with b.context.expect_page() as opened:
        b.page.click("#present")
    slides = opened.value
    slides.wait_for_load_state()
    window = until(lambda: (w := b.window(slides))["screen"] == "HDMI-1" and w, 10, "the slides' window is not on HDMI-1")
    assert (window["frame"]["x"], window["frame"]["y"]) == (1920, 0)

    # Fullscreen on the projector, corner to corner (the fixture works around Playwright's issue #27598).
    assert b.fullscreen("#slide", on="HDMI-1", page=slides) == {"x": 1920, "y": 0, "width": 2560, "height": 1440}
    until(lambda: server.pixel(2559, 1439, screen="HDMI-1") == "#0000ff", 10, "the slide does not reach HDMI-1's corner")

    # Pulled: the page says so, and the window manager brings the window to the laptop's screen.
    with b.expect_screens_change():
        server.unplug("HDMI-1")
    expect(b.page.locator("#status")).to_have_text("No projector")
    until(lambda: b.window(slides)["screen"] == "DP-1", 10, "the slides' window did not come back to DP-1")


@pytest.mark.multihead(monitors=["1920x1080"])
def test_the_same_app_through_selenium(multihead_selenium, multihead_server):
    b = multihead_selenium
    b.driver.get(b.site.serve("/slides", SLIDES))
    status = lambda: b.driver.find_element("id", "status").text
    WebDriverWait(b.driver, 10).until(lambda _: status() == "No projector")
    with b.expect_screens_change():
        multihead_server.plug("HDMI-1", "2560x1440+1920+0", **PROJECTOR)
    WebDriverWait(b.driver, 10).until(lambda _: status() == "Projector: DELL U2720Q")
    handle = b.open_window("/slides", on="HDMI-1")
    assert b.window(handle)["screen"] == "HDMI-1"
    assert b.fullscreen("#slide", on="HDMI-1") == {"x": 1920, "y": 0, "width": 2560, "height": 1440}
