#!/usr/bin/python3
"""A Wayland client written on the wire protocol (raw_title.py's Wire) that sees what a fractional-scale-aware
client and an integer-only one see: it binds wp_fractional_scale_manager_v1, every wl_output (with its
xdg-output, for the name) and maps a 64x64 xdg toplevel whose surface has a wp_fractional_scale_v1. It prints
one JSON line per fact: {"event": "preferred-scale", "scale": N} (120ths), {"event": "output", "name": …,
"scale": N} at each wl_output.done and xdg_output.done, {"event": "enter"|"leave", "output": NAME} for its
surface, {"event": "mapped"} once the compositor has its buffer, {"event": "error", "object": …, "code": …,
"message": …} for a protocol error (then it ends). With --twice it asks a second wp_fractional_scale_v1 for
the same surface once mapped (a protocol error). Ends when stdin closes."""
import json
import os
import struct
import sys

from raw_title import Wire, string


def emit(obj):
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


def main():
    twice = "--twice" in sys.argv[1:]
    w = Wire()

    def send(*args, **kwargs):
        # A request after a protocol error finds the socket closed: the error, already sent, is read next.
        try:
            w.send(*args, **kwargs)
        except (BrokenPipeError, ConnectionResetError):
            pass

    registry = w.new_id()
    send(1, 1, struct.pack("<I", registry))  # wl_display.get_registry
    outputs = {}  # wl_output id -> {"global", "name", "scale", "xdg"}
    xdg_outputs = {}  # xdg_output id -> wl_output id
    ids = {}
    state = {"configured": False, "mapped": False, "sync": None}

    def bind(name, interface, version):
        new = w.new_id()
        send(registry, 0, struct.pack("<I", name) + string(interface.encode())
               + struct.pack("<II", version, new))  # wl_registry.bind
        return new

    def add_output(name, version):
        output = bind(name, "wl_output", min(version, 3))
        outputs[output] = {"global": name, "name": None, "scale": 1, "xdg": None}
        if "zxdg_output_manager_v1" in ids:
            get_xdg_output(output)

    def get_xdg_output(output):
        xdg = w.new_id()
        send(ids["zxdg_output_manager_v1"], 1, struct.pack("<II", xdg, output))  # get_xdg_output
        outputs[output]["xdg"] = xdg
        xdg_outputs[xdg] = output

    def report(output):
        o = outputs[output]
        emit({"event": "output", "name": o["name"], "scale": o["scale"]})

    # The globals there now (a sync's callback ends the first burst), then the objects.
    first = w.new_id()
    send(1, 0, struct.pack("<I", first))  # wl_display.sync
    listed = []
    events = w.events()
    for obj, op, payload in events:
        if obj == registry and op == 0:  # wl_registry.global
            name, length = struct.unpack("<II", payload[:8])
            interface = payload[8:8 + length - 1].decode()
            version = struct.unpack("<I", payload[8 + (length + 3) // 4 * 4:][:4])[0]
            listed.append((name, interface, version))
        elif obj == 1 and op == 0:
            raise SystemExit(f"protocol error before the globals: {payload!r}")
        elif obj == first:
            break
    versions = {"wl_compositor": 4, "wl_shm": 1, "xdg_wm_base": 1, "wp_fractional_scale_manager_v1": 1,
                "zxdg_output_manager_v1": 2}
    for name, interface, version in listed:
        if interface in versions:
            ids[interface] = bind(name, interface, min(version, versions[interface]))
    missing = [i for i in versions if i not in ids]
    if missing:
        emit({"event": "missing", "globals": missing})
        return 1
    for name, interface, version in listed:
        if interface == "wl_output":
            add_output(name, version)

    # New ids in the order the requests use them: libwayland refuses an id that skips one.
    surface, fractional, xdg_surface, toplevel = w.new_id(), w.new_id(), w.new_id(), w.new_id()
    send(ids["wl_compositor"], 0, struct.pack("<I", surface))  # create_surface
    send(ids["wp_fractional_scale_manager_v1"], 1, struct.pack("<II", fractional, surface))  # get_fractional_scale
    send(ids["xdg_wm_base"], 2, struct.pack("<II", xdg_surface, surface))  # get_xdg_surface
    send(xdg_surface, 1, struct.pack("<I", toplevel))  # get_toplevel
    send(toplevel, 2, string(b"fractional-scale"))  # set_title
    send(surface, 6)  # commit: asks for the first configure

    def on_event(obj, op, payload):
        if obj == 1 and op == 0:  # wl_display.error
            object_id, code, length = struct.unpack("<III", payload[:12])
            emit({"event": "error", "object": object_id, "code": code,
                  "message": payload[12:12 + length - 1].decode("utf-8", "replace")})
            raise SystemExit(0)
        if obj == registry and op == 0:  # a global added later: a plugged output
            name, length = struct.unpack("<II", payload[:8])
            interface = payload[8:8 + length - 1].decode()
            version = struct.unpack("<I", payload[8 + (length + 3) // 4 * 4:][:4])[0]
            if interface == "wl_output":
                add_output(name, version)
        elif obj == ids["xdg_wm_base"] and op == 0:  # ping
            send(obj, 3, payload)  # pong
        elif obj == fractional and op == 0:  # wp_fractional_scale_v1.preferred_scale
            emit({"event": "preferred-scale", "scale": struct.unpack("<I", payload)[0]})
        elif obj in outputs:
            if op == 3:  # wl_output.scale
                outputs[obj]["scale"] = struct.unpack("<i", payload)[0]
            elif op == 2:  # wl_output.done
                report(obj)
        elif obj in xdg_outputs:
            if op == 3:  # zxdg_output_v1.name
                length = struct.unpack("<I", payload[:4])[0]
                outputs[xdg_outputs[obj]]["name"] = payload[4:4 + length - 1].decode()
            elif op == 2:  # zxdg_output_v1.done
                report(xdg_outputs[obj])
        elif obj == surface and op in (0, 1):  # wl_surface.enter / leave
            output = struct.unpack("<I", payload)[0]
            name = outputs[output]["name"] if output in outputs else None
            emit({"event": "enter" if op == 0 else "leave", "output": name})
        elif obj == xdg_surface and op == 0:  # configure
            send(xdg_surface, 4, payload)  # ack_configure
            if not state["configured"]:
                state["configured"] = True
                size = 64 * 64 * 4
                fd = os.memfd_create("fractional-scale")
                os.ftruncate(fd, size)
                pool, buffer = w.new_id(), w.new_id()
                send(ids["wl_shm"], 0, struct.pack("<Ii", pool, size), fds=[fd])  # create_pool
                os.close(fd)
                send(pool, 0, struct.pack("<Iiiiii", buffer, 0, 64, 64, 256, 1))  # create_buffer, xrgb8888
                send(surface, 1, struct.pack("<Iii", buffer, 0, 0))  # attach
            send(surface, 6)  # commit
            if state["sync"] is None:
                state["sync"] = w.new_id()
                send(1, 0, struct.pack("<I", state["sync"]))  # the commit is handled before its callback
        elif obj == state["sync"] and not state["mapped"]:
            state["mapped"] = True
            emit({"event": "mapped"})
            if twice:
                send(ids["wp_fractional_scale_manager_v1"], 1, struct.pack("<II", w.new_id(), surface))

    return w.serve(on_event)  # events until stdin closes


if __name__ == "__main__":
    sys.exit(main())
