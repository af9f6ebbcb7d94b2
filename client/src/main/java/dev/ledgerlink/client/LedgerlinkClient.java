package dev.ledgerlink.client;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;

/**
 * The client library of one application: the authorization URL, the token grants, revocation, the
 * identity endpoint, and {@link #callbacks} for an account.
 *
 * <pre>{@code
 * var client = LedgerlinkClient.builder("https://api.example.com", clientId, clientSecret, redirectUri).build();
 * String url = client.authorizationUrl("opaque-state", null, null);      // send the user here
 * Tokens t = client.exchangeCode(codeFromRedirect, null);
 * Tokens next = client.refresh(t.refreshToken());                        // single use: keep next.refreshToken()
 * }</pre>
 */
public final class LedgerlinkClient {
    private final String baseUrl;
    private final String authUrl;
    private final String clientId;
    private final String clientSecret;
    private final String redirectUri;
    private final Http http;

    private LedgerlinkClient(Builder b) {
        this.baseUrl = strip(b.baseUrl);
        this.authUrl = strip(b.authUrl == null ? b.baseUrl : b.authUrl);
        this.clientId = b.clientId;
        this.clientSecret = b.clientSecret;
        this.redirectUri = b.redirectUri;
        this.http = new Http(b.httpClient != null ? b.httpClient
                : HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).followRedirects(HttpClient.Redirect.NEVER).build(),
                b.timeout, b.maxRetries, b.maxRetryAfter);
    }

    public static Builder builder(String baseUrl, String clientId, String clientSecret, String redirectUri) {
        return new Builder(baseUrl, clientId, clientSecret, redirectUri);
    }

    /** Where to send the user; {@code scopes} null for the application's defaults, {@code pkce} null for none. */
    public String authorizationUrl(String state, List<String> scopes, Pkce pkce) {
        StringJoiner q = new StringJoiner("&", authUrl + "/oauth/authorize?", "");
        q.add("response_type=code").add("client_id=" + enc(clientId)).add("redirect_uri=" + enc(redirectUri));
        if (state != null) q.add("state=" + enc(state));
        if (scopes != null && !scopes.isEmpty()) q.add("scope=" + enc(String.join(" ", scopes)));
        if (pkce != null) q.add("code_challenge=" + enc(pkce.challenge())).add("code_challenge_method=S256");
        return q.toString();
    }

    /** Exchanges the code of the redirect; {@code codeVerifier} when the authorization used PKCE. */
    public Tokens exchangeCode(String code, String codeVerifier) {
        Map<String, Object> body = grant("authorization_code");
        body.put("code", code);
        if (codeVerifier != null) body.put("code_verifier", codeVerifier);
        return token(body);
    }

    /** Uses the latest refresh token once; the response carries the next one. */
    public Tokens refresh(String refreshToken) {
        Map<String, Object> body = grant("refresh_token");
        body.put("refresh_token", refreshToken);
        return token(body);
    }

    /** Revokes an access or refresh token (succeeds for unknown tokens too, as RFC 7009 says). */
    public void revoke(String token) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("client_id", clientId);
        body.put("client_secret", clientSecret);
        body.put("token", token);
        Http.Reply r = http.send("POST", baseUrl + "/auth/oauth/revoke", body, null);
        if (r.status() != 200) throw Http.oauthError(r);
    }

    public Identity me(String accessToken) {
        Http.Reply r = http.send("GET", baseUrl + "/auth/api/v1/users/me", null, accessToken);
        if (r.status() != 200) throw Http.apiError(r);
        JsonNode u = Http.json(r).path("response");
        List<Identity.Membership> memberships = new ArrayList<>();
        for (JsonNode m : u.path("business_memberships")) {
            JsonNode biz = m.path("business");
            memberships.add(new Identity.Membership(m.path("id").asLong(), m.path("role").asText(), biz.path("id").asLong(),
                    biz.path("name").asText(), biz.path("account_id").asText()));
        }
        return new Identity(u.path("id").asLong(), u.path("first_name").asText(null), u.path("last_name").asText(null),
                u.path("email").asText(null), memberships);
    }

    /** The callbacks of one account, acting with this access token. */
    public CallbacksClient callbacks(String accessToken, String accountId) {
        return new CallbacksClient(http, baseUrl + "/events/account/" + enc(accountId) + "/events/callbacks", accessToken);
    }

    private Map<String, Object> grant(String type) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("grant_type", type);
        body.put("client_id", clientId);
        body.put("client_secret", clientSecret);
        body.put("redirect_uri", redirectUri);
        return body;
    }

    private Tokens token(Map<String, Object> body) {
        Http.Reply r = http.send("POST", baseUrl + "/auth/oauth/token", body, null);
        if (r.status() != 200) throw Http.oauthError(r);
        return Tokens.from(Http.json(r));
    }

    static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    private static String strip(String url) {
        return url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
    }

    public static final class Builder {
        private final String baseUrl;
        private final String clientId;
        private final String clientSecret;
        private final String redirectUri;
        private String authUrl;
        private HttpClient httpClient;
        private Duration timeout = Duration.ofSeconds(30);
        private int maxRetries = 2;
        private Duration maxRetryAfter = Duration.ofSeconds(30);

        private Builder(String baseUrl, String clientId, String clientSecret, String redirectUri) {
            this.baseUrl = baseUrl;
            this.clientId = clientId;
            this.clientSecret = clientSecret;
            this.redirectUri = redirectUri;
        }

        /** The authorization page's address when it differs from the API's. */
        public Builder authUrl(String authUrl) {
            this.authUrl = authUrl;
            return this;
        }

        public Builder httpClient(HttpClient client) {
            this.httpClient = client;
            return this;
        }

        public Builder timeout(Duration timeout) {
            this.timeout = timeout;
            return this;
        }

        /**
         * A 429 or 503 with Retry-After is retried after that delay, at most {@code maxRetries} times (default 2)
         * and only when the delay is at most {@code maxRetryAfter} (default 30 s); otherwise, or when retries run
         * out, the refusal is thrown with {@link ApiException#retryAfter()}. {@code maxRetries} 0 never waits.
         */
        public Builder retries(int maxRetries, Duration maxRetryAfter) {
            if (maxRetries < 0) throw new IllegalArgumentException("maxRetries must be 0 or more");
            this.maxRetries = maxRetries;
            this.maxRetryAfter = maxRetryAfter;
            return this;
        }

        public LedgerlinkClient build() {
            return new LedgerlinkClient(this);
        }
    }
}
