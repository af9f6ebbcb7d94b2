package dev.ledgerlink.bench.oauth;

import dev.ledgerlink.bench.http.Http1Connection;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** POST /auth/oauth/token (or a peer's token endpoint) as a client library sends it: form-urlencoded, credentials in the body. */
public final class TokenCalls {
    private static final Pattern FIELD = Pattern.compile("\"(access_token|refresh_token)\"\\s*:\\s*\"([^\"]+)\"");
    public static final String PATH = "/auth/oauth/token";

    public record Client(String clientId, String clientSecret, String redirectUri) {}

    public record Tokens(String accessToken, String refreshToken) {}

    private TokenCalls() {}

    public static Http1Connection.Response exchangeCode(Http1Connection http, Client c, String code) throws IOException {
        Map<String, String> f = new LinkedHashMap<>();
        f.put("grant_type", "authorization_code");
        f.put("client_id", c.clientId());
        f.put("client_secret", c.clientSecret());
        f.put("redirect_uri", c.redirectUri());
        f.put("code", code);
        return http.post(PATH, Map.of("Accept", "application/json"), "application/x-www-form-urlencoded", BrowserSession.form(f));
    }

    public static Http1Connection.Response refresh(Http1Connection http, Client c, String refreshToken) throws IOException {
        return refresh(http, PATH, c, refreshToken);
    }

    /** The same refresh grant to another server's token endpoint (the peer comparison sends it to Keycloak). */
    public static Http1Connection.Response refresh(Http1Connection http, String path, Client c, String refreshToken)
            throws IOException {
        Map<String, String> f = new LinkedHashMap<>();
        f.put("grant_type", "refresh_token");
        f.put("client_id", c.clientId());
        f.put("client_secret", c.clientSecret());
        f.put("redirect_uri", c.redirectUri());
        f.put("refresh_token", refreshToken);
        return http.post(path, Map.of("Accept", "application/json"), "application/x-www-form-urlencoded", BrowserSession.form(f));
    }

    /** The resource owner password grant (RFC 6749 4.3), where a server offers it: how a peer's chains get their first tokens. */
    public static Http1Connection.Response password(Http1Connection http, String path, Client c, String username, String password)
            throws IOException {
        Map<String, String> f = new LinkedHashMap<>();
        f.put("grant_type", "password");
        f.put("client_id", c.clientId());
        f.put("client_secret", c.clientSecret());
        f.put("username", username);
        f.put("password", password);
        return http.post(path, Map.of("Accept", "application/json"), "application/x-www-form-urlencoded", BrowserSession.form(f));
    }

    /** The tokens of a 200 answer, or an exception naming the refusal. */
    public static Tokens tokens(Http1Connection.Response r) throws IOException {
        if (r.status() != 200) throw new IOException("token endpoint answered " + r.status() + ": " + r.text());
        String access = null;
        String refresh = null;
        Matcher m = FIELD.matcher(r.text());
        while (m.find()) {
            if (m.group(1).equals("access_token")) access = m.group(2);
            else refresh = m.group(2);
        }
        if (access == null || refresh == null) throw new IOException("token answer without tokens: " + r.text());
        return new Tokens(access, refresh);
    }
}
