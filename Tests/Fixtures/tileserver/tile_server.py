#!/usr/bin/env python3
"""A local tile server for TileFetcherTests. Standard library only; binds 127.0.0.1 only.

Usage: tile_server.py LOGFILE
Prints the chosen port on the first line of stdout, then serves until terminated.
Each request appends "PATH<TAB>USER-AGENT" to LOGFILE (PATH without the query).

The first path segment picks the behaviour; the rest ({z}/{x}/{y}.png) is ignored:
  /ok/...         200, a valid 256x256 PNG
  /small/...      200, a valid 16x16 PNG
  /missing/...    404
  /html/...       200, text/html
  /garbage/...    200, image/png that is not an image
  /busy/...       503 with Retry-After the first n times per path, then /ok   (?n=2&retry_after=0)
  /limited/...    429 with Retry-After the first n times per path, then /ok   (?n=2&retry_after=0)
  /error/...      500
  /reset/...      closes the connection without answering the first n times, then /ok (?n=1)
  /truncated/...  Content-Length larger than the body, then closes the connection
  /slow/...       sleeps `delay` seconds (default 5) before answering /ok
"""

import struct
import sys
import threading
import time
import zlib
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit


def make_png(size):
    """A size x size RGB PNG, a simple gradient, built with zlib."""

    def chunk(kind, payload):
        body = kind + payload
        return struct.pack(">I", len(payload)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)

    rows = bytearray()
    for y in range(size):
        rows.append(0)  # filter: none
        for x in range(size):
            rows += bytes((x % 256, y % 256, 128))
    header = struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(bytes(rows), 6))
        + chunk(b"IEND", b"")
    )


PNG_256 = make_png(256)
PNG_16 = make_png(16)
LOCK = threading.Lock()
COUNTS = {}
LOG_PATH = None


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True

    def log_message(self, format, *args):  # keep stderr quiet
        pass

    def send_body(self, status, body, content_type, extra=None):
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        for name, value in (extra or {}).items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        parts = urlsplit(self.path)
        path = parts.path
        query = {key: values[-1] for key, values in parse_qs(parts.query).items()}
        with LOCK:
            COUNTS[path] = COUNTS.get(path, 0) + 1
            count = COUNTS[path]
            with open(LOG_PATH, "a", encoding="utf-8") as log:
                log.write("%s\t%s\n" % (path, self.headers.get("User-Agent", "")))
        kind = path.strip("/").split("/")[0]
        failures = int(query.get("n", "1"))
        if kind == "ok":
            self.send_body(200, PNG_256, "image/png")
        elif kind == "small":
            self.send_body(200, PNG_16, "image/png")
        elif kind == "missing":
            self.send_body(404, b"not found\n", "text/plain")
        elif kind == "html":
            self.send_body(200, b"<html><body>Access denied</body></html>\n", "text/html; charset=utf-8")
        elif kind == "garbage":
            self.send_body(200, b"this is not a png at all", "image/png")
        elif kind in ("busy", "limited"):
            if count <= failures:
                status = 503 if kind == "busy" else 429
                self.send_body(status, b"busy\n", "text/plain", {"Retry-After": query.get("retry_after", "0")})
            else:
                self.send_body(200, PNG_256, "image/png")
        elif kind == "error":
            self.send_body(500, b"oops\n", "text/plain")
        elif kind == "reset":
            if count <= failures:
                self.close_connection = True
                self.connection.close()
            else:
                self.send_body(200, PNG_256, "image/png")
        elif kind == "truncated":
            self.send_response(200)
            self.send_header("Content-Type", "image/png")
            self.send_header("Content-Length", str(len(PNG_256)))
            self.send_header("Connection", "close")
            self.end_headers()
            self.wfile.write(PNG_256[: len(PNG_256) // 2])
            self.wfile.flush()
            self.close_connection = True
        elif kind == "slow":
            time.sleep(float(query.get("delay", "5")))
            try:
                self.send_body(200, PNG_256, "image/png")
            except OSError:
                pass
        else:
            self.send_body(400, b"unknown behaviour\n", "text/plain")


def main():
    global LOG_PATH
    LOG_PATH = sys.argv[1]
    open(LOG_PATH, "w").close()
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    print(server.server_address[1], flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
