#!/usr/bin/python3
"""A Wayland client written on the wire protocol, for titles no toolkit would send: maps a 64x64 xdg
toplevel whose title and app id are the raw bytes given in hex (argv[1], argv[2]), prints
{"event": "mapped"} once the compositor has its buffer, and ends when stdin closes."""
import array
import json
import os
import select
import socket
import struct
import sys


class Wire:
    def __init__(self):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.connect(os.path.join(os.environ["XDG_RUNTIME_DIR"], os.environ["WAYLAND_DISPLAY"]))
        self.next_id, self.buf = 2, b""

    def new_id(self):
        self.next_id += 1
        return self.next_id - 1

    def send(self, obj, opcode, args=b"", fds=()):
        msg = struct.pack("<II", obj, ((8 + len(args)) << 16) | opcode) + args
        ancillary = [(socket.SOL_SOCKET, socket.SCM_RIGHTS, array.array("i", fds))] if fds else []
        self.sock.sendmsg([msg], ancillary)

    def events(self):
        """Yields (object, opcode, payload) as they come."""
        while True:
            while len(self.buf) >= 8:
                obj, size_op = struct.unpack("<II", self.buf[:8])
                size = size_op >> 16
                if len(self.buf) < size:
                    break
                payload, self.buf = self.buf[8:size], self.buf[size:]
                yield obj, size_op & 0xFFFF, payload
            chunk = self.sock.recv(65536)
            if not chunk:
                raise SystemExit("the compositor closed the connection")
            self.buf += chunk

    def serve(self, on_event):
        """Hands each event to on_event(object, opcode, payload) until stdin closes or the compositor closes
        the connection (0 either way): the clients' loop once they are set up."""
        while True:
            while len(self.buf) >= 8 and len(self.buf) >= struct.unpack("<II", self.buf[:8])[1] >> 16:
                obj, size_op = struct.unpack("<II", self.buf[:8])
                payload, self.buf = self.buf[8:size_op >> 16], self.buf[size_op >> 16:]
                on_event(obj, size_op & 0xFFFF, payload)
            ready, _, _ = select.select([0, self.sock], [], [])
            if 0 in ready and not os.read(0, 4096):
                return 0
            if self.sock in ready:
                try:
                    chunk = self.sock.recv(65536)
                except ConnectionResetError:
                    chunk = b""
                if not chunk:
                    return 0
                self.buf += chunk


def string(data):
    data += b"\0"
    return struct.pack("<I", len(data)) + data + b"\0" * (-len(data) % 4)


def main():
    title, app_id = bytes.fromhex(sys.argv[1]), bytes.fromhex(sys.argv[2])
    w = Wire()
    registry = w.new_id()
    w.send(1, 1, struct.pack("<I", registry))  # wl_display.get_registry
    done = w.new_id()
    w.send(1, 0, struct.pack("<I", done))  # wl_display.sync
    globals_ = {}
    events = w.events()
    for obj, op, payload in events:
        if obj == registry and op == 0:  # wl_registry.global
            name, length = struct.unpack("<II", payload[:8])
            globals_[payload[8:8 + length - 1].decode()] = name
        elif obj == done:
            break
    ids = {}
    for interface, version in (("wl_compositor", 4), ("wl_shm", 1), ("xdg_wm_base", 1)):
        ids[interface] = w.new_id()
        w.send(registry, 0, struct.pack("<I", globals_[interface]) + string(interface.encode())
               + struct.pack("<II", version, ids[interface]))  # wl_registry.bind
    surface, xdg_surface, toplevel = w.new_id(), w.new_id(), w.new_id()
    w.send(ids["wl_compositor"], 0, struct.pack("<I", surface))  # create_surface
    w.send(ids["xdg_wm_base"], 2, struct.pack("<II", xdg_surface, surface))  # get_xdg_surface
    w.send(xdg_surface, 1, struct.pack("<I", toplevel))  # get_toplevel
    w.send(toplevel, 2, string(title))  # set_title
    w.send(toplevel, 3, string(app_id))  # set_app_id
    w.send(surface, 6)  # commit: asks for the first configure
    for obj, op, payload in events:
        if obj == ids["xdg_wm_base"] and op == 0:  # ping
            w.send(obj, 3, payload)
        elif obj == xdg_surface and op == 0:  # configure
            w.send(xdg_surface, 4, payload)  # ack_configure
            break
    size = 64 * 64 * 4
    fd = os.memfd_create("raw-title")
    os.ftruncate(fd, size)
    pool, buffer = w.new_id(), w.new_id()
    w.send(ids["wl_shm"], 0, struct.pack("<Ii", pool, size), fds=[fd])  # create_pool
    os.close(fd)
    w.send(pool, 0, struct.pack("<Iiiiii", buffer, 0, 64, 64, 256, 1))  # create_buffer, xrgb8888
    w.send(surface, 1, struct.pack("<Iii", buffer, 0, 0))  # attach
    w.send(surface, 6)  # commit
    synced = w.new_id()
    w.send(1, 0, struct.pack("<I", synced))
    for obj, op, payload in events:
        if obj == ids["xdg_wm_base"] and op == 0:
            w.send(obj, 3, payload)
        elif obj == synced:
            break
    sys.stdout.write(json.dumps({"event": "mapped"}) + "\n")
    sys.stdout.flush()
    # Answer pings until stdin closes.
    def on_event(obj, op, payload):
        if obj == ids["xdg_wm_base"] and op == 0:
            w.send(obj, 3, payload)
    return w.serve(on_event)


if __name__ == "__main__":
    sys.exit(main())
