#!/usr/bin/python3
"""A Wayland client written on the wire protocol (raw_title.py's Wire) that watches zwlr_output_manager_v1
(version 2) as wlr-randr and kanshi do, but stays connected: it keeps every head's modes (size, refresh,
preferred; a mode's `finished` removes it) and current mode, and at each `done` prints one JSON line
{"event": "done", "serial": N, "heads": {NAME: {"enabled": bool, "modes": [{"width", "height", "refresh",
"preferred"}…], "current": {"width", "height", "refresh"} or null}}}, the modes in the order announced.
A current_mode naming no mode of its head prints {"event": "unknown-current-mode", "head": NAME}; a
protocol error {"event": "error", …} (then it ends). Ends when stdin closes."""
import json
import struct
import sys

from raw_title import Wire, string


def emit(obj):
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


def text(payload):
    length = struct.unpack("<I", payload[:4])[0]
    return payload[4:4 + length - 1].decode("utf-8", "replace")


def main():
    w = Wire()
    registry = w.new_id()
    w.send(1, 1, struct.pack("<I", registry))  # wl_display.get_registry
    first = w.new_id()
    w.send(1, 0, struct.pack("<I", first))  # wl_display.sync
    manager = None
    for obj, op, payload in w.events():
        if obj == registry and op == 0:  # wl_registry.global
            name, length = struct.unpack("<II", payload[:8])
            if payload[8:8 + length - 1] == b"zwlr_output_manager_v1":
                manager = w.new_id()
                w.send(registry, 0, struct.pack("<I", name) + string(b"zwlr_output_manager_v1")
                       + struct.pack("<II", 2, manager))  # wl_registry.bind, version 2
        elif obj == first:
            break
    if manager is None:
        emit({"event": "missing", "globals": ["zwlr_output_manager_v1"]})
        return 1

    heads = {}  # head id -> {"name", "enabled", "modes": [mode ids], "current": mode id or None}
    modes = {}  # mode id -> {"head", "width", "height", "refresh", "preferred"}

    def on_event(obj, op, payload):
        if obj == 1 and op == 0:  # wl_display.error
            object_id, code, length = struct.unpack("<III", payload[:12])
            emit({"event": "error", "object": object_id, "code": code,
                  "message": payload[12:12 + length - 1].decode("utf-8", "replace")})
            raise SystemExit(0)
        if obj == manager:
            if op == 0:  # head
                heads[struct.unpack("<I", payload)[0]] = {"name": None, "enabled": False, "modes": [],
                                                         "current": None}
            elif op == 1:  # done
                emit({"event": "done", "serial": struct.unpack("<I", payload)[0], "heads": {
                    h["name"]: {"enabled": h["enabled"], "current": current(h),
                                "modes": [mode_info(m) for m in h["modes"]]} for h in heads.values()}})
        elif obj in heads:
            head = heads[obj]
            if op == 0:  # name
                head["name"] = text(payload)
            elif op == 3:  # mode
                mode = struct.unpack("<I", payload)[0]
                modes[mode] = {"head": obj, "width": 0, "height": 0, "refresh": 0, "preferred": False}
                head["modes"].append(mode)
            elif op == 4:  # enabled
                head["enabled"] = struct.unpack("<i", payload)[0] != 0
            elif op == 5:  # current_mode
                mode = struct.unpack("<I", payload)[0]
                head["current"] = mode
                if mode not in head["modes"]:
                    emit({"event": "unknown-current-mode", "head": head["name"]})
            elif op == 9:  # finished
                for mode in head["modes"]:
                    modes.pop(mode, None)
                del heads[obj]
        elif obj in modes:
            mode = modes[obj]
            if op == 0:  # size
                mode["width"], mode["height"] = struct.unpack("<ii", payload)
            elif op == 1:  # refresh
                mode["refresh"] = struct.unpack("<i", payload)[0]
            elif op == 2:  # preferred
                mode["preferred"] = True
            elif op == 3:  # finished
                head = heads.get(mode["head"])
                if head is not None:
                    head["modes"].remove(obj)
                    if head["current"] == obj:
                        head["current"] = None
                del modes[obj]

    def mode_info(mode):
        m = modes[mode]
        return {"width": m["width"], "height": m["height"], "refresh": m["refresh"], "preferred": m["preferred"]}

    def current(head):
        if not head["enabled"] or head["current"] not in modes:
            return None
        m = modes[head["current"]]
        return {"width": m["width"], "height": m["height"], "refresh": m["refresh"]}

    return w.serve(on_event)  # events until stdin closes


if __name__ == "__main__":
    sys.exit(main())
