#!/usr/bin/env python3
"""A loopback HTTPS server that reports the TLS each client offered, for the TLS tests of the HTTPS client
(stdlib only).

Usage: tls_peer.py serve CERT KEY [--tls1-only]

Listens on 127.0.0.1, on a free port, and prints that port alone on the first line of stdout. For every
connection it prints "sni <name>" (or "sni none" when the client sent no server name) as soon as the
ClientHello is read, then "handshake ok" or "handshake failed", and answers a GET with 200 "ok". With
--tls1-only it speaks TLS 1.0 and nothing newer. It exits when its stdin closes.
"""

import socket
import ssl
import sys
import threading
import warnings


def report(line):
    print(line, flush=True)


def serve_one(context, connection):
    seen = {"sni": None}

    def on_name(ssl_socket, name, ctx):
        seen["sni"] = name

    context.sni_callback = on_name
    try:
        tls = context.wrap_socket(connection, server_side=True)
    except (ssl.SSLError, OSError):
        report("sni " + (seen["sni"] or "none"))
        report("handshake failed")
        connection.close()
        return
    report("sni " + (seen["sni"] or "none"))
    report("handshake ok")
    try:
        request = b""
        while b"\r\n\r\n" not in request:
            chunk = tls.recv(4096)
            if not chunk:
                return
            request += chunk
        tls.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok")
    except (ssl.SSLError, OSError):
        pass
    finally:
        tls.close()


def main():
    if len(sys.argv) < 4 or sys.argv[1] != "serve":
        sys.exit(__doc__)
    cert, key = sys.argv[2], sys.argv[3]
    tls1_only = "--tls1-only" in sys.argv[4:]
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert, key)
    if tls1_only:
        warnings.filterwarnings("ignore", category=DeprecationWarning)  # TLS 1.0 is the point
        context.set_ciphers("DEFAULT:@SECLEVEL=0")
        context.minimum_version = ssl.TLSVersion.TLSv1
        context.maximum_version = ssl.TLSVersion.TLSv1
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(16)
    report(str(listener.getsockname()[1]))

    def accept_loop():
        while True:
            connection, _ = listener.accept()
            serve_one(context, connection)

    threading.Thread(target=accept_loop, daemon=True).start()
    # Ends with its stdin: a test run that dies leaves nothing behind.
    sys.stdin.read()


if __name__ == "__main__":
    main()
