"""10,000 tests on one worker's warm server: one X server throughout, and the server process's descriptors
and resident memory do not grow."""

import json
import os

import pytest

from test_plugin import run

TESTS = int(os.environ.get("MULTIHEAD_SOAK_TESTS", "10000"))


def test_ten_thousand_leases(pytester, tmp_path):
    record = tmp_path / "samples"
    pytester.makepyfile(
        f"""
        import json, os
        import pytest

        def sample(s):
            fds = len(os.listdir(f"/proc/{{s.cli_pid}}/fd"))
            with open(f"/proc/{{s.cli_pid}}/status") as f:
                rss = next(int(l.split()[1]) for l in f if l.startswith("VmRSS:"))
            return {{"fds": fds, "rssKiB": rss, "xserver": s.pid}}

        @pytest.mark.parametrize("i", range({TESTS}))
        def test_lease(multihead_server, i):
            if i in (1000, {TESTS} - 1):
                with open({str(record)!r}, "a") as f:
                    f.write(json.dumps(sample(multihead_server)) + "\\n")
        """
    )
    run(pytester, "-q", "-p", "no:randomly").assert_outcomes(passed=TESTS)
    early, late = (json.loads(line) for line in record.read_text().splitlines())
    print("soak", early, late)
    assert late["xserver"] == early["xserver"], "the X server was replaced"
    assert late["fds"] == early["fds"], "descriptors grew"
    # 9,000 leases: a leak of 500 bytes a lease would show as 4.3 MiB.
    assert late["rssKiB"] - early["rssKiB"] < 4096, "resident memory grew"
