"""The fleet drill's comments API (Benchmarks/fleet/drill.sh): what a live service's
`GET /api/live/live_comments?live_id=<id>` answers, for the drill's lives.

    api_peer.py PORT_FILE MESSAGES REPLAY_LOG...

It follows the replay processes' logs (`bcstream replay` says `sent <recording>:<line> on <key> to …` for each
message of each live, heard or not), so it knows which comments each live has sent so far and when: comment
`lci` N is line N of the drill's recording. It answers a live's comments sent so far, newest first, as the API
does (Tests/Peers/api/api-live-comments.json, a captured answer), each with the comment's `lci` as its `id` and
the time it was sent as `created_at`. A live id is its key with `:` made `-` (drill0:15 → drill0-15). Writes its
port to PORT_FILE once listening; runs until killed.
"""
import http.server
import json
import re
import sys
import threading
import time
import urllib.parse

SENT = re.compile(r"sent \S*:(\d+) on (\S+) to ")


class Lives:
    def __init__(self, messages):
        self.messages = messages
        self.lock = threading.Lock()
        self.sent = {}  # key -> {lci: unix seconds sent}

    def follow(self, path):
        with open(path, encoding="utf-8", errors="replace") as log:
            while True:
                line = log.readline()
                if not line:
                    time.sleep(0.05)
                    continue
                match = SENT.search(line)
                if match and int(match.group(1)) <= self.messages:
                    with self.lock:
                        self.sent.setdefault(match.group(2), {})[int(match.group(1))] = int(time.time())

    def comments(self, key):
        with self.lock:
            sent = dict(self.sent.get(key, {}))
        return [{"id": str(lci), "user_id": str(100000000 + lci), "user_name": f"viewer{lci}",
                 "comment": f"comment {lci}", "created_at": str(at), "is_moderator": 0, "is_continuous_streamer": 0,
                 "profile_image_url": "", "badge_image_url": ""}
                for lci, at in sorted(sent.items(), reverse=True)]


def main():
    port_file, messages, logs = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
    lives = Lives(messages)
    for path in logs:
        threading.Thread(target=lives.follow, args=(path,), daemon=True).start()

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            url = urllib.parse.urlsplit(self.path)
            live = urllib.parse.parse_qs(url.query).get("live_id", [""])[0]
            if url.path != "/api/live/live_comments" or not live:
                self.send_error(404)
                return
            body = json.dumps({"comments": lives.comments(live.replace("-", ":", 1)),
                               "status": {"ok": 1, "error": "", "error_code": 0, "msg": "", "message": "",
                                          "captcha_url": ""}}).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    http.server.ThreadingHTTPServer.request_queue_size = 1024  # a take-over asks for thousands at once
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    with open(port_file, "w") as out:
        print(server.server_address[1], file=out)
    server.serve_forever()


if __name__ == "__main__":
    main()
