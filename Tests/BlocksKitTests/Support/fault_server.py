#!/usr/bin/env python3
"""A small fault-injecting HTTP server for the blocks tests.

It binds 127.0.0.1 on a free port, prints that port on the first line of stdout,
and exits when its stdin closes (so it never outlives the test process).

Every route is /<kind>/<key>[?params]. The key is free text that keeps each test's
counters apart: counters are kept per full path (without the query).

Bodies are deterministic: byte i of a body is (i * 7 + 3) % 256 ("pattern").

  /bytes/<key>?size=N[&nolength=1]    200, N pattern bytes (no Content-Length and
                                      a closed connection with nolength=1)
  /corrupt/<key>?size=N               200, N pattern bytes with the first byte flipped
  /reset/<key>?size=N[&fail=T]        first T requests (all when T is absent): headers
                                      for N bytes, half the body, then a TCP reset
  /short/<key>?size=N[&fail=T]        first T requests: Content-Length N, N/2 bytes, clean close
  /status/<key>?code=C[&fail=T][&size=N]
                                      first T requests (all when absent) answer C, then 200
  /retry-after/<key>?seconds=S[&fail=T][&size=N]
                                      first T (default 1) requests: 429 with Retry-After: S
  /slow/<key>?size=N&stall=S[&fail=T] first T requests: headers and 1 byte, then S seconds
                                      of silence before the rest
  /redirect/<key>?to=URL[&code=302]   a redirect to URL
  /etag/<key>?tag=T                   200 with ETag "T"; 304 when If-None-Match matches
  /auth/<key>                         200, the body is the Authorization header or "absent"
  /header/<key>?name=H                200, the body is request header H or "absent"
  /count/<key>                        200, the body is how many requests this path has had
  /silent/<key>?seconds=S             reads the request, answers nothing for S seconds (default 30)
  /busy-index/<S>/<key>/index.json    first request: 503 with Retry-After: S; then an empty
                                      registry index (a registry base URL cannot carry a query)
  /drip/<key>?rate=B&seconds=S       200 with Content-Length 1 MB, then B bytes a second
                                      for S seconds (default 3 B/s for 60 s), then a close
  /bigheader/<key>?size=N             200 with one response header of N bytes
  /gzip/<key>?size=N                  200, Content-Encoding: gzip of N zero bytes (a bomb:
                                      10 MB of zeros is about 10 KB on the wire)
  /files/<R>/<absolute path>          a file under the system temp folder, as a static
                                      registry host would serve it; archives (.tar.gz,
                                      .zip) are dripped at R bytes a second (0: at once)
  /requests/<key>                     200, every request so far as lines of
                                      "path<TAB>Authorization or -", oldest first
  absolute-form request targets (as a proxy receives them): 200, "proxied <target>"
"""

import socket
import struct
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

counters = {}
counters_lock = threading.Lock()
# Every request's path and Authorization header, for tests that assert what a server received.
received = []


def pattern(size):
    return bytes((i * 7 + 3) % 256 for i in range(size))


def count(path):
    with counters_lock:
        counters[path] = counters.get(path, 0) + 1
        return counters[path]


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, format, *args):
        sys.stderr.write("%s\n" % (format % args))

    def finish(self):
        try:
            super().finish()
        except OSError:
            pass

    def send_body(self, body, status=200, headers=None, length=True):
        self.send_response(status)
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        if length:
            self.send_header("Content-Length", str(len(body)))
        else:
            self.send_header("Connection", "close")
            self.close_connection = True
        self.end_headers()
        self.wfile.write(body)
        self.wfile.flush()

    def serve_file(self, path):
        import os
        import tempfile
        pieces = path.split("/", 3)
        rate = int(pieces[2])
        local = os.path.realpath("/" + pieces[3])
        root = os.path.realpath(tempfile.gettempdir())
        if not local.startswith(root + "/") or not os.path.isfile(local):
            self.send_body(b"no such file\n", status=404)
            return
        with open(local, "rb") as handle:
            body = handle.read()
        if rate <= 0 or not (local.endswith(".tar.gz") or local.endswith(".zip")):
            self.send_body(body)
            return
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        step = max(1, rate // 10)
        for start in range(0, len(body), step):
            self.wfile.write(body[start:start + step])
            self.wfile.flush()
            time.sleep(0.1)

    def do_GET(self):
        try:
            self.route()
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True

    def route(self):
        if self.path.startswith("http://") or self.path.startswith("https://"):
            self.send_body(("proxied " + self.path).encode())
            return
        parts = urlsplit(self.path)
        query = {name: values[-1] for name, values in parse_qs(parts.query).items()}
        kind = parts.path.strip("/").split("/")[0]
        with counters_lock:
            if kind != "requests":
                received.append("%s\t%s" % (self.path, self.headers.get("Authorization") or "-"))
        number = count(parts.path)
        size = int(query.get("size", "64"))
        fail = int(query["fail"]) if "fail" in query else None
        failing = fail is None or number <= fail

        if kind == "bytes":
            self.send_body(pattern(size), length=query.get("nolength") != "1")
        elif kind == "corrupt":
            body = bytearray(pattern(size))
            if body:
                body[0] ^= 0xFF
            self.send_body(bytes(body))
        elif kind == "reset":
            if not failing:
                self.send_body(pattern(size))
                return
            self.send_response(200)
            self.send_header("Content-Length", str(size))
            self.end_headers()
            self.wfile.write(pattern(size)[: size // 2])
            self.wfile.flush()
            self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            self.connection.close()
            self.close_connection = True
        elif kind == "short":
            if not failing:
                self.send_body(pattern(size))
                return
            self.send_response(200)
            self.send_header("Content-Length", str(size))
            self.send_header("Connection", "close")
            self.end_headers()
            self.wfile.write(pattern(size)[: size // 2])
            self.wfile.flush()
            self.connection.shutdown(socket.SHUT_WR)
            self.close_connection = True
        elif kind == "status":
            if failing:
                self.send_body(b"failure %d\n" % number, status=int(query.get("code", "500")))
            else:
                self.send_body(pattern(size))
        elif kind == "retry-after":
            fail = int(query.get("fail", "1"))
            if number <= fail:
                self.send_body(b"slow down\n", status=429, headers={"Retry-After": query.get("seconds", "1")})
            else:
                self.send_body(pattern(size))
        elif kind == "slow":
            if not failing:
                self.send_body(pattern(size))
                return
            body = pattern(size)
            self.send_response(200)
            self.send_header("Content-Length", str(size))
            self.end_headers()
            self.wfile.write(body[:1])
            self.wfile.flush()
            time.sleep(float(query.get("stall", "3")))
            self.wfile.write(body[1:])
            self.wfile.flush()
        elif kind == "redirect":
            self.send_body(b"moved\n", status=int(query.get("code", "302")), headers={"Location": query.get("to", "/")})
        elif kind == "etag":
            tag = '"%s"' % query.get("tag", "v1")
            if self.headers.get("If-None-Match") == tag:
                self.send_response(304)
                self.send_header("ETag", tag)
                self.end_headers()
            else:
                self.send_body(b"tagged body\n", headers={"ETag": tag})
        elif kind == "auth":
            self.send_body((self.headers.get("Authorization") or "absent").encode())
        elif kind == "header":
            self.send_body((self.headers.get(query.get("name", "")) or "absent").encode())
        elif kind == "count":
            self.send_body(str(number).encode())
        elif kind == "silent":
            time.sleep(float(query.get("seconds", "30")))
            self.close_connection = True
        elif kind == "drip":
            rate = max(1, int(query.get("rate", "3")))
            self.send_response(200)
            self.send_header("Content-Length", str(1024 * 1024))
            self.end_headers()
            self.wfile.flush()
            deadline = time.time() + float(query.get("seconds", "60"))
            while time.time() < deadline:
                self.wfile.write(b"x" * rate)
                self.wfile.flush()
                time.sleep(1)
            self.close_connection = True
        elif kind == "bigheader":
            self.send_body(b"ok\n", headers={"X-Filler": "a" * size})
        elif kind == "gzip":
            import gzip
            self.send_body(gzip.compress(b"\0" * size, compresslevel=9), headers={"Content-Encoding": "gzip"})
        elif kind == "requests":
            with counters_lock:
                lines = "\n".join(received)
            self.send_body(lines.encode())
        elif kind == "files":
            self.serve_file(parts.path)
        elif kind == "busy-index":
            seconds = parts.path.strip("/").split("/")[1]
            if number == 1:
                self.send_body(b"busy\n", status=503, headers={"Retry-After": seconds})
            else:
                self.send_body(b'{"blocks": [], "schemaVersion": 1}\n')
        else:
            self.send_body(b"no such route\n", status=404)


def exit_when_stdin_closes():
    try:
        sys.stdin.buffer.read()
    finally:
        import os
        os._exit(0)


def main():
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    threading.Thread(target=exit_when_stdin_closes, daemon=True).start()
    print(server.server_address[1], flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
