"""Answers a strict reader can take: UTF-8 only (a client's bad bytes become U+FFFD, an identity that is
not UTF-8 is refused), never cut short (no fixed buffers), and one command a line (a CR or NUL inside a
line, or an open quote, refuses the line)."""
import json
import os
import socket
import struct

import pytest

from conftest import TIMEOUT

# Not UTF-8 by RFC 3629: a byte never used, overlongs, a surrogate, past U+10FFFF, cut-short sequences.
BAD = [b"\xff\x80\x80", b"\xc0\xaf", b"\xe0\x80\xaf", b"\xed\xa0\x80", b"\xf4\x90\x80\x80", b"\xf5\x80\x80\x80",
       b"\xe2\x82", b"\xf0\x9f\x98", b"\x80"]


def strict_answer(compositor, line):
    """The answer's JSON, read with strict UTF-8 and strict JSON."""
    answer = compositor.cmd(line)
    assert answer.startswith("ok "), answer
    return json.loads(compositor.out.last_raw.decode("utf-8", "strict")[3:])


def test_a_client_title_that_is_not_utf8_comes_back_with_replacement_characters(compositor):
    compositor.ok("plug DP-1 mode=800x600")
    title = b"T" + b"|".join(BAD) + "|D\u00e9\u20ac\U0001d11e".encode()
    app_id = b"app\xc1\xbf.id"
    client, lines = compositor.raw_title(title, app_id)
    lines.wait_for(lambda s: s["event"] == "mapped")
    (window,) = strict_answer(compositor, "toplevels")
    # One U+FFFD for each bad sequence (its lead byte and the continuation bytes valid so far), as Python's
    # "replace" decoding does too.
    assert window["title"] == title.decode("utf-8", "replace")
    assert window["appId"] == "app\ufffd\ufffd.id"


@pytest.mark.parametrize("bad", BAD)
def test_an_identity_that_is_not_utf8_is_refused(compositor, bad):
    for key in ("make", "model", "serial"):
        compositor.send_raw(f"plug DP-1 {key}=\"".encode() + bad + b"x\"\n")
        assert compositor.out.readline().startswith("error bad-value"), (key, bad)
    assert compositor.ok("outputs") == []
    # Valid UTF-8 of 2, 3 and 4 bytes is taken and echoed as it is.
    out = strict_answer(compositor, 'plug DP-1 make="D\u00e9ll \u20ac \U0001d11e"')
    assert out["make"] == "D\u00e9ll \u20ac \U0001d11e"


def test_a_screenshot_path_that_is_not_utf8_is_refused(compositor, tmp_path):
    compositor.ok("plug DP-1 mode=64x64")
    folder = tmp_path / "shots"
    folder.mkdir()
    compositor.send_raw(b"screenshot DP-1 " + str(folder).encode() + b"/\xff.png\n")
    assert compositor.out.readline().startswith("error bad-value")
    assert os.listdir(folder) == []


def long_quote_path(tmp_path, total):
    """An absolute path of about `total` bytes, mostly `"`, in folders (a name is at most 255 bytes)."""
    path = str(tmp_path)
    while len(path) + 201 < total:
        path = os.path.join(path, '"' * 200)
        os.mkdir(path)
    return os.path.join(path, '"' * (total - len(path) - 1))


def test_answers_are_never_cut_short(compositor, tmp_path):
    compositor.ok("plug DP-1 mode=64x64")
    path = long_quote_path(tmp_path, 1024)
    assert len(path) == 1024
    quoted = path.replace("\\", "\\\\").replace('"', '\\"')
    answer = strict_answer(compositor, f'screenshot DP-1 "{quoted}" format=ppm')
    assert answer == {"path": path, "width": 64, "height": 64}
    assert os.path.getsize(path) > 64 * 64 * 3
    # An error naming a long path names all of it.
    missing = os.path.join(os.path.dirname(os.path.dirname(path)), "no-such-folder", '"' * 150)
    quoted = missing.replace('"', '\\"')
    error = compositor.cmd(f'screenshot DP-1 "{quoted}"')
    assert error.startswith("error io ") and missing + "." in error, error


def test_one_command_a_line(compositor):
    for line, code in ((b"ping\rquit", "usage"), (b"ping\r\rquit", "usage"), (b"ping\x00quit", "usage"),
                       (b'plug DP-1 make="open', "usage"),
                       (b'plug DP-1 make="a\\"', "usage"), (b"plug DP-1 serial=a\x1bb", "bad-value")):
        compositor.send_raw(line + b"\n")
        answer = compositor.out.readline()
        assert answer.startswith(f"error {code} "), (line, answer)
    assert compositor.ok("ping") == "pong"
    assert compositor.ok("outputs") == []
    # At most 4096 bytes before the newline (a CR there is dropped), and not one more.
    assert compositor.cmd("ping" + " " * 4092) == "ok pong"
    assert compositor.cmd("ping" + " " * 4091 + "\r") == "ok pong"
    assert compositor.cmd("ping" + " " * 4093).startswith("error line-too-long")
    assert compositor.ok("ping") == "pong"


def xdg_output_descriptions(compositor):
    """The xdg-output descriptions a client reads, over the wire protocol (no toolkit shows them)."""
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.connect(os.path.join(compositor.runtime, compositor.wayland_display))
    sock.settimeout(TIMEOUT)
    buf = [b""]

    def send(obj, opcode, args):
        sock.sendall(struct.pack("<II", obj, ((8 + len(args)) << 16) | opcode) + args)

    def until(obj_done):
        while True:
            while len(buf[0]) >= 8 and len(buf[0]) >= struct.unpack("<II", buf[0][:8])[1] >> 16:
                obj, size_op = struct.unpack("<II", buf[0][:8])
                payload, buf[0] = buf[0][8:size_op >> 16], buf[0][size_op >> 16:]
                yield obj, size_op & 0xFFFF, payload
                if obj == obj_done:
                    return
            chunk = sock.recv(65536)
            assert chunk
            buf[0] += chunk

    def string(data):
        data += b"\0"
        return struct.pack("<I", len(data)) + data + b"\0" * (-len(data) % 4)

    ids = iter(range(2, 1000))  # libwayland wants new ids without gaps
    registry, synced = next(ids), next(ids)
    send(1, 1, struct.pack("<I", registry))  # get_registry
    send(1, 0, struct.pack("<I", synced))  # sync
    outputs, manager = [], None
    for obj, op, payload in until(synced):
        if obj == registry and op == 0:
            name, length = struct.unpack("<II", payload[:8])
            interface = payload[8:8 + length - 1].decode()
            if interface in ("wl_output", "zxdg_output_manager_v1"):
                new = next(ids)
                version = 3 if interface == "wl_output" else 2
                send(registry, 0, struct.pack("<I", name) + string(interface.encode()) + struct.pack("<II", version, new))
                if interface == "wl_output":
                    outputs.append(new)
                else:
                    manager = new
    assert manager is not None
    xdg = {}
    for output in outputs:
        new = next(ids)
        xdg[new] = output
        send(manager, 1, struct.pack("<II", new, output))  # get_xdg_output
    synced = next(ids)
    send(1, 0, struct.pack("<I", synced))
    descriptions = []
    for obj, op, payload in until(synced):
        if obj in xdg and op == 4:  # zxdg_output_v1.description
            length = struct.unpack("<I", payload[:4])[0]
            descriptions.append(payload[4:4 + length - 1].decode())
    sock.close()
    return sorted(descriptions)


def test_the_description_leaves_empty_fields_out(compositor):
    compositor.ok('plug HDMI-1 make=DEL model="DELL U2720Q"')
    compositor.ok('plug DP-1 make=DEL model="DELL U2720Q" serial=SN1')
    # make=DEL is the PNP id: the company's name from hwdata (README: Make).
    assert xdg_output_descriptions(compositor) == ["Dell Inc. DELL U2720Q (HDMI-1)", "Dell Inc. DELL U2720Q SN1 (DP-1)"]
