"""The control socket from a second language: examples/node, Node's own test runner on a warm server."""

import os
import re
import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]


def test_node_example_passes(request):
    node = shutil.which("node")
    assert node, "node is not installed (Scripts/setup installs nodejs)"
    env = dict(os.environ, MULTIHEAD_BIN=request.config.getoption("--multihead-bin"))
    env.pop("DISPLAY", None)
    # TAP, whatever Node's default reporter (Debian 12's Node 18, or a newer one).
    done = subprocess.run([node, "--test", "--test-reporter=tap", "examples/node/hotplug.test.mjs"], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    assert re.search(r"^# pass 4$", done.stdout, re.M) and re.search(r"^# fail 0$", done.stdout, re.M), done.stdout
