"""What `wait_for_layout` compares: a layout as a test writes it against the screens as `screens()` lists them."""

from __future__ import annotations

import re
from typing import Any

_GEOMETRY = re.compile(r"^(\d+)x(\d+)([+-]\d+)([+-]\d+)$")


def frame_of(value: Any) -> dict[str, int]:
    """A frame from "WxH+X+Y" or a dict of x, y, width, height; ValueError for anything else."""
    if isinstance(value, dict):
        return {k: int(value[k]) for k in ("x", "y", "width", "height")}
    m = _GEOMETRY.match(str(value))
    if not m:
        raise ValueError(f"a frame is \"WxH+X+Y\" or a dict of x, y, width, height, not {value!r}")
    w, h, x, y = (int(g) for g in m.groups())
    return {"x": x, "y": y, "width": w, "height": h}


def layout_matches(screens: list[dict[str, Any]], expected: dict[str, Any]) -> bool:
    """Whether every screen `expected` names is as it says (absent for None)."""
    by_name = {s["name"]: s for s in screens}
    for name, want in expected.items():
        screen = by_name.get(name)
        if want is None:
            if screen is not None:
                return False
            continue
        if screen is None:
            return False
        checks = want if isinstance(want, dict) and not {"x", "y", "width", "height"} <= set(want) else {"frame": want}
        unknown = set(checks) - {"frame", "scale", "primary"}
        if unknown:
            raise ValueError(f"wait_for_layout checks frame, scale and primary, not {', '.join(sorted(unknown))}")
        if "frame" in checks and screen["frame"] != frame_of(checks["frame"]):
            return False
        if "scale" in checks and abs(screen["scale"] - float(checks["scale"])) > 1e-6:
            return False
        if "primary" in checks and screen["primary"] != bool(checks["primary"]):
            return False
    return True


def describe_layout(screens: list[dict[str, Any]]) -> str:
    """The screens in a line: "DP-1 1920x1080+0+0 ×1, HDMI-1 …"."""
    return ", ".join(f"{s['name']} {s['frame']['width']}x{s['frame']['height']}+{s['frame']['x']}+{s['frame']['y']} ×{s['scale']:g}"
                     for s in screens) or "none"
