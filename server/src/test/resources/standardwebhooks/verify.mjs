// Verifies one webhook with the Standard Webhooks reference library (npm "standardwebhooks"), as an
// operator's receiver would. Input on stdin: {"secret", "headers", "body", "now"?}; "now" (Unix
// seconds) stands in for the clock when a test moved the server's clock ahead of real time.
// Prints {"ok": true, "payload": ...} or {"ok": false, "error": ...} (exit code 1).
import { Webhook } from "standardwebhooks";

let input = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => (input += chunk));
process.stdin.on("end", () => {
  const { secret, headers, body, now } = JSON.parse(input);
  if (now !== undefined && now !== null) Date.now = () => now * 1000;
  try {
    const payload = new Webhook(secret).verify(body, headers);
    console.log(JSON.stringify({ ok: true, payload }));
  } catch (e) {
    console.log(JSON.stringify({ ok: false, error: String(e) }));
    process.exitCode = 1;
  }
});
