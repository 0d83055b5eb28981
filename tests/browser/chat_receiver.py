"""A local chat receiver for webhook tests: an HTTP server on 127.0.0.1 that records every
POST and answers with the statuses it is told to (then 200)."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler
from http.server import ThreadingHTTPServer
from typing import Any


class Receiver:
    """`url(path)`, `received` (list of {path, host, body}), `answers` (statuses to give
    first, one per request; `(302, "/elsewhere")` answers a redirect)."""

    def __init__(self, port: int = 0) -> None:
        self.received: list[dict[str, Any]] = []
        self.answers: list[int | tuple[int, str]] = []
        self.lock = threading.Lock()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length)
                with receiver.lock:
                    receiver.received.append({"path": self.path, "host": self.headers["Host"],
                                              "body": json.loads(raw or b"null")})
                    answer = receiver.answers.pop(0) if receiver.answers else 200
                status, location = answer if isinstance(answer, tuple) else (answer, "")
                self.send_response(status)
                if location:
                    self.send_header("Location", location)
                self.send_header("Content-Length", "2")
                self.end_headers()
                self.wfile.write(b"ok")

            def log_message(self, format: str, *args: Any) -> None:
                return

        self.server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
        self.port = self.server.server_address[1]
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def url(self, path: str = "/hook") -> str:
        return f"http://127.0.0.1:{self.port}{path}"

    def texts(self) -> list[str]:
        return [str(item["body"].get("text") or item["body"].get("content"))
                for item in self.received]

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()
