"""The ledgerlink image as a sandbox in a Python test, with the Docker SDK (docs/sandbox.md).

    python3 -m unittest test_sandbox.py      # pip install docker, or Debian's python3-docker; LEDGERLINK_IMAGE names the image

Bridge networking with published ports, as on Docker Desktop: the engine picks the host ports, and the
sandbox is driven over its HTTP controls (/sandbox/v1/) with its operator key. The SDK talks to the
engine's API (DOCKER_HOST, or the default socket), so the same test runs against Docker or Podman.
"""
import base64
import hashlib
import hmac
import http.client
import io
import json
import os
import secrets
import tarfile
import threading
import time
import unittest
import urllib.error
import urllib.parse
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import docker

IMAGE = os.environ.get("LEDGERLINK_IMAGE", "localhost/ledgerlink:latest")
SEED = Path(__file__).resolve().parent.parent / "sandbox-seed.yaml"
APP, SECRET, USER, ACCOUNT = "sandboxapp01", "sandbox-app-secret", "dev@example.com", "SBX01"


class Receiver(BaseHTTPRequestHandler):
    """The test's webhook receiver: keeps every request (form body and signature) it gets."""
    received = []

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", "0"))).decode("utf-8")
        Receiver.received.append((dict(urllib.parse.parse_qsl(body, keep_blank_values=True)), self.headers.get("X-Service-Hmac-SHA256")))
        self.send_response(200)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *args):
        pass


def signature(code, params):
    """X-Service-Hmac-SHA256: HMAC-SHA256 keyed by the verification code over json.dumps of the form, base64."""
    return base64.b64encode(hmac.new(code.encode(), json.dumps(params).encode(), hashlib.sha256).digest()).decode()


class SandboxInAContainer(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.engine = docker.from_env()
        cls.key = secrets.token_hex(24)
        cls.container = cls.engine.containers.create(
            IMAGE, ["serve", "--dev", "--seed", "/tmp/seed.yaml"], detach=True,
            ports={"8080/tcp": None, "9090/tcp": None},               # published on ports the engine picks
            environment={"LEDGERLINK_EVENTS_OPERATOR_KEY": cls.key, "LEDGERLINK_HOME": "/tmp/ledgerlink"})
        # Linux Docker only (Docker Desktop and Podman name the host themselves): extra_hosts={"host.docker.internal": "host-gateway"}
        try:
            archive = io.BytesIO()
            with tarfile.open(fileobj=archive, mode="w") as tar:      # copied in, so a remote engine works too
                info = tarfile.TarInfo("seed.yaml")
                info.size, info.mode = SEED.stat().st_size, 0o644
                tar.addfile(info, io.BytesIO(SEED.read_bytes()))
            cls.container.put_archive("/tmp", archive.getvalue())
            cls.container.start()
            cls.container.reload()
            ports = cls.container.attrs["NetworkSettings"]["Ports"]
            url = urllib.parse.urlparse(cls.engine.api.base_url)   # http+docker://localhost for a socket, http://HOST:2376 for a remote engine
            host = "127.0.0.1" if url.scheme == "http+docker" or url.hostname in (None, "localhost") else url.hostname
            cls.base = "http://%s:%s" % (host, ports["8080/tcp"][0]["HostPort"])
            management = "http://%s:%s" % (host, ports["9090/tcp"][0]["HostPort"])
            deadline = time.time() + 180
            while not cls.ready(management):                          # 200 once the seed file is applied
                if time.time() > deadline:
                    raise AssertionError("not ready within 3 minutes:\n" + cls.container.logs().decode())
                time.sleep(1)
        except BaseException:
            cls.container.remove(force=True, v=True)
            raise
        # The receiver, on every interface: the container reaches it through the engine's name for this machine.
        cls.receiver = ThreadingHTTPServer(("0.0.0.0", 0), Receiver)
        threading.Thread(target=cls.receiver.serve_forever, daemon=True).start()

    @classmethod
    def tearDownClass(cls):
        cls.receiver.shutdown()
        cls.container.remove(force=True, v=True)

    @staticmethod
    def ready(management):
        try:
            return urllib.request.urlopen(management + "/readyz", timeout=5).status == 200
        except (OSError, http.client.HTTPException):   # not listening yet, reset, or slow to answer while starting
            return False

    def call(self, method, path, body=None, bearer=None, form=None):
        """One call to the sandbox: JSON with a bearer (the operator key by default), or a form with the app's credentials."""
        headers = {"Api-Version": "alpha"}
        if form is not None:
            data = urllib.parse.urlencode(form).encode()
            headers["Authorization"] = "Basic " + base64.b64encode(("%s:%s" % (APP, SECRET)).encode()).decode()
        else:
            data = None if body is None else json.dumps(body).encode()
            headers.update({"Authorization": "Bearer " + (bearer or self.key), "Content-Type": "application/json"})
        request = urllib.request.Request(self.base + path, data=data, method=method, headers=headers)
        try:
            with urllib.request.urlopen(request, timeout=30) as r:
                return r.status, json.loads(r.read() or b"{}")
        except urllib.error.HTTPError as e:
            return e.code, json.loads(e.read() or b"{}")

    def host_name(self):
        """The name this engine gives the host, as the container resolves it."""
        for name in ("host.docker.internal", "host.containers.internal"):
            if self.container.exec_run(["getent", "hosts", name]).exit_code == 0:
                return name
        self.fail("the container has no name for this machine (Linux Docker: extra_hosts host.docker.internal: host-gateway)")

    def wait_for(self, name):
        for _ in range(120):
            for params, sig in Receiver.received:
                if params.get("name") == name:
                    return params, sig
            time.sleep(0.5)
        self.fail("no %s within 60 s" % name)

    def test_tokens_a_signed_webhook_the_clock_a_fault_and_reset(self):
        status, issued = self.call("POST", "/sandbox/v1/tokens", {"user": USER, "client_id": APP})
        self.assertEqual(200, status, issued)
        status, refreshed = self.call("POST", "/auth/oauth/token", form={"grant_type": "refresh_token", "refresh_token": issued["refresh_token"]})
        self.assertEqual(200, status, refreshed)
        token = refreshed["access_token"]

        uri = "http://%s:%d/webhooks" % (self.host_name(), self.receiver.server_address[1])
        status, registered = self.call("POST", "/events/account/%s/events/callbacks" % ACCOUNT, {"callback": {"event": "invoice", "uri": uri}}, token)
        self.assertEqual(200, status, registered)
        callback_id = registered["response"]["result"]["callback"]["callbackid"]
        code = self.wait_for("callback.verify")[0]["verifier"]
        status, verified = self.call("PUT", "/events/account/%s/events/callbacks/%d" % (ACCOUNT, callback_id), {"callback": {"verifier": code}}, token)
        self.assertTrue(verified["response"]["result"]["callback"]["verified"], verified)

        status, _ = self.call("POST", "/events/account/%s/events/test" % ACCOUNT, {"name": "invoice.create", "object_id": 42}, token)
        self.assertEqual(202, status)
        params, sig = self.wait_for("invoice.create")
        self.assertEqual("42", params["object_id"])
        self.assertTrue(hmac.compare_digest(signature(code, params), sig), "signed with the callback's code")

        status, _ = self.call("POST", "/sandbox/v1/faults", {"route": "token", "grant_type": "refresh_token", "effect": {"status": 503, "retry_after": 1}})
        self.assertEqual(201, status)
        status, refused = self.call("POST", "/auth/oauth/token", form={"grant_type": "refresh_token", "refresh_token": refreshed["refresh_token"]})
        self.assertEqual((503, "temporarily_unavailable"), (status, refused["error"]))
        status, again = self.call("POST", "/auth/oauth/token", form={"grant_type": "refresh_token", "refresh_token": refreshed["refresh_token"]})
        self.assertEqual(200, status, "the refused refresh used nothing up")

        status, _ = self.call("POST", "/sandbox/v1/clock", {"advance": "PT12H1M"})
        self.assertEqual(200, status)
        self.assertEqual(401, self.call("GET", "/auth/api/v1/users/me", bearer=again["access_token"])[0], "expired 12 hours later")
        latest = self.call("GET", "/sandbox/v1/requests?client_id=%s&limit=1" % APP)[1]["requests"][0]
        self.assertEqual(("/auth/api/v1/users/me", 401), (latest["path"], latest["status"]))

        self.assertEqual(200, self.call("POST", "/sandbox/v1/reset")[0])
        self.assertEqual("PT0S", self.call("GET", "/sandbox/v1/clock")[1]["offset"])


if __name__ == "__main__":
    unittest.main()
