#!/usr/bin/env python3
"""A stand-in for the live directory REST API over HTTPS, for bcstreamTests (stdlib only).

Usage: api_peer.py serve CERT KEY BROADCAST_HOST STATE_DIR

Listens on 127.0.0.1, on a free port, with TLS (CERT and KEY, PEM), and prints that port alone on the first
line of stdout. Every request is then reported as "request path=<path?query> cookie=<Cookie header|none>".
It exits when its stdin closes (the tests give it a pipe).

Answers are built from the captured samples in api/ beside this script (answers captured from the service):

  GET /api/live/live?live_id=ID        the sample live, with live_id ID, broadcast_host BROADCAST_HOST and
                                       bcsvr_key/broadcast_key "test:ID"; or, by ID:
      ended-live                       is_live 0 and ended_at set
      private-live                     is_private 1, without host and keys
      status-NNN                       HTTP NNN (401, 403, 404, 429, 500...)
      not-json                         200 with an HTML page
      missing-keys                     the sample without broadcast_host, bcsvr_key and broadcast_key
      huge                             a 2 MiB JSON answer
      odd-types                        live_id a number, is_live and ended_at strings
      slow                             never answers (a timeout)
      hostile-key                      bcsvr_key and broadcast_key "k1\nSUB\tvictim-key\x1b[2J" (a key that
                                       would add a SUB command and clear a terminal)
  GET /api/user/profile?user_id=ID     the sample profile with user_id ID; onlive is {"live_id": L} when
                                       STATE_DIR/onlive-ID exists and holds L, null otherwise (the switch a
                                       test flips to turn a user live); status-NNN as above
  GET /api/live/live_comments?live_id  api/live-comments.json (newest first)
"""

import http.server
import json
import os
import ssl
import sys
import threading
import time
import urllib.parse

HERE = os.path.dirname(os.path.abspath(__file__))


def sample(name):
    with open(os.path.join(HERE, "api", name), encoding="utf-8") as f:
        return json.load(f)


def report(line):
    print(line, flush=True)


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    broadcast_host = ""
    state_dir = ""

    def log_message(self, *args):
        pass

    def answer(self, status, body, content_type="application/json"):
        data = body if isinstance(body, bytes) else json.dumps(body, ensure_ascii=False).encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def status_answer(self, ident):
        if ident.startswith("status-") and ident[7:].isdigit():
            code = int(ident[7:])
            self.answer(code, {"status": {"ok": 0, "error": f"HTTP {code} from the test API", "error_code": code}})
            return True
        return False

    def do_GET(self):
        url = urllib.parse.urlsplit(self.path)
        query = urllib.parse.parse_qs(url.query)
        report(f"request path={self.path} cookie={self.headers.get('Cookie') or 'none'}")
        if url.path == "/api/live/live":
            self.live(query.get("live_id", [""])[0])
        elif url.path == "/api/user/profile":
            self.profile(query.get("user_id", [""])[0])
        elif url.path == "/api/live/live_comments":
            self.answer(200, sample("live-comments.json"))
        else:
            self.answer(404, {"status": {"ok": 0, "error": "no such endpoint"}})

    def live(self, ident):
        if self.status_answer(ident):
            return
        info = sample("api-live-info.json")
        info["live_id"] = ident
        info["broadcast_host"] = self.broadcast_host
        info["bcsvr_key"] = info["broadcast_key"] = "test:" + ident
        if ident == "ended-live":
            info["is_live"] = 0
            info["ended_at"] = 1540101000
        elif ident == "private-live":
            info["is_private"] = 1
            for key in ("broadcast_host", "bcsvr_key", "broadcast_key"):
                del info[key]
        elif ident == "not-json":
            self.answer(200, b"<html><body>Please log in</body></html>", "text/html")
            return
        elif ident == "missing-keys":
            for key in ("broadcast_host", "bcsvr_key", "broadcast_key"):
                del info[key]
        elif ident == "huge":
            info["padding"] = "x" * (2 << 20)
        elif ident == "odd-types":
            info["live_id"] = 12345
            info["is_live"] = "1"
            info["ended_at"] = "0"
        elif ident == "hostile-key":
            info["bcsvr_key"] = info["broadcast_key"] = "k1\nSUB\tvictim-key\x1b[2J"
        elif ident == "slow":
            time.sleep(60)
            return
        self.answer(200, info)

    def profile(self, ident):
        if self.status_answer(ident):
            return
        profile = sample("api-user-profile.json")
        profile["user_id"] = ident
        switch = os.path.join(self.state_dir, "onlive-" + ident)
        profile["onlive"] = None
        if os.path.exists(switch):
            with open(switch, encoding="utf-8") as f:
                profile["onlive"] = {"live_id": f.read().strip()}
        self.answer(200, profile)


def main():
    if len(sys.argv) != 6 or sys.argv[1] != "serve":
        sys.exit(__doc__)
    cert, key, broadcast_host, state_dir = sys.argv[2:6]
    Handler.broadcast_host = broadcast_host
    Handler.state_dir = state_dir
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert, key)
    server.socket = context.wrap_socket(server.socket, server_side=True)
    report(str(server.server_address[1]))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    # Ends with its stdin: a test run that dies leaves nothing behind.
    sys.stdin.read()
    server.shutdown()


if __name__ == "__main__":
    main()
