// The ledgerlink image as a sandbox in a Node test, through the testcontainers package (docs/sandbox.md).
// Run: npm install && node --test   (LEDGERLINK_IMAGE names the image; scripts/image builds localhost/ledgerlink:latest)
import { test } from "node:test";
import assert from "node:assert/strict";
import { createHmac } from "node:crypto";
import { createServer } from "node:http";
import { readFileSync } from "node:fs";
import { GenericContainer, Wait } from "testcontainers";

const image = process.env.LEDGERLINK_IMAGE ?? "localhost/ledgerlink:latest";
const freePort = () => new Promise((resolve) => {
  const s = createServer().listen(0, "127.0.0.1", () => { const { port } = s.address(); s.close(() => resolve(port)); });
});

test("a sandbox in a container sends my receiver a signed test event", async () => {
  const port = await freePort();
  // Host network: the container's server and this process's receiver share the loopback
  // (development mode sends to http:// URIs on loopback hosts only).
  const ledgerlink = await new GenericContainer(image)
    .withNetworkMode("host")
    .withEnvironment({ LEDGERLINK_HTTP_HOST: "127.0.0.1", LEDGERLINK_HTTP_PORT: String(port),
                       LEDGERLINK_MANAGEMENT_PORT: String(await freePort()), LEDGERLINK_HOME: "/tmp/ledgerlink" })
    .withCopyContentToContainer([{ content: readFileSync(new URL("../sandbox-seed.yaml", import.meta.url)), target: "/tmp/seed.yaml", mode: 0o644 }])
    .withCommand(["serve", "--dev", "--seed", "/tmp/seed.yaml"])
    .withWaitStrategy(Wait.forLogMessage(/ledgerlink ready on/))
    .withStartupTimeout(180_000)
    .start();
  const received = [];
  const receiver = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => { received.push({ body, signature: req.headers["x-service-hmac-sha256"] }); res.end(); });
  });
  await new Promise((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  try {
    const base = `http://127.0.0.1:${port}`;
    const issued = await ledgerlink.exec(["ledgerlink", "tokens", "issue", "--user", "dev@example.com", "--app", "sandboxapp01", "--json"]);
    assert.equal(issued.exitCode, 0, issued.output);
    const { access_token: token } = JSON.parse(issued.stdout);
    const api = (method, path, body) => fetch(base + path, { method, body: body && JSON.stringify(body),
      headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json", "Api-Version": "alpha" } });
    const waitFor = async (name) => {
      for (let i = 0; i < 120; i++) {
        const hit = received.find((r) => new URLSearchParams(r.body).get("name") === name);
        if (hit) return hit;
        await new Promise((r) => setTimeout(r, 500));
      }
      throw new Error(`no ${name} within 60 s`);
    };

    const uri = `http://127.0.0.1:${receiver.address().port}/webhooks`;
    const result = async (response) => (await response.json()).response.result;   // the interface's envelope
    const { callback } = await result(await api("POST", "/events/account/SBX01/events/callbacks", { callback: { event: "invoice", uri } }));
    const code = new URLSearchParams((await waitFor("callback.verify")).body).get("verifier");
    const verified = await result(await api("PUT", `/events/account/SBX01/events/callbacks/${callback.callbackid}`, { callback: { verifier: code } }));
    assert.equal(verified.callback.verified, true);

    assert.equal((await api("POST", "/events/account/SBX01/events/test", { name: "invoice.create", object_id: 42 })).status, 202);
    const event = await waitFor("invoice.create");
    // X-Service-Hmac-SHA256: base64 HMAC-SHA256 keyed by the code over the form written as Python's json.dumps writes it.
    const params = Object.fromEntries(new URLSearchParams(event.body));
    const signed = "{" + Object.entries(params).map(([k, v]) => `${JSON.stringify(k)}: ${JSON.stringify(v)}`).join(", ") + "}";
    assert.equal(event.signature, createHmac("sha256", code).update(signed).digest("base64"));
    assert.equal(params.object_id, "42");
  } finally {
    receiver.close();
    await ledgerlink.stop();
  }
});
