package dev.ledgerlink.bench.oauth;

import dev.ledgerlink.bench.http.Http1Connection;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A user's browser on the authorization page: keeps the session cookie, submits the login form and
 * the consent form with their CSRF tokens, and stops at the redirect to the client's redirect_uri,
 * from which it takes the authorization code. Everything goes over HTTP, as a browser would.
 */
public final class BrowserSession implements AutoCloseable {
    private final Http1Connection http;
    private final String email;
    private final String password;
    private final Map<String, String> cookies = new LinkedHashMap<>();

    public BrowserSession(String host, int port, String email, String password) {
        this.http = new Http1Connection(host, port);
        this.email = email;
        this.password = password;
    }

    /** Drives GET /oauth/authorize through login and consent as needed; returns the code. */
    public String authorize(String clientId, String redirectUri) throws IOException {
        String path = "/oauth/authorize?response_type=code&client_id=" + enc(clientId) + "&redirect_uri=" + enc(redirectUri)
                + "&state=bench";
        Http1Connection.Response r = request("GET", path, null);
        String current = path;
        for (int step = 0; step < 8; step++) {
            if (r.status() == 302 || r.status() == 303 || r.status() == 301 || r.status() == 307) {
                String location = r.header("location");
                if (location == null) throw new IOException("redirect without Location");
                if (location.startsWith(redirectUri)) return codeFrom(location);
                current = pathOf(location, current);
                r = request("GET", current, null);
                continue;
            }
            if (r.status() != 200) throw new IOException("authorize step answered " + r.status() + ": " + abbreviate(r.text()));
            List<HtmlForms.Form> forms = HtmlForms.parse(r.text());
            if (forms.isEmpty()) throw new IOException("authorize page without a form: " + abbreviate(r.text()));
            HtmlForms.Form form = forms.stream().filter(HtmlForms.Form::hasPassword).findFirst().orElse(forms.getFirst());
            Map<String, String> fields = new LinkedHashMap<>(form.inputs());
            if (form.hasPassword()) {
                for (String name : form.inputs().keySet()) {
                    String n = name.toLowerCase();
                    if (n.contains("email") || n.contains("user") || n.contains("login")) fields.put(name, email);
                    if (n.contains("password")) fields.put(name, password);
                }
                approveButton(form, false).ifPresent(b -> fields.put(b.name(), b.value()));
            } else {
                approveButton(form, true).ifPresent(b -> fields.put(b.name(), b.value()));
            }
            String action = form.action().isEmpty() ? current : pathOf(form.action(), current);
            r = request("POST", action, form(fields));
            current = action;
        }
        throw new IOException("authorize flow did not reach the redirect_uri within 8 steps");
    }

    /**
     * Signs in to the developer console with the user's e-mail and password (its sign-in form, with
     * the form's CSRF token), as a browser does; returns the Cookie header that carries the session.
     */
    public String signInToConsole() throws IOException {
        Http1Connection.Response page = request("GET", "/console/sign-in", null);
        if (page.status() != 200) throw new IOException("console sign-in page answered " + page.status());
        HtmlForms.Form form = HtmlForms.parse(page.text()).stream().filter(HtmlForms.Form::hasPassword)
                .filter(f -> f.inputs().containsKey("email")).findFirst()
                .orElseThrow(() -> new IOException("no sign-in form on the console's page"));
        Map<String, String> fields = new LinkedHashMap<>(form.inputs());
        fields.put("email", email);
        fields.put("password", password);
        Http1Connection.Response r = request("POST", "/console/sign-in", form(fields));
        if (r.status() != 303) throw new IOException("console sign-in answered " + r.status() + ": " + abbreviate(r.text()));
        return cookieHeader();
    }

    /** Signs in to the console as an operator with the operator key (every account); returns the Cookie header. */
    public String signInToConsoleAsOperator(String operatorKey) throws IOException {
        Http1Connection.Response page = request("GET", "/console/sign-in", null);
        if (page.status() != 200) throw new IOException("console sign-in page answered " + page.status());
        HtmlForms.Form form = HtmlForms.parse(page.text()).stream().filter(f -> f.inputs().containsKey("operator_key")).findFirst()
                .orElseThrow(() -> new IOException("no operator sign-in form on the console's page (is events.operator-key set?)"));
        Map<String, String> fields = new LinkedHashMap<>(form.inputs());
        fields.put("operator_key", operatorKey);
        Http1Connection.Response r = request("POST", "/console/sign-in", form(fields));
        if (r.status() != 303) throw new IOException("console operator sign-in answered " + r.status() + ": " + abbreviate(r.text()));
        return cookieHeader();
    }

    private String cookieHeader() {
        StringBuilder c = new StringBuilder();
        cookies.forEach((k, v) -> c.append(c.isEmpty() ? "" : "; ").append(k).append('=').append(v));
        return c.toString();
    }

    /** The submit button that approves: named like authorize/allow/approve/login, never deny/cancel. */
    private static Optional<HtmlForms.Button> approveButton(HtmlForms.Form form, boolean consent) {
        return form.buttons().stream()
                .filter(b -> b.name() != null && !b.name().isEmpty())
                .filter(b -> {
                    String all = (b.name() + " " + b.value() + " " + b.text()).toLowerCase();
                    if (all.contains("deny") || all.contains("cancel") || all.contains("reject")) return false;
                    return !consent || all.contains("author") || all.contains("allow") || all.contains("approve") || all.contains("grant")
                            || all.contains("yes") || all.contains("accept");
                })
                .findFirst();
    }

    private Http1Connection.Response request(String method, String path, String formBody) throws IOException {
        Map<String, String> headers = new LinkedHashMap<>();
        if (!cookies.isEmpty()) headers.put("Cookie", cookieHeader());
        headers.put("Accept", "text/html");
        Http1Connection.Response r = formBody == null ? http.get(path, headers)
                : http.post(path, headers, "application/x-www-form-urlencoded", formBody);
        String setCookie = r.header("set-cookie");
        if (setCookie != null) {
            for (String line : setCookie.split("\n")) {
                String pair = line.split(";", 2)[0];
                int eq = pair.indexOf('=');
                if (eq > 0) cookies.put(pair.substring(0, eq).trim(), pair.substring(eq + 1).trim());
            }
        }
        return r;
    }

    private static String codeFrom(String location) throws IOException {
        String query = URI.create(location).getRawQuery();
        if (query != null) {
            for (String p : query.split("&")) {
                if (p.startsWith("code=")) return java.net.URLDecoder.decode(p.substring(5), StandardCharsets.UTF_8);
            }
        }
        throw new IOException("redirect without a code: " + location);
    }

    private static String pathOf(String location, String current) {
        URI base = URI.create("http://h" + current);
        URI u = base.resolve(location);
        return u.getRawPath() + (u.getRawQuery() == null ? "" : "?" + u.getRawQuery());
    }

    /** An application/x-www-form-urlencoded body of the fields, in their order. */
    public static String form(Map<String, String> fields) {
        StringBuilder sb = new StringBuilder();
        fields.forEach((k, v) -> sb.append(sb.isEmpty() ? "" : "&").append(enc(k)).append('=').append(enc(v)));
        return sb.toString();
    }

    public static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    private static String abbreviate(String s) {
        return s.length() > 300 ? s.substring(0, 300) + "..." : s;
    }

    @Override
    public void close() {
        http.close();
    }
}
