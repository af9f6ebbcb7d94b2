package dev.ledgerlink.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ledgerlink.oauth.TokenPair;
import dev.ledgerlink.testing.Fixtures;
import dev.ledgerlink.testing.LedgerlinkTest;
import dev.ledgerlink.testing.ServerSettings;
import dev.ledgerlink.testing.TestHttp;
import dev.ledgerlink.testing.TestServer;
import io.javalin.http.HandlerType;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Thousands of generated hostile requests across every route the server registers (read from its
 * route table, so routes added later are covered without touching this test) and every method:
 * broken and wrong-typed JSON and forms, odd charsets, chunked and truncated bodies, huge, unicode and
 * NUL values, bad percent-encoding, oversized headers, injection strings; with and without valid
 * tokens, cookies, CSRF tokens and the operator key. Sent over raw sockets, since a well-behaved
 * client cannot send most of them. Each request is built from its own seed: a failure names the
 * seed and the request, and {@code -Dhostile.seed=N} replays the run.
 *
 * <p>Asserts for every answer: no 5xx; no stack trace or exception name; outside the HTML pages
 * (authorization page, account page, developer console), every error is the documented JSON body (token endpoints: RFC 6749 §5.2,
 * which the API body also satisfies). Afterwards the server is still healthy.
 */
@LedgerlinkTest
@ServerSettings("events.operator-key=" + HostileInputTest.OPERATOR_KEY)
class HostileInputTest {
    private static final int REQUESTS = Integer.getInteger("hostile.requests", 2500);
    private static final long SEED = Long.getLong("hostile.seed", System.nanoTime());
    static final String OPERATOR_KEY = "hostile-test-operator-key";
    private static final Pattern TRACE = Pattern.compile(
            "(?i)(exception|\\bat (java|dev|org|io|com|jdk|kotlin)\\.|\\.java:\\d|stack ?trace|jetty|javalin|jdbi|sqlstate)");
    private static final String[] METHODS = {"GET", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "HEAD", "TRACE", "FROB", "CONNECT"};
    private static final String[] NASTY = {
            "", " ", "\u0000", "%00", "%zz", "%", "%C3%28", "..;", "../..", "%2e%2e%2f", "' OR 1=1 --", "\"; drop table users; --",
            "<script>alert(1)</script>", "${jndi:ldap://127.0.0.1/x}", "{{7*7}}", "\u202e\u0000\ud83d\ude00", "null", "-1",
            "9999999999999999999999", "1e309", "0x10", "[]", "{}", "\\", "a\r\nX-Injected: 1", "é", "\uFFFF", "\uD800"};
    private static final String[] CHARSETS = {"bogus", "utf-8", "UTF-16", "iso-8859-1", "\"utf-8\"", "", "utf-8; charset=bogus", "x-user-defined", "utf-7"};
    private static final String[] CONTENT_TYPES = {"application/json", "application/x-www-form-urlencoded", "text/plain",
            "multipart/form-data; boundary=xyz", "application/xml", "application/json;charset=", "*/*", "", "application/json\u0000"};

    private static TestServer server;
    private static Fixtures fixture;
    private static TokenPair tokens;
    private static List<Route> routes;
    private static String sessionCookie;
    private static String csrfToken;
    /** The fixture user signed in on the account page: its routes and JSON API are probed with a real session too. */
    private static String accountCookie;
    private static String accountCsrf;

    private record Route(String method, String path) {}

    @BeforeAll
    static void start() {
        tokens = fixture.issue();
        routes = server.server.web().unsafe.internalRouter.allHttpHandlers().stream()
                .map(e -> e.endpoint)
                .filter(e -> e.method != HandlerType.BEFORE && e.method != HandlerType.AFTER
                        && e.method != HandlerType.BEFORE_MATCHED && e.method != HandlerType.AFTER_MATCHED)
                .map(e -> new Route(e.method.name(), e.path)).distinct().toList();
        // The test server runs in development mode: the sandbox's controls are probed too.
        for (String method : List.of("GET", "POST", "DELETE")) {
            assertTrue(routes.contains(new Route(method, "/sandbox/v1/clock")), method + " /sandbox/v1/clock is among the probed routes");
        }
        TestHttp.Response page = server.http.get("/oauth/authorize?response_type=code&client_id=" + fixture.app().clientId()
                + "&redirect_uri=" + URLEncoder.encode(Fixtures.REDIRECT_URI, StandardCharsets.UTF_8));
        String setCookie = page.header("Set-Cookie");
        sessionCookie = setCookie == null ? "ll_session=none" : setCookie.split(";")[0];
        Matcher csrf = Pattern.compile("name=\"csrf_token\" value=\"([^\"]+)\"").matcher(page.body());
        csrfToken = csrf.find() ? csrf.group(1) : "none";
        try (var user = new dev.ledgerlink.oauth.BrowserSession(server.baseUrl())) {
            user.get("/oauth/account");
            user.logIn(fixture.user().email(), fixture.password());
            assertEquals(303, user.last.status(), user.last.body());
            accountCookie = "ledgerlink_session=" + user.cookies().getCookieStore().getCookies().stream()
                    .filter(c -> c.getName().equals("ledgerlink_session")).findFirst().orElseThrow().getValue();
            accountCsrf = user.api("GET", "/oauth/account/api/connected-apps").json().get("csrf_token").asText();
        }
    }

    @Test
    void noGeneratedRequestGetsA5xxAStackTraceOrAnUndocumentedErrorBody() {
        assertTrue(routes.size() >= 10, "the route table was read: " + routes);
        assertTrue(routes.contains(new Route("POST", "/sandbox/v1/faults")) && routes.contains(new Route("GET", "/sandbox/v1/requests"))
                && routes.contains(new Route("POST", "/sandbox/v1/tokens")) && routes.contains(new Route("POST", "/sandbox/v1/events")),
                "development mode's sandbox routes are probed too: " + routes);
        ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
        IntStream.range(0, REQUESTS).parallel().forEach(i -> {
            if (failures.size() >= 10) return;
            long seed = SEED + i;
            Generated g = generate(new Random(seed));
            try {
                String problem = check(g, send(g.raw()));
                if (problem != null) failures.add("seed " + seed + " (-Dhostile.seed=" + SEED + ", request " + i + "): " + problem
                        + "\n  request: " + printable(g.raw(), 600));
            } catch (IOException e) {
                failures.add("seed " + seed + ": no answer (" + e + ")\n  request: " + printable(g.raw(), 600));
            }
        });
        assertEquals(List.of(), List.copyOf(failures), "hostile requests answered wrongly (seed " + SEED + ")");
        // The generated fault rules (429s, 1 ms delays) must not answer the checks below.
        server.services().faults().clear();

        assertEquals(200, server.http.get("/healthz").status());
        assertEquals(200, server.http.get("/readyz").status());
        // A fresh user and pair: the generated requests replay the fixture's refresh token, which (rightly) revokes its
        // grant, and may have reset the sandbox (POST /sandbox/v1/reset with the operator key), which removes the fixture.
        assertEquals(200, server.http.get("/auth/api/v1/users/me", "Authorization", "Bearer " + Fixtures.create(server).issue().accessToken()).status(),
                "the API still serves a valid token");
    }

    @Test
    void theRefusalsTheIssueNamedAreJsonErrors() throws IOException {
        String[] raws = {
                "POST /auth/oauth/token HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded; charset=bogus\r\nContent-Length: 19\r\n\r\ngrant_type=password",
                "POST /auth/oauth/revoke HTTP/1.1\r\nHost: x\r\nContent-Type: application/json; charset=bogus\r\nContent-Length: 2\r\n\r\n{}",
                "POST /internal/v1/events HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " + OPERATOR_KEY
                        + "\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nZZZ\r\n",
                "POST /auth/oauth/token HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nTransfer-Encoding: chunked\r\n\r\nFFFFFFFFFFFFFFFFFF\r\nabc",
                "GET /events/account/%00/events/callbacks HTTP/1.1\r\nHost: x\r\n\r\n",
                "GET /events/account/%zz/events/callbacks HTTP/1.1\r\nHost: x\r\n\r\n",
                "GET /events/account/..;/events/callbacks HTTP/1.1\r\nHost: x\r\n\r\n",
                "GET /events/account/%C3%28/events/callbacks HTTP/1.1\r\nHost: x\r\n\r\n",
                "GET /auth/api/v1/users/me HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " + "a".repeat(9000) + "\r\n\r\n",
                "FROB /events/account/x/events/callbacks HTTP/1.1\r\nHost: x\r\n\r\n"};
        int[] expected = {400, 400, 400, 400, 400, 400, 400, 400, 431, -1};
        for (int i = 0; i < raws.length; i++) {
            Answer a = send(raws[i].replace("Host: x\r\n", "Host: x\r\nConnection: close\r\n").getBytes(StandardCharsets.ISO_8859_1));
            String problem = check(new Generated(raws[i].getBytes(StandardCharsets.ISO_8859_1), raws[i].split(" ")[0], raws[i].split(" ")[1]), a);
            assertEquals(null, problem, raws[i].substring(0, Math.min(120, raws[i].length())));
            if (expected[i] > 0) assertEquals(expected[i], a.status(), a.body());
            assertTrue(a.contentType().startsWith("application/json"), a.contentType());
        }
    }

    /**
     * Development mode's routes (the route table gives them to the generated probes too): the test
     * event's delivery options and events list, and the sandbox's reset, with hostile values. Every
     * answer is the documented JSON error or a success, never a 5xx; a reset in the middle of the
     * probes leaves the server serving.
     */
    @Test
    void theSandboxRoutesRefuseHostileOptionsInTheDocumentedShape() throws IOException {
        Fixtures own = Fixtures.create(server);   // the generated probes may have revoked the class's tokens, or reset the sandbox
        String path = "/events/account/" + own.account().accountId() + "/events/test";
        String token = own.issue().accessToken();
        String[] bodies = {
                "{\"name\": \"invoice.create\", \"delivery\": {\"copies\": 1e309}}",
                "{\"name\": \"invoice.create\", \"delivery\": {\"copies\": 99999999999999999999}}",
                "{\"name\": \"invoice.create\", \"delivery\": {\"delay\": \"P9999999999999D\"}}",
                "{\"name\": \"invoice.create\", \"delivery\": {\"delay\": \"PT-1S\"}}",
                "{\"name\": \"invoice.create\", \"delivery\": {\"signature\": \"\\u0000\"}}",
                "{\"name\": \"invoice.create\", \"delivery\": {\"order\": [\"reversed\"]}}",
                "{\"name\": \"invoice.create\", \"delivery\": {\"\\u202e\": 1}}",
                "{\"events\": [null, 1, \"x\"]}",
                "{\"events\": [" + "{\"name\": \"invoice.create\"},".repeat(40) + "{\"name\": \"invoice.create\"}]}",
                "{\"events\": [{\"name\": \"invoice.create\", \"user_id\": \"' OR 1=1 --\"}]}",
                "{\"events\": [{\"name\": \"invoice.create\", \"extra\": {}}]}",
                "{\"events\": [{\"name\": \"invoice.create\"}, {\"name\": \"invoice.update\"}], \"order\": \"reversed\"}",
                "{\"name\": \"invoice.create\", \"\\u0000\\u202e" + "k".repeat(5000) + "\": 1}"};
        for (String body : bodies) {
            assertEquals(422, sendJson(path, token, body), body);
        }
        // The operator's doors: tokens for a user and application, test events for an account.
        String account = own.account().accountId();
        for (String body : new String[] {"{\"user\": {\"$ne\": 1}, \"client_id\": \"" + own.app().clientId() + "\"}",
                "{\"user\": \"" + own.user().email() + "\", \"client_id\": [\"x\"]}",
                "{\"user\": \"" + own.user().email() + "\", \"client_id\": \"" + own.app().clientId() + "\", \"scope\": \"\\u0000 ' OR 1=1\"}",
                "{\"user\": \"" + own.user().email() + "\", \"client_id\": \"" + own.app().clientId() + "\", \"password\": \"x\"}"}) {
            assertEquals(422, sendJson("/sandbox/v1/tokens", OPERATOR_KEY, body), body);
        }
        for (String body : new String[] {"{\"account_id\": {\"a\": 1}, \"name\": \"invoice.create\", \"user_id\": 1}",
                "{\"account_id\": \"" + account + "\", \"name\": \"invoice.create\", \"user_id\": -1}",
                "{\"account_id\": \"" + account + "\", \"name\": \"invoice.create\", \"user_id\": 1, \"delivery\": {\"copies\": 1e309}}",
                "{\"account_id\": \"" + account + "\", \"events\": [{\"name\": \"invoice.create\"}], \"order\": \"shuffled\"}"}) {
            assertEquals(422, sendJson("/sandbox/v1/events", OPERATOR_KEY, body), body);
        }
        for (String body : new String[] {"", "{", "[]", "\u0000", "{\"seed\": \"../../etc/passwd\"}"}) {
            String raw = "POST /sandbox/v1/reset HTTP/1.1\r\nHost: x\r\nConnection: close\r\nAuthorization: Bearer " + OPERATOR_KEY
                    + "\r\nContent-Type: application/json; charset=bogus\r\nContent-Length: " + body.length() + "\r\n\r\n" + body;
            Answer a = send(raw.getBytes(StandardCharsets.UTF_8));
            assertEquals(null, check(new Generated(raw.getBytes(StandardCharsets.UTF_8), "POST", "/sandbox/v1/reset"), a), body);
            assertTrue(a.status() == 200 || (a.status() >= 400 && a.status() < 500), a.status() + " " + a.body());
        }
        assertEquals(200, server.http.get("/readyz").status());
    }

    /** A JSON POST with a bearer, checked as every generated request is; returns its status. */
    private static int sendJson(String path, String bearer, String body) throws IOException {
        byte[] b = body.getBytes(StandardCharsets.UTF_8);
        String raw = "POST " + path + " HTTP/1.1\r\nHost: x\r\nConnection: close\r\nAuthorization: Bearer " + bearer
                + "\r\nContent-Type: application/json\r\nContent-Length: " + b.length + "\r\n\r\n" + body;
        Answer a = send(raw.getBytes(StandardCharsets.UTF_8));
        assertEquals(null, check(new Generated(raw.getBytes(StandardCharsets.UTF_8), "POST", path), a), body);
        return a.status();
    }

    /**
     * A request line with an HTTP version the server does not speak is the client's to change, not a
     * failure of the service: 505 with the documented JSON body naming the unsupported version (RFC
     * 9110 §15.6.6), never "the service failed".
     */
    @Test
    void anUnsupportedHttpVersionIs505NamingIt() throws IOException {
        for (String version : new String[] {"HTTP/1.2", "HTTP/3.0", "HTTP/9.9", "HTTP/1.10"}) {
            Answer a = send(("GET /healthz " + version + "\r\nHost: x\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
            assertEquals(505, a.status(), version + ": " + a.head() + "\n\n" + a.body());
            assertTrue(a.contentType().startsWith("application/json"), a.contentType());
            JsonNode body = TestHttp.JSON.readTree(a.body());
            assertEquals(505, body.path("errno").asInt(), a.body());
            assertEquals("http_version_not_supported", body.path("error").asText(), a.body());
            String message = body.path("message").asText();
            assertTrue(message.contains("HTTP version") && message.contains("HTTP/1.1"), message);
            assertEquals(message, body.path("error_description").asText());
            assertTrue(!message.contains("failed") && !message.contains("request id"), message);
            assertTrue(!TRACE.matcher(a.body()).find(), a.body());
        }
        assertEquals(200, server.http.get("/healthz").status());
    }

    // ---- checking an answer

    private static String check(Generated g, Answer a) {
        if (a.status() >= 500) return "status " + a.status() + ": " + abbreviate(a.body());
        if (a.status() < 100) return "no status line: " + abbreviate(a.head());
        if (a.cutShort()) return null;   // only the status line is known to be whole
        if (TRACE.matcher(a.body()).find()) return "a stack trace or internal name in the body: " + abbreviate(a.body());
        if (a.status() < 400 || g.method().equals("HEAD") || a.body().isEmpty() && a.status() == 404 && g.method().equals("HEAD")) return null;
        // The pages people read in a browser (authorization page, account page, developer console) answer in HTML, as
        // browsers expect; the account page's JSON API (/oauth/account/api) answers like every API.
        boolean accountPage = g.path().startsWith("/oauth/account") && !g.path().startsWith("/oauth/account/api");
        boolean htmlPage = (g.path().startsWith("/oauth/authorize") || accountPage || g.path().startsWith("/console"))
                && a.contentType().startsWith("text/html");
        if (htmlPage) return null;
        if (!a.contentType().startsWith("application/json")) return "error " + a.status() + " as '" + a.contentType() + "': " + abbreviate(a.head() + "\n\n" + a.body());
        JsonNode body;
        try {
            body = TestHttp.JSON.readTree(a.body());
        } catch (IOException e) {
            return "error " + a.status() + " body is not JSON: " + abbreviate(a.body());
        }
        if (!body.path("error").isTextual() || !body.path("error_description").isTextual()) {
            return "error body without error/error_description: " + abbreviate(a.body());
        }
        boolean oauthEndpoint = g.path().startsWith("/auth/oauth/");
        if (!oauthEndpoint) {
            for (String field : new String[] {"errno", "code", "message", "details"}) {
                if (!body.has(field)) return "API error body without " + field + ": " + abbreviate(a.body());
            }
            if (body.path("errno").asInt() != a.status()) return "errno " + body.path("errno") + " on a " + a.status();
        }
        return null;
    }

    // ---- generating a request

    private record Generated(byte[] raw, String method, String path) {}

    private static Generated generate(Random r) {
        Route route = routes.get(r.nextInt(routes.size()));
        String method = r.nextInt(4) == 0 ? METHODS[r.nextInt(METHODS.length)] : route.method();
        String path = path(r, route.path());
        String query = query(r);
        List<String> headers = new ArrayList<>();
        headers.add("Host: " + (r.nextInt(10) == 0 ? pick(r, NASTY).replaceAll("[\r\n]", "") : "127.0.0.1"));
        headers.add("Connection: close");
        authorization(r, path).ifPresent(headers::add);
        if (r.nextInt(3) == 0) headers.add("Api-Version: " + (r.nextBoolean() ? "alpha" : value(r)));
        boolean account = path.startsWith("/oauth/account");
        if (r.nextInt(3) == 0) headers.add("Cookie: " + (r.nextBoolean() ? (account && r.nextBoolean() ? accountCookie : sessionCookie) : "ll_session=" + value(r)));
        if (account && r.nextInt(3) == 0) headers.add("X-CSRF-Token: " + (r.nextBoolean() ? accountCsrf : value(r)));
        if (r.nextInt(4) == 0) headers.add("Idempotency-Key: " + value(r));
        if (r.nextInt(6) == 0) headers.add("X-Request-Id: " + value(r));
        if (r.nextInt(40) == 0) headers.add("X-Huge: " + "h".repeat(8200 + r.nextInt(2000)));
        if (r.nextInt(30) == 0) headers.add("X-Nul: a\u0000b");

        byte[] body = body(r, route.path());
        String contentType = CONTENT_TYPES[r.nextInt(CONTENT_TYPES.length)];
        if (r.nextInt(3) == 0) contentType += "; charset=" + CHARSETS[r.nextInt(CHARSETS.length)];
        if (body.length > 0 || r.nextBoolean()) headers.add("Content-Type: " + contentType);

        ByteArrayOutputStream out = new ByteArrayOutputStream();
        String target = path + query;
        String head = method + " " + target + " HTTP/1.1\r\n" + String.join("\r\n", headers) + "\r\n";
        int framing = r.nextInt(10);
        if (framing < 6) {   // correct Content-Length
            write(out, head + "Content-Length: " + body.length + "\r\n\r\n");
            out.writeBytes(body);
        } else if (framing < 7) {   // declares more than it sends: truncated
            write(out, head + "Content-Length: " + (body.length + 1 + r.nextInt(100)) + "\r\n\r\n");
            out.writeBytes(body);
        } else if (framing < 8) {   // well-formed chunked
            write(out, head + "Transfer-Encoding: chunked\r\n\r\n" + Integer.toHexString(body.length) + "\r\n");
            out.writeBytes(body);
            write(out, "\r\n0\r\n\r\n");
        } else {   // malformed or truncated chunked
            String[] sizes = {"ZZZ", "FFFFFFFFFFFFFFFFFF", "-1", Integer.toHexString(body.length + 50), "1;" + "x".repeat(100), ""};
            write(out, head + "Transfer-Encoding: chunked\r\n\r\n" + sizes[r.nextInt(sizes.length)] + "\r\n");
            out.writeBytes(body);
        }
        return new Generated(out.toByteArray(), method, path);
    }

    private static String path(Random r, String pattern) {
        StringBuilder out = new StringBuilder();
        for (String segment : pattern.substring(1).split("/")) {
            out.append('/');
            if (segment.startsWith("{")) {
                out.append(switch (r.nextInt(5)) {
                    case 0 -> segment.contains("account") ? fixture.account().accountId() : "1";
                    case 1 -> Integer.toString(r.nextInt(1000) - 10);
                    case 2 -> pick(r, NASTY).replaceAll("[ \r\n\u0000]", "%20");
                    default -> encodeLoosely(r, value(r));
                });
            } else {
                out.append(r.nextInt(30) == 0 ? pick(r, new String[] {"%zz", "..;", "%00", "%C3%28", "", ";a=b", "%2F"}) : segment);
            }
        }
        if (r.nextInt(20) == 0) out.append(r.nextBoolean() ? "/" : "//");
        if (r.nextInt(60) == 0) out.append("/").append("p".repeat(9000));
        return out.toString();
    }

    private static String query(Random r) {
        if (r.nextInt(3) != 0) return "";
        String[] keys = {"page", "per_page", "search[event]", "search[uri]", "search[verified]", "response_type", "client_id",
                "redirect_uri", "scope", "state", "code_challenge", "code_challenge_method", "prompt", "x"};
        StringBuilder q = new StringBuilder("?");
        int n = 1 + r.nextInt(4);
        for (int i = 0; i < n; i++) {
            if (i > 0) q.append('&');
            String key = pick(r, keys);
            q.append(r.nextInt(10) == 0 ? key.replace("[", "%5B").replace("]", "%5D") : key).append('=');
            q.append(switch (r.nextInt(6)) {
                case 0 -> key.equals("client_id") ? fixture.app().clientId() : Integer.toString(r.nextInt(200) - 50);
                case 1 -> key.equals("redirect_uri") ? URLEncoder.encode(Fixtures.REDIRECT_URI, StandardCharsets.UTF_8) : "code";
                default -> encodeLoosely(r, value(r));
            });
        }
        return q.toString();
    }

    private static java.util.Optional<String> authorization(Random r, String path) {
        return java.util.Optional.ofNullable(switch (r.nextInt(8)) {
            case 0, 1 -> "Authorization: Bearer " + tokens.accessToken();
            case 2 -> "Authorization: Bearer " + OPERATOR_KEY;
            case 3 -> "Authorization: Basic " + Base64.getEncoder().encodeToString(
                    (fixture.app().clientId() + ":" + fixture.clientSecret()).getBytes(StandardCharsets.UTF_8));
            case 4 -> "Authorization: " + pick(r, new String[] {"Bearer", "Basic !!!", "Basic " + Base64.getEncoder().encodeToString(
                    value(r).getBytes(StandardCharsets.UTF_8)), "Bearer undefined", "Negotiate x", "Bearer " + value(r).replaceAll("[\r\n]", "")});
            case 5 -> r.nextInt(10) == 0 ? "Authorization: Bearer " + "t".repeat(8300) : null;
            default -> null;
        });
    }

    private static byte[] body(Random r, String routePath) {
        String text = switch (r.nextInt(13)) {
            // development mode's fault rules: a 429 or a 1 ms delay at most (a 503 rule would make the next requests' 5xx legitimate)
            case 12 -> "{\"route\": " + (r.nextBoolean() ? "\"" + pick(r, new String[] {"token", "identity", "authorize", "callbacks", "tokens"}) + "\"" : json(r))
                    + (r.nextBoolean() ? ", \"client_id\": " + json(r) : "") + (r.nextBoolean() ? ", \"grant_type\": " + json(r) : "")
                    + ", \"effect\": " + pick(r, new String[] {"{\"status\": 429}", "{\"status\": 500}", "{\"status\": \"503\"}",
                            "{\"latency_ms\": 1}", "{\"latency_ms\": -5}", "{\"error\": \"invalid_grant\"}", "{\"error\": 7}", "[]", "{}",
                            "{\"status\": 429, \"retry_after\": 99999}", "{\"x\": 1}", json(r)})
                    + (r.nextBoolean() ? ", \"times\": " + pick(r, new String[] {"1", "0", "-1", "1e3", "\"2\"", "99999999999"}) : "") + "}";
            case 0 -> "";
            case 1 -> "{\"callback\": {\"event\": " + json(r) + ", \"uri\": " + json(r) + "}}";
            case 2 -> "{\"callback\": {\"verifier\": " + json(r) + ", \"resend\": " + json(r) + "}}";
            case 3 -> "{\"name\": " + json(r) + ", \"account_id\": " + (r.nextBoolean() ? "\"" + fixture.account().accountId() + "\"" : json(r))
                    + ", \"object_id\": " + json(r) + ", \"user_id\": " + json(r) + "}";
            case 4 -> "grant_type=" + pick(r, new String[] {"authorization_code", "refresh_token", "password", "", "%zz"})
                    + "&code=" + encodeLoosely(r, value(r)) + "&refresh_token=" + (r.nextBoolean() ? tokens.refreshToken() : encodeLoosely(r, value(r)))
                    + "&redirect_uri=" + encodeLoosely(r, value(r)) + (r.nextBoolean() ? "&client_id=" + fixture.app().clientId() : "")
                    + (r.nextBoolean() ? "&client_secret=" + fixture.clientSecret() : "") + (r.nextInt(4) == 0 ? "&grant_type=x" : "");
            case 5 -> "token=" + encodeLoosely(r, value(r)) + "&token_type_hint=" + encodeLoosely(r, value(r));
            case 6 -> "csrf_token=" + (r.nextBoolean() ? (r.nextBoolean() ? accountCsrf : csrfToken) : value(r))
                    + "&action=" + pick(r, new String[] {"login", "second_factor", "authorize", "deny", "x"})
                    + "&email=" + encodeLoosely(r, value(r)) + "&password=" + encodeLoosely(r, value(r)) + "&code=" + encodeLoosely(r, value(r));
            case 7 -> "[".repeat(r.nextInt(2000)) + "]".repeat(r.nextInt(2000));
            case 8 -> "{\"a\":" + "\"" + "x".repeat(r.nextInt(4) == 0 ? 1_100_000 : 70_000) + "\"}";
            case 9 -> "{\"callback\": {\"event\": \"invoice.create\", \"uri\": \"https://example.com/h\"}, \"callback\": 1}";
            case 10 -> json(r);
            default -> value(r) + "{\"" + value(r) + "\":";
        };
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        if (r.nextInt(10) == 0) {   // bad UTF-8 and NUL bytes inside the body
            bytes = java.util.Arrays.copyOf(bytes, bytes.length + 4);
            bytes[bytes.length - 4] = (byte) 0xC3;
            bytes[bytes.length - 3] = (byte) 0x28;
            bytes[bytes.length - 2] = 0;
            bytes[bytes.length - 1] = (byte) 0xFF;
        }
        return bytes;
    }

    private static String json(Random r) {
        return switch (r.nextInt(10)) {
            case 0 -> "null";
            case 1 -> Long.toString(r.nextLong());
            case 2 -> "1e400";
            case 3 -> "[1, \"a\", {}]";
            case 4 -> "{\"nested\": {\"deep\": [" + "[".repeat(100) + "]".repeat(100) + "]}}";
            case 5 -> "true";
            case 6 -> "\"invoice.create\"";
            case 7 -> "\"https://127.0.0.1:1/hook\"";
            default -> TestHttp.JSON.valueToTree(value(r)).toString();
        };
    }

    private static String value(Random r) {
        return switch (r.nextInt(6)) {
            case 0 -> pick(r, NASTY);
            case 1 -> "x".repeat(r.nextInt(5000));
            case 2 -> new String(Character.toChars(0x1F600 + r.nextInt(50))) + "\u0000" + "ü";
            case 3 -> Integer.toString(r.nextInt());
            default -> pick(r, NASTY) + r.nextInt(100);
        };
    }

    /** Percent-encodes, but now and then leaves a raw or broken escape in. */
    private static String encodeLoosely(Random r, String s) {
        String encoded = URLEncoder.encode(s, StandardCharsets.UTF_8);
        return switch (r.nextInt(8)) {
            case 0 -> encoded + "%";
            case 1 -> encoded + "%G1";
            case 2 -> encoded.replace("%", "%25%");
            default -> encoded;
        };
    }

    private static String pick(Random r, String[] from) {
        return from[r.nextInt(from.length)];
    }

    private static void write(ByteArrayOutputStream out, String s) {
        out.writeBytes(s.getBytes(StandardCharsets.UTF_8));
    }

    // ---- sending it

    /** {@code cutShort}: the connection was reset before the whole answer arrived (see {@link #send}). */
    private record Answer(int status, String head, String contentType, String body, boolean cutShort) {}

    private static Answer send(byte[] raw) throws IOException {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", server.server.port()), 5_000);
            socket.setSoTimeout(20_000);
            OutputStream out = socket.getOutputStream();
            try {
                out.write(raw);
                out.flush();
                socket.shutdownOutput();   // the request ends here: truncated bodies are truncated, not just slow
            } catch (IOException refusedEarly) {
                // the server may answer and close before reading everything (431, 413): read what it said
            }
            InputStream in = socket.getInputStream();
            ByteArrayOutputStream answer = new ByteArrayOutputStream();
            boolean reset = false;
            try {
                in.transferTo(answer);
            } catch (IOException e) {
                // The server refused early and closed with our unread bytes in its buffer: TCP resets the
                // connection, and the kernel may drop the tail of an answer that had already arrived.
                if (answer.size() == 0) throw e;
                reset = true;
            }
            return parse(answer.toString(StandardCharsets.UTF_8), reset);
        }
    }

    private static Answer parse(String response, boolean reset) {
        int end = response.indexOf("\r\n\r\n");
        String head = end < 0 ? response : response.substring(0, end);
        String body = end < 0 ? "" : response.substring(end + 4);
        int status = -1;
        Matcher m = Pattern.compile("^HTTP/1\\.1 (\\d{3})").matcher(head);
        if (m.find()) status = Integer.parseInt(m.group(1));
        String type = "";
        boolean chunked = false;
        int length = -1;
        for (String line : head.split("\r\n")) {
            String lower = line.toLowerCase(Locale.ROOT);
            if (lower.startsWith("content-type:")) type = lower.substring(13).trim();
            if (lower.startsWith("content-length:")) length = Integer.parseInt(lower.substring(15).trim());
            if (lower.startsWith("transfer-encoding:") && lower.contains("chunked")) chunked = true;
        }
        if (chunked) body = dechunk(body);
        boolean cutShort = reset && (end < 0 || length < 0 || body.getBytes(StandardCharsets.UTF_8).length < length);
        return new Answer(status, head, type, body, cutShort);
    }

    private static String dechunk(String body) {
        StringBuilder out = new StringBuilder();
        int at = 0;
        while (at < body.length()) {
            int eol = body.indexOf("\r\n", at);
            if (eol < 0) break;
            int size = Integer.parseInt(body.substring(at, eol).split(";")[0].trim(), 16);
            if (size == 0) break;
            out.append(body, eol + 2, Math.min(body.length(), eol + 2 + size));
            at = eol + 2 + size + 2;
        }
        return out.toString();
    }

    private static String printable(byte[] raw, int max) {
        String s = new String(raw, 0, Math.min(raw.length, max), StandardCharsets.ISO_8859_1)
                .replace("\r", "\\r").replace("\n", "\\n\n    ").replace("\u0000", "\\0");
        return raw.length > max ? s + "… (" + raw.length + " bytes)" : s;
    }

    private static String abbreviate(String s) {
        return s.length() > 300 ? s.substring(0, 300) + "…" : s;
    }
}
