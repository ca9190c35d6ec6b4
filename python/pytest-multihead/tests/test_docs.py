"""The Python blocks of the docs, run as a person would copy them into a test file."""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
DOCS = ["docs/other-toolkits.md", "docs/output-managers.md", "python/pytest-multihead/README.md"]


def blocks(doc):
    return re.findall(r"```python\n(.*?)```", (ROOT / doc).read_text(), flags=re.S)


@pytest.mark.parametrize("doc", DOCS)
def test_documented_python_passes(pytester, doc):
    found = blocks(doc)
    assert found, f"{doc} has no Python block"
    for i, block in enumerate(found):
        pytester.makepyfile(**{f"test_doc_{i}": block})
    binary = pytester._request.config.getoption("--multihead-bin")
    result = pytester.runpytest_subprocess(f"--multihead-bin={binary}", "-p", "no:cacheprovider", timeout=600)
    result.assert_outcomes(passed=len(found))
