// A webhook receiver as an integrating application writes it with the Standard Webhooks reference
// library (npm "standardwebhooks"): the code of the verification request sent to a path signs what
// is later sent to that path; the secret is "whsec_" + base64 of the code; the body is form-encoded.
// Listens on 127.0.0.1 (a free port), prints "listening <port>", then one JSON line per request:
// {path, name, object_id, webhook_id, event_id, timestamp, authentic, error, authentic_ignoring_time}.
// "authentic" is the library's verdict as is (signature and timestamp, five minutes' tolerance);
// "authentic_ignoring_time" the verdict with the tolerance disabled (the library's clock set to the
// message's own timestamp while it verifies). Answers 200 when authentic, 401 otherwise.
import http from "node:http";
import { Webhook } from "standardwebhooks";

const codes = new Map();

function verify(code, body, headers, ignoreTime) {
  const secret = "whsec_" + Buffer.from(code, "utf8").toString("base64");
  const realNow = Date.now;
  if (ignoreTime) Date.now = () => Number(headers["webhook-timestamp"]) * 1000;
  try {
    new Webhook(secret).verify(body, headers, { jsonParse: false });
    return null;
  } catch (e) {
    return String(e.message || e);
  } finally {
    Date.now = realNow;
  }
}

const server = http.createServer((req, res) => {
  let body = "";
  req.setEncoding("utf8");
  req.on("data", (chunk) => (body += chunk));
  req.on("end", () => {
    const params = Object.fromEntries(new URLSearchParams(body));
    if (params.name === "callback.verify") codes.set(req.url, params.verifier);
    const code = codes.get(req.url);
    const error = code === undefined ? "no verification code for this path" : verify(code, body, req.headers, false);
    const ignoringTime = code === undefined ? "no code" : verify(code, body, req.headers, true);
    res.writeHead(error === null ? 200 : 401, { "Content-Length": "0" });
    res.end();
    console.log(JSON.stringify({
      path: req.url, name: params.name, object_id: params.object_id, user_id: params.user_id,
      webhook_id: req.headers["webhook-id"], event_id: req.headers["x-service-event-id"],
      timestamp: req.headers["webhook-timestamp"], verifier: params.verifier,
      authentic: error === null, error, authentic_ignoring_time: ignoringTime === null,
    }));
  });
});

server.listen(0, "127.0.0.1", () => console.log("listening " + server.address().port));
