"""The ledgerlink image as a sandbox in a Python test, with the Docker SDK (docs/sandbox.md).

    python3 -m unittest test_sandbox.py      # pip install docker, or Debian's python3-docker; LEDGERLINK_IMAGE names the image

Bridge networking with published ports, as on Docker Desktop: the engine picks the host ports, and the
sandbox is driven over its HTTP controls (/sandbox/v1/) with its operator key. The SDK talks to the
engine's API (DOCKER_HOST, or the default socket), so the same test runs against Docker or Podman.
Webhooks go to a receiver in this process and to one in a sibling container on a network of the test's
own (docs/receivers/receiver.py in RECEIVER_IMAGE, any image with python3).
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
RECEIVER_IMAGE = os.environ.get("RECEIVER_IMAGE", "docker.io/library/python:3.12-slim")
SEED = Path(__file__).resolve().parent.parent / "sandbox-seed.yaml"
RECEIVER = Path(__file__).resolve().parent.parent / "receivers" / "receiver.py"
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


def tar_of(name, path):
    """A tar archive of one file (and its folders), for put_archive."""
    archive = io.BytesIO()
    with tarfile.open(fileobj=archive, mode="w") as tar:
        for folder in Path(name).parents[:-1][::-1]:
            entry = tarfile.TarInfo(str(folder))
            entry.type, entry.mode = tarfile.DIRTYPE, 0o755
            tar.addfile(entry)
        info = tarfile.TarInfo(name)
        info.size, info.mode = path.stat().st_size, 0o644
        tar.addfile(info, io.BytesIO(path.read_bytes()))
    return archive.getvalue()


def signature(code, params):
    """X-Service-Hmac-SHA256: HMAC-SHA256 keyed by the verification code over json.dumps of the form, base64."""
    return base64.b64encode(hmac.new(code.encode(), json.dumps(params).encode(), hashlib.sha256).digest()).decode()


class SandboxInAContainer(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.engine = docker.from_env(timeout=300)   # the engine's calls, on a laptop busy building: minutes, not the SDK's 60 s
        cls.key = secrets.token_hex(24)
        # A network of the test's own: the sibling receiver is "receiver" on it, a name the sandbox may call (dev.callback-hosts).
        cls.network = cls.engine.networks.create("ledgerlink-sandbox-" + secrets.token_hex(4), driver="bridge")
        cls.sibling = cls.container = None
        try:
            cls.sibling = cls.engine.containers.get(cls.engine.api.create_container(
                RECEIVER_IMAGE, ["python3", "/receivers/receiver.py"], environment={"PORT": "9000", "HOST": "0.0.0.0"},
                host_config=cls.engine.api.create_host_config(network_mode=cls.network.name),
                networking_config=cls.engine.api.create_networking_config(
                    {cls.network.name: cls.engine.api.create_endpoint_config(aliases=["receiver"])}))["Id"])
            cls.sibling.put_archive("/", tar_of("receivers/receiver.py", RECEIVER))
            cls.sibling.start()
            cls.container = cls.engine.containers.create(
                IMAGE, ["serve", "--dev", "--seed", "/tmp/seed.yaml"], detach=True, network=cls.network.name,
                ports={"8080/tcp": None, "9090/tcp": None},               # published on ports the engine picks
                environment={"LEDGERLINK_EVENTS_OPERATOR_KEY": cls.key, "LEDGERLINK_HOME": "/tmp/ledgerlink",
                             "LEDGERLINK_DEV_CALLBACK_HOSTS": "receiver"})
            # Linux Docker only (Docker Desktop and Podman name the host themselves): extra_hosts={"host.docker.internal": "host-gateway"}
            cls.container.put_archive("/tmp", tar_of("seed.yaml", SEED))   # copied in, so a remote engine works too
            cls.container.start()
            cls.container.reload()
            ports = cls.container.attrs["NetworkSettings"]["Ports"]
            url = urllib.parse.urlparse(cls.engine.api.base_url)   # http+docker://localhost for a socket, http://HOST:2376 for a remote engine
            host = "127.0.0.1" if url.scheme == "http+docker" or url.hostname in (None, "localhost") else url.hostname
            cls.base = "http://%s:%s" % (host, ports["8080/tcp"][0]["HostPort"])
            management = "http://%s:%s" % (host, ports["9090/tcp"][0]["HostPort"])
            deadline = time.time() + 300
            while not cls.ready(management):                          # 200 once the seed file is applied
                if time.time() > deadline:
                    raise AssertionError("not ready within 5 minutes:\n" + cls.container.logs().decode())
                time.sleep(1)
        except BaseException:
            cls.remove_containers()
            raise
        # The receiver, on every interface: the container reaches it through the engine's name for this machine.
        cls.receiver = ThreadingHTTPServer(("0.0.0.0", 0), Receiver)
        threading.Thread(target=cls.receiver.serve_forever, daemon=True).start()

    @classmethod
    def tearDownClass(cls):
        cls.receiver.shutdown()
        cls.remove_containers()

    @classmethod
    def remove_containers(cls):
        for c in (cls.container, cls.sibling):
            if c is not None:
                c.remove(force=True, v=True)
        cls.network.remove()

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

    def sibling_got(self, name):
        """The sibling receiver's line for the first request named so (it prints one JSON line per request)."""
        for _ in range(120):
            for line in self.sibling.logs().decode().splitlines():
                if line.startswith("{") and json.loads(line).get("name") == name:
                    return json.loads(line)
            time.sleep(0.5)
        self.fail("the receiver container got no %s within 60 s:\n%s" % (name, self.sibling.logs().decode()))

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

        # A callback to the receiver container, by its name on the network: it checks the signature itself.
        uri = "http://receiver:9000/webhooks"
        status, sibling = self.call("POST", "/events/account/%s/events/callbacks" % ACCOUNT, {"callback": {"event": "invoice.update", "uri": uri}}, token)
        self.assertEqual(200, status, sibling)
        sibling_id = sibling["response"]["result"]["callback"]["callbackid"]
        sibling_code = self.sibling_got("callback.verify")["verifier"]
        status, verified = self.call("PUT", "/events/account/%s/events/callbacks/%d" % (ACCOUNT, sibling_id), {"callback": {"verifier": sibling_code}}, token)
        self.assertTrue(verified["response"]["result"]["callback"]["verified"], verified)
        self.assertEqual(202, self.call("POST", "/events/account/%s/events/test" % ACCOUNT, {"name": "invoice.update", "object_id": 43}, token)[0])
        got = self.sibling_got("invoice.update")
        self.assertEqual(("43", True), (got["object_id"], got["authentic"]), "the receiver container checked the signature")

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
