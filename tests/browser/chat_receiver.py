"""Local chat receivers for webhook tests, on 127.0.0.1 only: `Receiver`, an HTTP server that
records every POST and answers with the statuses it is told to (then 200); `Misbehaving`, a
chat host that reads each post whole and then answers as a hostile or broken one would
(`drip`: one byte at a time, never done; `flood`: a 256 MiB answer)."""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Callable
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


def drip(connection: socket.socket) -> int:
    """A status line, then header bytes one at a time, five a second, until the client
    hangs up: each read gets a byte well within any per-read timeout."""
    sent = 0
    for byte in b"HTTP/1.1 200 OK\r\nX-Slow: " + b"a" * 100_000:
        try:
            connection.sendall(bytes([byte]))
        except OSError:
            return sent
        sent += 1
        time.sleep(0.2)
    return sent


FLOOD = 256 * 1024 * 1024


def flood(connection: socket.socket) -> int:
    """A 200 whose body is 256 MiB of zeros, sent as fast as the client takes it; returns
    how many body bytes went (the client hanging up stops it)."""
    connection.sendall(f"HTTP/1.1 200 OK\r\nContent-Length: {FLOOD}\r\n\r\n".encode())
    chunk = memoryview(bytes(1024 * 1024))
    sent = 0
    while sent < FLOOD:
        try:
            sent += connection.send(chunk[:FLOOD - sent])
        except OSError:
            break
    return sent


class Misbehaving:
    """A chat host on 127.0.0.1 that reads each POST whole, then answers with
    `answer(connection)` (which returns how many bytes it sent). `requests` holds each
    post's body, `answered` the bytes each answer sent, `ended` when each answer stopped
    (time.monotonic())."""

    def __init__(self, answer: Callable[[socket.socket], int]) -> None:
        self.answer = answer
        self.requests: list[bytes] = []
        self.answered: list[int] = []
        self.ended: list[float] = []
        self.lock = threading.Lock()
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        threading.Thread(target=self._accept, daemon=True).start()

    def url(self, path: str = "/hook") -> str:
        return f"http://127.0.0.1:{self.port}{path}"

    def _accept(self) -> None:
        while True:
            try:
                connection, _ = self.listener.accept()
            except OSError:
                return  # closed
            threading.Thread(target=self._serve, args=(connection,), daemon=True).start()

    def _serve(self, connection: socket.socket) -> None:
        with connection:
            connection.settimeout(60)
            data = b""
            while b"\r\n\r\n" not in data:
                data += connection.recv(65536)
            head, _, body = data.partition(b"\r\n\r\n")
            length = next(int(line.split(b":", 1)[1]) for line in head.split(b"\r\n")
                          if line.lower().startswith(b"content-length:"))
            while len(body) < length:
                body += connection.recv(65536)
            with self.lock:
                self.requests.append(body)
            sent = self.answer(connection)
            with self.lock:
                self.answered.append(sent)
                self.ended.append(time.monotonic())

    def close(self) -> None:
        self.listener.close()
