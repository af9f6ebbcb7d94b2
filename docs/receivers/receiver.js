// A ledgerlink webhook receiver in Node with the `standardwebhooks` library (docs/sandbox.md).
//
// The Standard Webhooks secret of a callback is "whsec_" + base64 of its verification code's UTF-8
// bytes. The body is form-encoded, not JSON: verify with { jsonParse: false } and read it with
// URLSearchParams. One callback per path: the code of the verification request sent to a path
// signs everything later sent to that path.
//
//   npm install standardwebhooks      (scripts/receivers-install does it for docs/receivers)
//   PORT=9000 node receiver.js        # prints one JSON line per request it gets
const http = require("http");
const { Webhook } = require("standardwebhooks");

const codes = new Map(); // path -> verification code; a real app keeps these in its database

const server = http.createServer((req, res) => {
  let body = "";
  req.setEncoding("utf8");
  req.on("data", (chunk) => (body += chunk));
  req.on("end", () => {
    const params = Object.fromEntries(new URLSearchParams(body));
    if (params.name === "callback.verify") codes.set(req.url, params.verifier); // send it back with PUT .../callbacks/<object_id>
    const code = codes.get(req.url);
    let authentic = false;
    if (code !== undefined) {
      try {
        const secret = "whsec_" + Buffer.from(code, "utf8").toString("base64");
        new Webhook(secret).verify(body, req.headers, { jsonParse: false }); // checks webhook-timestamp too (5 minutes)
        authentic = true;
      } catch (e) {
        authentic = false;
      }
    }
    res.writeHead(authentic ? 200 : 401, { "Content-Length": "0" });
    res.end();
    console.log(JSON.stringify({ path: req.url, authentic, ...params }));
  });
});

server.listen(Number(process.env.PORT || 9000), "127.0.0.1", () => {
  console.log(`listening on http://127.0.0.1:${server.address().port}`);
});
