"""The site the browser fixtures' pages come from: `LocalSite`, a small HTTP server on 127.0.0.1 in a
thread of its own, serving the start page and the pages a test adds (`serve(path, body)`). localhost is a
secure context, where Chromium offers the Window Management API (`getScreenDetails()`)."""

from __future__ import annotations

import http.server
import threading

START_PAGE = b"<!doctype html><meta charset=utf-8><title>multihead</title>"


class LocalSite:
    """Pages served from `http://127.0.0.1:PORT` (`origin`), a secure context as localhost is: the Window
    Management API (`getScreenDetails()`) is only there. `/` is a blank page titled "multihead";
    `serve(path, body)` adds another, `url(path)` is its address. Paths not served are 404."""

    def __init__(self) -> None:
        self._routes: dict[str, tuple[str, bytes]] = {}
        self.reset()
        site = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                path = self.path.split("?", 1)[0]
                found = site._routes.get(path)
                if found is None:
                    self.send_error(404)
                    return
                kind, body = found
                self.send_response(200)
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(body)))
                self.send_header("Cache-Control", "no-store")
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *_):
                pass

        self._server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self.origin = f"http://127.0.0.1:{self._server.server_address[1]}"
        threading.Thread(target=self._server.serve_forever, name="multihead-site", daemon=True).start()

    def serve(self, path: str, body: str | bytes, content_type: str = "text/html; charset=utf-8") -> str:
        """Serves `body` at `path` (from "/") and returns its URL."""
        if not path.startswith("/"):
            raise ValueError(f"a path starts with '/': {path!r}")
        self._routes[path] = (content_type, body.encode() if isinstance(body, str) else body)
        return self.url(path)

    def url(self, path: str = "/") -> str:
        """The address of `path` on this site; a whole URL is returned as it is."""
        return path if "://" in path or path.startswith(("about:", "data:")) else self.origin + (path if path.startswith("/") else "/" + path)

    def reset(self) -> None:
        """Only the start page left."""
        self._routes.clear()
        self._routes["/"] = ("text/html; charset=utf-8", START_PAGE)

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()
