#!/usr/bin/env python3
"""A ledgerlink webhook receiver in Python, from the standard library only (docs/sandbox.md).

It checks X-Service-Hmac-SHA256 the way the FreshBooks documentation shows: HMAC-SHA256 over
json.dumps of the form parameters, keyed with the callback's verification code, base64-encoded.
The body is form-encoded (name=...&object_id=...), not JSON. One callback per path: the code of the
verification request sent to a path signs everything later sent to that path.

    PORT=9000 python3 receiver.py      # prints one JSON line per request it gets (HOST=0.0.0.0 in a container)
"""
import base64
import hashlib
import hmac
import json
import os
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qsl

codes = {}  # path -> verification code; a real app keeps these in its database


def signature(code, params):
    message = json.dumps(params)  # a dict keeps the order the parameters were sent in
    digest = hmac.new(code.encode("utf-8"), message.encode("utf-8"), hashlib.sha256).digest()
    return base64.b64encode(digest).decode("ascii")


class Receiver(BaseHTTPRequestHandler):
    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", "0"))).decode("utf-8")
        params = dict(parse_qsl(body, keep_blank_values=True))
        if params.get("name") == "callback.verify":
            codes[self.path] = params.get("verifier")  # send it back: PUT .../callbacks/<object_id> {"callback": {"verifier": ...}}
        code = codes.get(self.path)
        sent = self.headers.get("X-Service-Hmac-SHA256", "")
        authentic = code is not None and hmac.compare_digest(signature(code, params), sent)
        self.send_response(200 if authentic else 401)
        self.send_header("Content-Length", "0")
        self.end_headers()
        print(json.dumps({"path": self.path, "authentic": authentic, **params}), flush=True)

    def log_message(self, *args):
        pass  # stdout carries one JSON line per request


if __name__ == "__main__":
    host = os.environ.get("HOST", "127.0.0.1")   # 0.0.0.0 in a container (docs/sandbox.md, "Receivers in containers")
    server = ThreadingHTTPServer((host, int(os.environ.get("PORT", "9000"))), Receiver)
    print("listening on http://%s:%d" % (host, server.server_address[1]), flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        sys.exit(0)
