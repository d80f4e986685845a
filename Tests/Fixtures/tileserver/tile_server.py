#!/usr/bin/env python3
"""A local tile server for the tile fetching tests. Standard library only; binds 127.0.0.1 only.

Usage: tile_server.py LOGFILE
Prints the chosen port on the first line of stdout, then serves until terminated or until its standard
input ends (so that it goes away with the test process that started it, however that ends); then it
removes LOGFILE, and LOGFILE's folder if that is left empty.
Each request appends "PATH<TAB>USER-AGENT<TAB>IF-NONE-MATCH<TAB>IF-MODIFIED-SINCE<TAB>NAMESPACE" to
LOGFILE (PATH without the query and without the namespace); a header the request did not have is logged
as "-", and tabs and line breaks in header values as spaces.

Namespaces let one server serve many tests: a first path segment that starts with "~" (/~7/ok/1/2/3.png)
is the request's namespace, logged in the last column ("-" when there is none) and otherwise removed
before the behaviour is picked. Requests are counted (for busy, limited and reset) per path with its
namespace, /transfers/ lists only the /huge/ responses of its own namespace, and a redirect to "ok" stays
in it.

The first path segment picks the behaviour; the rest ({z}/{x}/{y}.png) is ignored, except by /vector/:
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
  /drip/...       200 without Content-Length, then one byte every half second until the client hangs up
  /auth/...       401 with a WWW-Authenticate challenge and an empty body
  /etag/...       200 with ETag "v1" and Cache-Control max-age=<max_age> (?max_age=3600, the default);
                  304 (no body, same ETag and Cache-Control) when If-None-Match matches "v1"
  /lastmod/...    200 with Last-Modified: Wed, 21 Oct 2015 07:28:00 GMT and no cache headers;
                  304 (no body) when If-Modified-Since is exactly that date
  /expires/...    200 with a Date `skew` seconds off the real time (?skew=0, the default) and an
                  Expires 2 hours after that Date
  /nostore/...    200 with Cache-Control: no-store
  /changed/...    200 with ETag "v2" and Cache-Control max-age=600, whatever If-None-Match says
  /notmodified/.. 304 (no body) to every request, conditional or not
  /redirect/...   302 to the URL in ?to= (default file:///etc/hostname), or to /ok/... on this server when
                  ?to= is "ok"
  /vector/Z/X/Y.pbf  200, application/x-protobuf: tile Z/X/Y of the MBTiles file at ?file= (an absolute
                  path), its bytes as stored there (gzip-compressed Mapbox Vector Tiles); 404 when the
                  file has no such tile
  /retina/...     200, a 512x512 PNG when the path contains "@2x", else a 256x256 PNG
  /huge/...       200, image/png: the valid 256x256 PNG followed by `mb` megabytes (MiB) of zeros
                  (?mb=600, the default; fractions allowed), written in 64 KiB chunks with a
                  Content-Length for the whole body; ?length=0 omits Content-Length and closes the
                  connection at the end of the body instead
  /transfers/...  200, text/plain: one line per /huge/ response so far, oldest first,
                  "PATH<TAB>BYTES-SENT<TAB>BYTES-IN-BODY<TAB>STATE" (PATH without the query; BYTES-SENT
                  counts what was written to the socket so far), where
                  STATE is "sending" while the body is being written, "complete" when all of it was
                  written and "closed" when the client closed the connection before the end (so a
                  client that stops reading a body shows up as "closed" with BYTES-SENT smaller than
                  BYTES-IN-BODY); this request is logged like any other
"""

import os
import sqlite3
import struct
import sys
import threading
import time
import zlib
from email.utils import formatdate
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit


def make_png(size):
    """A size x size RGB PNG, a simple gradient, built with zlib."""

    def chunk(kind, payload):
        body = kind + payload
        return struct.pack(">I", len(payload)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)

    rows = bytearray()
    reds = bytes(x % 256 for x in range(size))
    for y in range(size):
        row = bytearray(3 * size)
        row[0::3] = reds
        row[1::3] = bytes((y % 256,)) * size
        row[2::3] = b"\x80" * size
        rows.append(0)  # filter: none
        rows += row
    header = struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(bytes(rows), 6))
        + chunk(b"IEND", b"")
    )


PNG_256 = make_png(256)
PNG_16 = make_png(16)
PNG_512 = make_png(512)
LAST_MODIFIED = "Wed, 21 Oct 2015 07:28:00 GMT"
LOCK = threading.Lock()
COUNTS = {}
TRANSFERS = []  # [path, bytes sent, bytes in the body, state, namespace] of each /huge/ response, under LOCK
LOG_PATH = None


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True

    def log_message(self, format, *args):  # keep stderr quiet
        pass

    def send_body(self, status, body, content_type, extra=None):
        """Sends a response; a "Date" in `extra` replaces the server's own."""
        extra = extra or {}
        self.send_response_only(status)
        self.send_header("Server", self.version_string())
        self.send_header("Date", extra.get("Date") or self.date_time_string())
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        for name, value in extra.items():
            if name != "Date":
                self.send_header(name, value)
        self.end_headers()
        self.wfile.write(body)

    def send_huge(self, path, megabytes, with_length, namespace):
        """The PNG then `megabytes` MiB of zeros, in chunks, recording in TRANSFERS how far it got."""
        zeros = max(0, int(megabytes * 1024 * 1024))
        total = len(PNG_256) + zeros
        entry = [path, 0, total, "sending", namespace]
        with LOCK:
            TRANSFERS.append(entry)
        self.send_response_only(200)
        self.send_header("Server", self.version_string())
        self.send_header("Date", self.date_time_string())
        self.send_header("Content-Type", "image/png")
        if with_length:
            self.send_header("Content-Length", str(total))
        else:
            self.send_header("Connection", "close")
            self.close_connection = True
        self.end_headers()
        chunk = memoryview(bytes(64 * 1024))
        state = "complete"
        try:
            self.wfile.write(PNG_256)
            with LOCK:
                entry[1] += len(PNG_256)
            remaining = zeros
            while remaining > 0:
                count = min(len(chunk), remaining)
                self.wfile.write(chunk[:count])
                remaining -= count
                with LOCK:
                    entry[1] += count
            self.wfile.flush()
        except OSError:
            state = "closed"
            self.close_connection = True
        with LOCK:
            entry[3] = state

    def send_vector_tile(self, path, mbtiles):
        try:
            _, z, x, name = path.strip("/").split("/")
            z, x, y = int(z), int(x), int(name.split(".")[0].split("@")[0])
            with sqlite3.connect("file:%s?mode=ro" % mbtiles, uri=True) as database:
                row = database.execute(
                    "SELECT tile_data FROM tiles WHERE zoom_level = ? AND tile_column = ? AND tile_row = ?",
                    (z, x, (1 << z) - 1 - y),
                ).fetchone()
        except (ValueError, sqlite3.Error):
            row = None
        if row is None:
            self.send_body(404, b"not found\n", "text/plain")
        else:
            self.send_body(200, bytes(row[0]), "application/x-protobuf")

    def send_not_modified(self, extra=None):
        """A 304: headers only, no body and no Content-Length."""
        self.send_response(304)
        for name, value in (extra or {}).items():
            self.send_header(name, value)
        self.end_headers()

    def logged_header(self, name):
        value = self.headers.get(name)
        if value is None:
            return "-"
        return value.replace("\t", " ").replace("\r", " ").replace("\n", " ")

    def do_GET(self):
        parts = urlsplit(self.path)
        path = parts.path
        namespace = "-"
        segments = path.split("/")
        if len(segments) > 1 and segments[1].startswith("~"):
            namespace = segments[1]
            path = "/" + "/".join(segments[2:])
        query = {key: values[-1] for key, values in parse_qs(parts.query).items()}
        with LOCK:
            key = (namespace, path)
            COUNTS[key] = COUNTS.get(key, 0) + 1
            count = COUNTS[key]
            with open(LOG_PATH, "a", encoding="utf-8") as log:
                log.write(
                    "%s\t%s\t%s\t%s\t%s\n"
                    % (
                        path,
                        self.headers.get("User-Agent", ""),
                        self.logged_header("If-None-Match"),
                        self.logged_header("If-Modified-Since"),
                        namespace,
                    )
                )
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
        elif kind == "drip":
            self.send_response(200)
            self.send_header("Content-Type", "image/png")
            self.send_header("Connection", "close")
            self.end_headers()
            self.close_connection = True
            try:
                for _ in range(600):
                    self.wfile.write(b"\0")
                    self.wfile.flush()
                    time.sleep(0.5)
            except OSError:
                pass
        elif kind == "auth":
            self.send_body(401, b"", "text/plain", {"WWW-Authenticate": 'Basic realm="tiles"'})
        elif kind == "slow":
            time.sleep(float(query.get("delay", "5")))
            try:
                self.send_body(200, PNG_256, "image/png")
            except OSError:
                pass
        elif kind == "etag":
            headers = {"ETag": '"v1"', "Cache-Control": "max-age=" + query.get("max_age", "3600")}
            if etag_matches(self.headers.get("If-None-Match"), '"v1"'):
                self.send_not_modified(headers)
            else:
                self.send_body(200, PNG_256, "image/png", headers)
        elif kind == "lastmod":
            if self.headers.get("If-Modified-Since") == LAST_MODIFIED:
                self.send_not_modified()
            else:
                self.send_body(200, PNG_256, "image/png", {"Last-Modified": LAST_MODIFIED})
        elif kind == "expires":
            date = time.time() + float(query.get("skew", "0"))
            headers = {"Date": formatdate(date, usegmt=True), "Expires": formatdate(date + 7200, usegmt=True)}
            self.send_body(200, PNG_256, "image/png", headers)
        elif kind == "nostore":
            self.send_body(200, PNG_256, "image/png", {"Cache-Control": "no-store"})
        elif kind == "changed":
            self.send_body(200, PNG_256, "image/png", {"ETag": '"v2"', "Cache-Control": "max-age=600"})
        elif kind == "notmodified":
            self.send_not_modified({"ETag": '"v1"'})
        elif kind == "redirect":
            target = query.get("to", "file:///etc/hostname")
            if target == "ok":
                target = ("" if namespace == "-" else "/" + namespace) + "/ok/" + path.strip("/").split("/", 1)[1]
            self.send_body(302, b"moved\n", "text/plain", {"Location": target})
        elif kind == "vector":
            self.send_vector_tile(path, query.get("file", ""))
        elif kind == "retina":
            self.send_body(200, PNG_512 if "@2x" in path else PNG_256, "image/png")
        elif kind == "huge":
            self.send_huge(path, float(query.get("mb", "600")), query.get("length") != "0", namespace)
        elif kind == "transfers":
            with LOCK:
                lines = "".join(
                    "%s\t%d\t%d\t%s\n" % tuple(entry[:4]) for entry in TRANSFERS if entry[4] == namespace
                )
            self.send_body(200, lines.encode("utf-8"), "text/plain; charset=utf-8")
        else:
            self.send_body(400, b"unknown behaviour\n", "text/plain")


def etag_matches(if_none_match, etag):
    """Whether an If-None-Match value matches `etag`, by weak comparison (RFC 9110 13.1.2)."""
    if if_none_match is None:
        return False
    if if_none_match.strip() == "*":
        return True
    strong = etag[2:] if etag.startswith("W/") else etag
    for candidate in if_none_match.split(","):
        candidate = candidate.strip()
        if candidate.startswith("W/"):
            candidate = candidate[2:]
        if candidate == strong:
            return True
    return False


def exit_when_stdin_ends():
    """Ends the process once standard input reaches its end (the parent closed it or went away), removing
    the log, and its folder when that is then empty."""
    while sys.stdin.buffer.read(65536):
        pass
    for remove, path in ((os.remove, LOG_PATH), (os.rmdir, os.path.dirname(os.path.abspath(LOG_PATH)))):
        try:
            remove(path)
        except OSError:
            pass
    os._exit(0)


def main():
    global LOG_PATH
    LOG_PATH = sys.argv[1]
    open(LOG_PATH, "w").close()
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    threading.Thread(target=exit_when_stdin_ends, daemon=True).start()
    print(server.server_address[1], flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
