package dev.ledgerlink.oauth;

import dev.ledgerlink.testing.TestHttp;
import dev.ledgerlink.testing.TestServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.CookieManager;
import java.net.URI;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a browser does on the authorization page, over real HTTP: keeps cookies, reads the form's
 * action and CSRF token from the HTML, posts forms, and does not follow redirects (tests read them).
 */
public final class BrowserSession implements AutoCloseable {
    private static final Pattern ACTION = Pattern.compile("<form method=\"post\" action=\"([^\"]*)\"");
    private static final Pattern CSRF = Pattern.compile("name=\"csrf_token\" value=\"([^\"]*)\"");

    private final String base;
    private final CookieManager cookies = new CookieManager();
    private final HttpClient client;
    public TestHttp.Response last;
    private final Map<String, String> headers = new LinkedHashMap<>();

    public BrowserSession(String base) {
        this.base = base;
        this.client = HttpClient.newBuilder().cookieHandler(cookies).followRedirects(HttpClient.Redirect.NEVER)
                .connectTimeout(Duration.ofSeconds(5)).build();
    }

    /**
     * A browser behind a reverse proxy that forwards it as {@code forwardedFor} (the server must trust
     * the loopback proxy), closed with the server.
     */
    public static BrowserSession forwardedFor(TestServer server, String forwardedFor) {
        return server.closeFirst(new BrowserSession(server.baseUrl()).header("X-Forwarded-For", forwardedFor));
    }

    /** Sends this header with every later request (e.g. X-Forwarded-For, as a reverse proxy would add it). */
    public BrowserSession header(String name, String value) {
        headers.put(name, value);
        return this;
    }

    public CookieManager cookies() {
        return cookies;
    }

    public TestHttp.Response get(String pathOrUrl) {
        return send(HttpRequest.newBuilder(uri(pathOrUrl)).GET());
    }

    /** Posts the current page's form with these fields (the CSRF token is added from the page). */
    public TestHttp.Response submit(Map<String, String> fields) {
        Map<String, String> all = new LinkedHashMap<>();
        all.put("csrf_token", csrfToken());
        all.putAll(fields);
        return post(formAction(), all);
    }

    public TestHttp.Response post(String pathOrUrl, Map<String, String> fields) {
        return send(HttpRequest.newBuilder(uri(pathOrUrl)).header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(form(fields))));
    }

    /** A JSON request of this browser (its cookies), its answer checked against openapi.json like every API answer of the tests. */
    public TestHttp.Response api(String method, String path, String... headerPairs) {
        HttpRequest.Builder b = HttpRequest.newBuilder(uri(path)).method(method, HttpRequest.BodyPublishers.noBody());
        for (int i = 0; i + 1 < headerPairs.length; i += 2) b.header(headerPairs[i], headerPairs[i + 1]);
        TestHttp.Response r = send(b);
        dev.ledgerlink.testing.OpenApiContract.check(method, uri(path).getRawPath(), r.status(), r.header("Content-Type"), r.body());
        return r;
    }

    public String formAction() {
        return unescape(find(ACTION));
    }

    public String csrfToken() {
        return unescape(find(CSRF));
    }

    /** Loads the console's sign-in form and signs in as a user with it. */
    public TestHttp.Response consoleSignIn(String email, String password) {
        get("/console/sign-in");
        return post("/console/sign-in", Map.of("csrf_token", csrfToken(), "as", "user", "email", email, "password", password));
    }

    public TestHttp.Response logIn(String email, String password) {
        return submit(Map.of("action", "login", "email", email, "password", password));
    }

    public TestHttp.Response authorize() {
        return submit(Map.of("action", "authorize"));
    }

    public TestHttp.Response deny() {
        return submit(Map.of("action", "deny"));
    }

    /** The query parameters of the last response's Location header. */
    public Map<String, String> redirectParams() {
        String location = last.header("Location");
        if (location == null) throw new AssertionError("no redirect (status " + last.status() + "): " + last.body());
        return queryOf(location);
    }

    public static Map<String, String> queryOf(String url) {
        Map<String, String> out = new LinkedHashMap<>();
        String q = URI.create(url).getRawQuery();
        if (q == null) return out;
        for (String pair : q.split("&")) {
            int eq = pair.indexOf('=');
            out.put(URLDecoder.decode(pair.substring(0, eq), StandardCharsets.UTF_8), URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
        }
        return out;
    }

    public static String form(Map<String, String> fields) {
        StringBuilder b = new StringBuilder();
        fields.forEach((k, v) -> {
            if (!b.isEmpty()) b.append('&');
            b.append(URLEncoder.encode(k, StandardCharsets.UTF_8)).append('=').append(URLEncoder.encode(v, StandardCharsets.UTF_8));
        });
        return b.toString();
    }

    private String find(Pattern p) {
        Matcher m = p.matcher(last.body());
        if (!m.find()) throw new AssertionError("no " + p + " on the page (status " + last.status() + "): " + last.body());
        return m.group(1);
    }

    private static String unescape(String html) {
        return html.replace("&#34;", "\"").replace("&#39;", "'").replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&");
    }

    private URI uri(String pathOrUrl) {
        return URI.create(pathOrUrl.startsWith("http") ? pathOrUrl : base + pathOrUrl);
    }

    private TestHttp.Response send(HttpRequest.Builder b) {
        try {
            headers.forEach(b::header);
            HttpResponse<String> r = client.send(b.timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
            last = new TestHttp.Response(r.statusCode(), r.headers(), r.body());
            return last;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() {
        client.shutdownNow();
    }
}
