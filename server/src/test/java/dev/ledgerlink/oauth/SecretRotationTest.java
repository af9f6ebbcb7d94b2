package dev.ledgerlink.oauth;

import dev.ledgerlink.testing.Fixtures;
import dev.ledgerlink.testing.FreshServer;
import dev.ledgerlink.testing.LedgerlinkTest;
import dev.ledgerlink.testing.ServerSettings;
import static dev.ledgerlink.oauth.OAuthFlows.assertOAuthError;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ledgerlink.testing.ServerCli;
import dev.ledgerlink.testing.TestHttp;
import dev.ledgerlink.testing.TestServer;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * Secret rotation with overlap: during the overlap the token, revoke and introspect endpoints accept
 * either secret; after it (or after retire-secret) only the new one. Through the CLI and the admin API.
 */
@LedgerlinkTest
// The CLI writes the database beside the server, as another node would: with clients kept in memory
// the server would see its rotations within oauth.client-cache-ttl (ClientSecretCacheTest tests that
// bound and that rotations through the server itself apply at once); here every request reads them.
@ServerSettings({"events.operator-key=" + SecretRotationTest.KEY, "oauth.client-cache-ttl=PT0S"})
class SecretRotationTest {
    static final String KEY = "test-operator-key-rotation-0123456";
    static TestServer server;
    Fixtures f;

    /** The three endpoints that authenticate clients, each with this secret: their statuses. */
    private static int[] endpoints(TestServer server, Fixtures f, String secret) {
        TokenPair pair = f.issue();
        var creds = "client_id=" + f.app().clientId() + "&client_secret=" + secret;
        int token = server.http.postForm("/auth/oauth/token", creds + "&grant_type=refresh_token&refresh_token=" + pair.refreshToken()).status();
        int introspect = server.http.postForm("/auth/oauth/introspect", creds + "&token=" + pair.accessToken()).status();
        int revoke = server.http.postForm("/auth/oauth/revoke", creds + "&token=" + pair.accessToken()).status();
        return new int[] {token, introspect, revoke};
    }

    private static void assertAll(int expected, int[] statuses, String what) {
        for (int s : statuses) assertEquals(expected, s, what + ": token, introspect, revoke gave " + java.util.Arrays.toString(statuses));
    }

    @Test
    @FreshServer   // moves its clock a week on; the CLI of the other tests stamps the real time
    void withKeepOldBothSecretsWorkUntilTheOverlapEnds(TestServer server) {
        JsonNode rotated = cli(server, "apps", "rotate-secret", f.app().clientId(), "--keep-old", "P7D", "--json");
        String newSecret = rotated.get("client_secret").asText();
        assertNotEquals(f.clientSecret(), newSecret);
        assertTrue(rotated.hasNonNull("previous_secret_valid_until"), rotated.toString());

        assertAll(200, endpoints(server, f, f.clientSecret()), "old secret during the overlap");
        assertAll(200, endpoints(server, f, newSecret), "new secret");

        server.clock.advance(Duration.ofDays(7).plusMinutes(5));
        assertAll(401, endpoints(server, f, f.clientSecret()), "old secret after the overlap");
        assertAll(200, endpoints(server, f, newSecret), "new secret after the overlap");
    }

    @Test
    void retireSecretEndsTheOverlapEarly() {
        String newSecret = cli(server, "apps", "rotate-secret", Long.toString(f.app().id()), "--keep-old", "PT12H", "--json")
                .get("client_secret").asText();
        assertAll(200, endpoints(server, f, f.clientSecret()), "old secret during the overlap");
        JsonNode retired = cli(server, "apps", "retire-secret", f.app().clientId(), "--json");
        assertTrue(retired.get("previous_secret_valid_until").isNull(), retired.toString());
        assertAll(401, endpoints(server, f, f.clientSecret()), "old secret after retire-secret");
        assertAll(200, endpoints(server, f, newSecret), "new secret");
    }

    @Test
    void withoutKeepOldTheOldSecretStopsAtOnceAndARotationForgetsAnOlderOverlap() {
        String admin = "/internal/v1/admin/applications/" + f.app().clientId();
        TestHttp.Response first = server.http.postJson(admin + "/rotate-secret", "{\"keep_old\": \"P1D\"}", "Authorization", "Bearer " + KEY);
        assertEquals(200, first.status(), first.body());
        String second = first.json().at("/application/client_secret").asText();
        TestHttp.Response again = server.http.postJson(admin + "/rotate-secret", "", "Authorization", "Bearer " + KEY);
        assertEquals(200, again.status(), again.body());
        String third = again.json().at("/application/client_secret").asText();
        assertAll(401, endpoints(server, f, f.clientSecret()), "the first secret");
        assertAll(401, endpoints(server, f, second), "the second secret, replaced without overlap");
        assertAll(200, endpoints(server, f, third), "the current secret");
    }

    @Test
    void aBadOverlapIsA422AndChangesNothing() {
        String path = "/internal/v1/admin/applications/" + f.app().id() + "/rotate-secret";
        for (String body : new String[] {"{\"keep_old\": \"seven days\"}", "{\"keep_old\": \"P31D\"}", "{\"keep_old\": \"-PT1H\"}", "{\"keep_old\": 7}"}) {
            TestHttp.Response r = server.http.postJson(path, body, "Authorization", "Bearer " + KEY);
            assertEquals(422, r.status(), body + " -> " + r.body());
            assertEquals("keep_old", r.json().at("/details/0/fieldViolations/0/field").asText(), r.body());
        }
        assertEquals(400, server.http.postJson(path, "{not json", "Authorization", "Bearer " + KEY).status());
        assertAll(200, endpoints(server, f, f.clientSecret()), "the secret is unchanged");
        var cliRun = ServerCli.run(server, "apps", "rotate-secret", f.app().clientId(), "--keep-old", "P99D");
        assertEquals(2, cliRun.exitCode(), "a refused rotation exits 2: " + cliRun.out() + cliRun.err());
    }

    private static JsonNode cli(TestServer server, String... args) {
        return ServerCli.json(server, args);
    }
}
