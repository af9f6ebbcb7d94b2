package dev.ledgerlink.accounts;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ledgerlink.secrets.Hashes;
import dev.ledgerlink.testing.Fixtures;
import dev.ledgerlink.testing.LedgerlinkTest;
import dev.ledgerlink.testing.ServerSettings;
import dev.ledgerlink.testing.TestHttp;
import dev.ledgerlink.testing.TestServer;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * Client authentication with the clients' stored secrets kept in memory (ClientSecretCache), here for
 * an hour so that nothing depends on timing: a change written to the database by someone else (another
 * node, the CLI; here an UPDATE) is not seen while the row is kept, a change through this node is seen
 * at once, the previous secret's overlap still ends on the clock, and an unknown client is never kept.
 */
@LedgerlinkTest
@ServerSettings({"oauth.client-cache-ttl=PT1H", "events.operator-key=" + ClientSecretCacheTest.KEY})
class ClientSecretCacheTest {
    static final String KEY = "test-operator-key-client-cache-0123";
    static TestServer server;
    Fixtures f;

    private boolean authenticates(String clientId, String secret) {
        return server.services().applications().authenticate(clientId, secret).isPresent();
    }

    /** Another node's rotation without overlap: only the database changes. */
    private void replaceSecretInTheDatabase(long applicationId, String secret) {
        server.services().database().jdbi().useHandle(h -> h.execute(
                "update applications set client_secret_hash = ?, previous_secret_hash = null, previous_secret_expires_at = null where id = ?",
                Hashes.sha256Hex(secret), applicationId));
    }

    @Test
    void aSecretReplacedElsewhereAuthenticatesWhileTheRowIsKeptAndNotAfterThisNodeRotates() {
        assertTrue(authenticates(f.app().clientId(), f.clientSecret()));
        replaceSecretInTheDatabase(f.app().id(), "a-secret-set-on-another-node-0123456789");
        assertTrue(authenticates(f.app().clientId(), f.clientSecret()), "the kept row still has the old hash");
        assertTrue(!authenticates(f.app().clientId(), "a-secret-set-on-another-node-0123456789"), "nor the new one, until the row is read again");

        TestHttp.Response rotated = server.http.postJson("/internal/v1/admin/applications/" + f.app().clientId() + "/rotate-secret", "",
                "Authorization", "Bearer " + KEY);
        assertEquals(200, rotated.status(), rotated.body());
        String current = rotated.json().at("/application/client_secret").asText();
        assertTrue(!authenticates(f.app().clientId(), f.clientSecret()), "a rotation through this node forgets the kept row at once");
        assertTrue(authenticates(f.app().clientId(), current));
    }

    @Test
    void theOverlapOfAKeptPreviousSecretStillEndsOnTheClock() {
        TestHttp.Response rotated = server.http.postJson("/internal/v1/admin/applications/" + f.app().clientId() + "/rotate-secret",
                "{\"keep_old\": \"PT1H\"}", "Authorization", "Bearer " + KEY);
        assertEquals(200, rotated.status(), rotated.body());
        String current = rotated.json().at("/application/client_secret").asText();
        assertTrue(authenticates(f.app().clientId(), f.clientSecret()), "the previous secret during the overlap (the row is kept now)");
        server.clock.advance(Duration.ofHours(1).plusSeconds(1));
        assertTrue(!authenticates(f.app().clientId(), f.clientSecret()), "the same kept row, after the overlap");
        assertTrue(authenticates(f.app().clientId(), current));
    }

    @Test
    void anUnknownClientIsLookedUpEveryTime() {
        String clientId = "cachetest" + System.nanoTime();
        String secret = "a-fixed-secret-0123456789";
        assertTrue(!authenticates(clientId, secret));
        server.services().applications().createFixed("Later", java.util.List.of(Fixtures.REDIRECT_URI), java.util.List.of("user:profile:read"),
                clientId, secret);
        assertTrue(authenticates(clientId, secret), "registered after a failed lookup, it authenticates at once");
    }

    @Test
    @ServerSettings("oauth.client-cache-ttl=PT0S")
    void withATtlOfZeroEveryAuthenticationReadsTheDatabase(TestServer server, Fixtures f) {
        assertTrue(server.services().applications().authenticate(f.app().clientId(), f.clientSecret()).isPresent());
        server.services().database().jdbi().useHandle(h -> h.execute(
                "update applications set client_secret_hash = ? where id = ?", Hashes.sha256Hex("another-secret-0123456789"), f.app().id()));
        assertTrue(server.services().applications().authenticate(f.app().clientId(), f.clientSecret()).isEmpty());
        assertTrue(server.services().applications().authenticate(f.app().clientId(), "another-secret-0123456789").isPresent());
    }
}
