// The ledgerlink image as a sandbox in a Node test, through the testcontainers package (docs/sandbox.md).
// Run: npm install && node --test   (LEDGERLINK_IMAGE names the image; scripts/image builds localhost/ledgerlink:latest)
// Bridge networking with published ports, as on Docker Desktop: every address comes from getHost() and
// getMappedPort(), and the sandbox is driven over its HTTP controls (/sandbox/v1/) with its operator key.
// Webhooks go to a receiver in this process and to one in a sibling container on a network of the test's own
// (docs/receivers/receiver.py in RECEIVER_IMAGE, any image with python3).
import { test } from "node:test";
import assert from "node:assert/strict";
import { createHmac, randomBytes } from "node:crypto";
import { createServer } from "node:http";
import { readFileSync } from "node:fs";
import { GenericContainer, Network, Wait } from "testcontainers";

const image = process.env.LEDGERLINK_IMAGE ?? "localhost/ledgerlink:latest";
const receiverImage = process.env.RECEIVER_IMAGE ?? "docker.io/library/python:3.12-slim";
const operatorKey = randomBytes(24).toString("hex");

test("a sandbox in a container: tokens, signed webhooks to this process and to a container, the clock, a fault, reset", async () => {
  // A network of the test's own: the sibling receiver is "receiver" on it, a name the sandbox may call (dev.callback-hosts).
  const network = await new Network().start();
  const sibling = await new GenericContainer(receiverImage)
    .withNetwork(network).withNetworkAliases("receiver")
    .withExposedPorts(9000)                                           // what the container's start waits to see bound
    .withEnvironment({ PORT: "9000", HOST: "0.0.0.0" })
    .withCopyContentToContainer([{ content: readFileSync(new URL("../receivers/receiver.py", import.meta.url)), target: "/receivers/receiver.py", mode: 0o644 }])
    .withCommand(["python3", "/receivers/receiver.py"])
    .withWaitStrategy(Wait.forLogMessage("listening on"))
    .start();
  const siblingLines = [];   // it prints one JSON line per request it gets
  (await sibling.logs()).on("data", (chunk) => siblingLines.push(...String(chunk).split("\n").filter((l) => l.startsWith("{"))));
  const ledgerlink = await new GenericContainer(image)
    .withNetwork(network)
    .withExposedPorts(8080, 9090)                                     // the API, and /readyz on the management port
    .withEnvironment({ LEDGERLINK_EVENTS_OPERATOR_KEY: operatorKey, LEDGERLINK_HOME: "/tmp/ledgerlink", LEDGERLINK_DEV_CALLBACK_HOSTS: "receiver" })
    .withCopyContentToContainer([{ content: readFileSync(new URL("../sandbox-seed.yaml", import.meta.url)), target: "/tmp/seed.yaml", mode: 0o644 }])
    .withCommand(["serve", "--dev", "--seed", "/tmp/seed.yaml"])
    // Linux Docker only (Docker Desktop and Podman name the host themselves):
    // .withExtraHosts([{ host: "host.docker.internal", ipAddress: "host-gateway" }])
    .withWaitStrategy(Wait.forHttp("/readyz", 9090))                 // 200 once the seed file is applied
    .withStartupTimeout(300_000)
    .start();

  // The receiver of this test, on every interface: the container reaches it through the engine's name for
  // this machine (host.docker.internal on Docker, host.containers.internal on Podman), not through 127.0.0.1.
  const received = [];
  const receiver = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => { received.push({ body, signature: req.headers["x-service-hmac-sha256"] }); res.end(); });
  });
  await new Promise((resolve) => receiver.listen(0, "0.0.0.0", resolve));
  try {
    const base = `http://${ledgerlink.getHost()}:${ledgerlink.getMappedPort(8080)}`;
    const call = async (method, path, body, bearer = operatorKey) => {
      const r = await fetch(base + path, { method, body: body && JSON.stringify(body),
        headers: { Authorization: `Bearer ${bearer}`, "Content-Type": "application/json", "Api-Version": "alpha" } });
      return { status: r.status, body: await r.json() };
    };
    const token = async (form) => {   // the app's own calls to the token endpoint, with its client credentials
      const r = await fetch(base + "/auth/oauth/token", { method: "POST", body: new URLSearchParams(form),
        headers: { Authorization: "Basic " + Buffer.from("sandboxapp01:sandbox-app-secret").toString("base64") } });
      return { status: r.status, body: await r.json() };
    };
    const waitFor = async (name) => {
      for (let i = 0; i < 120; i++) {
        const hit = received.find((r) => new URLSearchParams(r.body).get("name") === name);
        if (hit) return hit;
        await new Promise((r) => setTimeout(r, 500));
      }
      throw new Error(`no ${name} within 60 s`);
    };
    const hostName = async () => {   // the name this engine gives the host, as the container resolves it
      for (const name of ["host.docker.internal", "host.containers.internal"]) {
        if ((await ledgerlink.exec(["getent", "hosts", name])).exitCode === 0) return name;
      }
      throw new Error("the container has no name for this machine (Linux Docker: add host.docker.internal:host-gateway)");
    };

    // Tokens for the seeded user and app, without a browser; the refresh token refreshes.
    const issued = await call("POST", "/sandbox/v1/tokens", { user: "dev@example.com", client_id: "sandboxapp01" });
    assert.equal(issued.status, 200, JSON.stringify(issued.body));
    const refreshed = await token({ grant_type: "refresh_token", refresh_token: issued.body.refresh_token });
    assert.equal(refreshed.status, 200, JSON.stringify(refreshed.body));
    const accessToken = refreshed.body.access_token;

    // A callback to the receiver in this process: verified with the code of its verification request.
    const uri = `http://${await hostName()}:${receiver.address().port}/webhooks`;
    const result = (answer) => answer.body.response.result;   // the interface's envelope
    const { callback } = result(await call("POST", "/events/account/SBX01/events/callbacks", { callback: { event: "invoice", uri } }, accessToken));
    const code = new URLSearchParams((await waitFor("callback.verify")).body).get("verifier");
    const verified = result(await call("PUT", `/events/account/SBX01/events/callbacks/${callback.callbackid}`, { callback: { verifier: code } }, accessToken));
    assert.equal(verified.callback.verified, true);

    // A test event: signed with the code, X-Service-Hmac-SHA256 over the form as Python's json.dumps writes it.
    assert.equal((await call("POST", "/events/account/SBX01/events/test", { name: "invoice.create", object_id: 42 }, accessToken)).status, 202);
    const event = await waitFor("invoice.create");
    const params = Object.fromEntries(new URLSearchParams(event.body));
    const signed = "{" + Object.entries(params).map(([k, v]) => `${JSON.stringify(k)}: ${JSON.stringify(v)}`).join(", ") + "}";
    assert.equal(event.signature, createHmac("sha256", code).update(signed).digest("base64"));
    assert.equal(params.object_id, "42");

    // A callback to the receiver container, by its name on the network: it checks the signature itself.
    const siblingGot = async (name) => {
      for (let i = 0; i < 120; i++) {
        const hit = siblingLines.map((l) => JSON.parse(l)).find((r) => r.name === name);
        if (hit) return hit;
        await new Promise((r) => setTimeout(r, 500));
      }
      throw new Error(`the receiver container got no ${name} within 60 s: ${siblingLines.join("\n")}`);
    };
    const registered = result(await call("POST", "/events/account/SBX01/events/callbacks",
      { callback: { event: "invoice.update", uri: "http://receiver:9000/webhooks" } }, accessToken));
    const siblingCode = (await siblingGot("callback.verify")).verifier;
    const siblingVerified = result(await call("PUT", `/events/account/SBX01/events/callbacks/${registered.callback.callbackid}`,
      { callback: { verifier: siblingCode } }, accessToken));
    assert.equal(siblingVerified.callback.verified, true);
    assert.equal((await call("POST", "/events/account/SBX01/events/test", { name: "invoice.update", object_id: 43 }, accessToken)).status, 202);
    const update = await siblingGot("invoice.update");
    assert.deepEqual([update.object_id, update.authentic], ["43", true], "the receiver container checked the signature");

    // A fault: the next refresh gets a 503 (the FreshBooks SDK would retry it by itself), the one after works.
    const fault = await call("POST", "/sandbox/v1/faults", { route: "token", grant_type: "refresh_token", effect: { status: 503, retry_after: 1 } });
    assert.equal(fault.status, 201, JSON.stringify(fault.body));
    const refused = await token({ grant_type: "refresh_token", refresh_token: refreshed.body.refresh_token });
    assert.equal(refused.status, 503);
    assert.equal(refused.body.error, "temporarily_unavailable");
    const again = await token({ grant_type: "refresh_token", refresh_token: refreshed.body.refresh_token });
    assert.equal(again.status, 200, "the refused refresh used nothing up");

    // The clock: 12 hours and a minute later the access token is refused, and the journal says whose call it was.
    assert.equal((await call("POST", "/sandbox/v1/clock", { advance: "PT12H1M" })).status, 200);
    assert.equal((await call("GET", "/auth/api/v1/users/me", undefined, again.body.access_token)).status, 401);
    const journal = await call("GET", "/sandbox/v1/requests?client_id=sandboxapp01&limit=1");
    assert.deepEqual([journal.body.requests[0].path, journal.body.requests[0].status], ["/auth/api/v1/users/me", 401]);

    // Reset: back to the seed, the clock at real time.
    assert.equal((await call("POST", "/sandbox/v1/reset")).status, 200);
    assert.equal((await call("GET", "/sandbox/v1/clock")).body.offset, "PT0S");
  } finally {
    receiver.close();
    await ledgerlink.stop();
    await sibling.stop();
    await network.stop();
  }
});
