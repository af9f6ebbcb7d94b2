package dev.ledgerlink.bench.peer;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ledgerlink.bench.http.Http1Connection;
import dev.ledgerlink.bench.oauth.BrowserSession;
import dev.ledgerlink.bench.oauth.RefreshChains;
import dev.ledgerlink.bench.oauth.TokenCalls;
import dev.ledgerlink.bench.proc.KeycloakProcess;
import dev.ledgerlink.secrets.RandomTokens;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The Keycloak side of the peer comparison, set up through Keycloak's admin REST API as an operator
 * would: a realm whose refresh tokens are single use ({@code revokeRefreshToken} true,
 * {@code refreshTokenMaxReuse} 0, so every refresh rotates and a spent token is refused, as ledgerlink
 * does), one confidential client (client secret sent in the form, like ledgerlink's clients) and one
 * user. Each chain's first tokens come from the password grant (directAccessGrantsEnabled): every
 * password grant opens a user session of its own, so the chains are independent sessions, and a
 * refresh of such a session is the same grant as one of a session opened by a code exchange. Only the
 * refresh loop is measured.
 */
public final class KeycloakRealm {
    public static final String REALM = "bench";
    public static final String TOKEN_PATH = "/realms/" + REALM + "/protocol/openid-connect/token";
    private static final String REDIRECT = "http://127.0.0.1:9/bench/callback";

    private final KeycloakProcess keycloak;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    private final ObjectMapper json = new ObjectMapper();
    private final TokenCalls.Client client = new TokenCalls.Client("bench-client", RandomTokens.alphanumeric(32), REDIRECT);
    private final String username = "bench-user";
    private final String password = RandomTokens.alphanumeric(24);

    private KeycloakRealm(KeycloakProcess keycloak) {
        this.keycloak = keycloak;
    }

    /** Creates the realm, its client and its user with the bootstrap admin's token. */
    public static KeycloakRealm create(KeycloakProcess keycloak) throws IOException, InterruptedException {
        KeycloakRealm r = new KeycloakRealm(keycloak);
        String admin = r.adminToken();
        Map<String, Object> realm = new LinkedHashMap<>();
        realm.put("realm", REALM);
        realm.put("enabled", true);
        realm.put("revokeRefreshToken", true);
        realm.put("refreshTokenMaxReuse", 0);
        r.post(admin, "/admin/realms", realm);

        Map<String, Object> c = new LinkedHashMap<>();
        c.put("clientId", r.client.clientId());
        c.put("enabled", true);
        c.put("publicClient", false);
        c.put("clientAuthenticatorType", "client-secret");
        c.put("secret", r.client.clientSecret());
        c.put("directAccessGrantsEnabled", true);
        c.put("standardFlowEnabled", true);
        c.put("redirectUris", List.of(REDIRECT));
        r.post(admin, "/admin/realms/" + REALM + "/clients", c);

        // email, first and last name: without them Keycloak's user profile holds the login ("account not fully set up").
        Map<String, Object> u = new LinkedHashMap<>();
        u.put("username", r.username);
        u.put("email", r.username + "@ledgerlink.test");
        u.put("emailVerified", true);
        u.put("firstName", "Bench");
        u.put("lastName", "User");
        u.put("enabled", true);
        u.put("requiredActions", List.of());
        u.put("credentials", List.of(Map.of("type", "password", "value", r.password, "temporary", false)));
        r.post(admin, "/admin/realms/" + REALM + "/users", u);
        r.checkRealmSettings(admin);
        return r;
    }

    /** {@code n} chains, each the refresh token of its own password grant (its own user session). */
    public RefreshChains chains(int n) throws IOException {
        List<TokenCalls.Client> clients = new ArrayList<>();
        List<String> first = new ArrayList<>();
        try (Http1Connection c = new Http1Connection("127.0.0.1", keycloak.port())) {
            for (int i = 0; i < n; i++) {
                first.add(TokenCalls.tokens(TokenCalls.password(c, TOKEN_PATH, client, username, password)).refreshToken());
                clients.add(client);
            }
        }
        return new RefreshChains(new RefreshChains.Target("127.0.0.1", keycloak.port(), TOKEN_PATH), clients, first);
    }

    /** What the comparison relies on, read back from Keycloak rather than assumed from what was sent. */
    private void checkRealmSettings(String admin) throws IOException, InterruptedException {
        JsonNode realm = send(HttpRequest.newBuilder(uri("/admin/realms/" + REALM)).header("Authorization", "Bearer " + admin).GET(), 200);
        if (!realm.path("revokeRefreshToken").asBoolean(false) || realm.path("refreshTokenMaxReuse").asInt(-1) != 0) {
            throw new IllegalStateException("realm " + REALM + " does not have single-use refresh tokens: revokeRefreshToken="
                    + realm.path("revokeRefreshToken") + ", refreshTokenMaxReuse=" + realm.path("refreshTokenMaxReuse"));
        }
    }

    /** A master-realm access token of the bootstrap admin (admin-cli, password grant). */
    private String adminToken() throws IOException, InterruptedException {
        String body = BrowserSession.form(Map.of("grant_type", "password", "client_id", "admin-cli",
                "username", keycloak.adminUser(), "password", keycloak.adminPassword()));
        JsonNode t = send(HttpRequest.newBuilder(uri("/realms/master/protocol/openid-connect/token"))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(body)), 200);
        return t.path("access_token").asText();
    }

    private void post(String admin, String path, Object body) throws IOException, InterruptedException {
        send(HttpRequest.newBuilder(uri(path)).header("Authorization", "Bearer " + admin).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json.writeValueAsString(body))), 201);
    }

    private JsonNode send(HttpRequest.Builder b, int expected) throws IOException, InterruptedException {
        HttpRequest req = b.timeout(Duration.ofMinutes(2)).build();
        HttpResponse<String> r = http.send(req, HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != expected) {
            throw new IOException("Keycloak " + req.method() + " " + req.uri().getPath() + " answered " + r.statusCode()
                    + " (expected " + expected + "): " + r.body());
        }
        return r.body().isBlank() ? json.createObjectNode() : json.readTree(r.body());
    }

    private URI uri(String path) {
        return URI.create(keycloak.baseUrl() + path);
    }
}
