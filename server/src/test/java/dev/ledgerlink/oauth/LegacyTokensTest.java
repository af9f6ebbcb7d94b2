package dev.ledgerlink.oauth;

import static dev.ledgerlink.oauth.OAuthFlows.apiStatus;
import static dev.ledgerlink.oauth.OAuthFlows.assertOAuthError;
import static dev.ledgerlink.oauth.OAuthFlows.refresh;
import static dev.ledgerlink.oauth.OAuthFlows.revoke;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ledgerlink.secrets.Hashes;
import dev.ledgerlink.secrets.RandomTokens;
import dev.ledgerlink.testing.Fixtures;
import dev.ledgerlink.testing.LedgerlinkTest;
import dev.ledgerlink.testing.ServerSettings;
import dev.ledgerlink.testing.TestServer;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import org.junit.jupiter.api.Test;

/**
 * Tokens issued before V22 (43 characters, stored by the hash of the whole string and found through
 * oauth_legacy_token_hashes) keep working beside the new ones: bearer calls, refresh (whose successor
 * is a token of the new format), single use and replay detection, revocation and introspection.
 * The rows are written here as V22 leaves them for such a token.
 */
@LedgerlinkTest
@ServerSettings("events.operator-key=" + LegacyTokensTest.KEY)
class LegacyTokensTest {
    static final String KEY = "test-operator-key-legacy-tokens-0123";
    TestServer server;
    Fixtures f;

    /** A grant of the fixture's user and application holding one legacy refresh token and one legacy access token. */
    private record Legacy(long grantId, String refreshToken, String accessToken) {}

    private Legacy legacyGrant() {
        String refresh = RandomTokens.urlSafe(32);
        String access = RandomTokens.urlSafe(32);
        Instant now = server.clock.instant().truncatedTo(ChronoUnit.MICROS);   // as stored (store/DbTime)
        long grant = server.services().database().jdbi().withHandle(h -> {
            long g = h.createUpdate("insert into oauth_grants (user_id, application_id, scopes, created_at) values (:u, :a, :s, :now)")
                    .bind("u", f.user().id()).bind("a", f.app().id()).bind("s", String.join(" ", Fixtures.SCOPES)).bind("now", now)
                    .executeAndReturnGeneratedKeys("id").mapTo(Long.class).one();
            long r = h.createUpdate("""
                            insert into oauth_refresh_tokens (token_hash, grant_id, user_id, application_id, scopes, created_at)
                            select :hash, id, user_id, application_id, scopes, created_at from oauth_grants where id = :g""")
                    .bind("hash", Hashes.sha256(refresh)).bind("g", g).executeAndReturnGeneratedKeys("id").mapTo(Long.class).one();
            long a = h.createUpdate("""
                            insert into oauth_access_tokens (token_hash, grant_id, user_id, application_id, scopes, created_at, expires_at)
                            select :hash, id, user_id, application_id, scopes, created_at, :expires from oauth_grants where id = :g""")
                    .bind("hash", Hashes.sha256(access)).bind("g", g).bind("expires", now.plus(Duration.ofHours(12)))
                    .executeAndReturnGeneratedKeys("id").mapTo(Long.class).one();
            h.createUpdate("insert into oauth_legacy_token_hashes (token_hash, refresh_token_id, migrated_at) values (:hash, :id, :now)")
                    .bind("hash", Hashes.sha256(refresh)).bind("id", r).bind("now", now).execute();
            h.createUpdate("insert into oauth_legacy_token_hashes (token_hash, access_token_id, migrated_at) values (:hash, :id, :now)")
                    .bind("hash", Hashes.sha256(access)).bind("id", a).bind("now", now).execute();
            return g;
        });
        return new Legacy(grant, refresh, access);
    }

    @Test
    void aLegacyAccessTokenAuthenticatesUntilItExpires() {
        Legacy legacy = legacyGrant();
        assertEquals(200, apiStatus(server, legacy.accessToken()));
        assertEquals(401, apiStatus(server, RandomTokens.urlSafe(32)), "another string of the old length is unknown");
        server.clock.advance(Duration.ofHours(12));
        assertEquals(401, apiStatus(server, legacy.accessToken()));
    }

    @Test
    void aLegacyRefreshTokenRotatesIntoTheNewFormatOnceAndItsReplayEndsTheGrant() {
        Legacy legacy = legacyGrant();
        var r = refresh(server, f, legacy.refreshToken());
        assertEquals(200, r.status(), r.body());
        JsonNode next = r.json();
        assertEquals(TokenFormat.LENGTH, next.get("refresh_token").asText().length());
        assertEquals(TokenFormat.LENGTH, next.get("access_token").asText().length());
        assertEquals(200, apiStatus(server, next.get("access_token").asText()));

        var again = refresh(server, f, legacy.refreshToken());
        assertOAuthError(again, 400, "invalid_grant");
        assertTrue(again.json().get("error_description").asText().startsWith("refresh token was already used at "), again.body());

        server.clock.advance(Duration.ofSeconds(31));
        assertOAuthError(refresh(server, f, legacy.refreshToken()), 400, "invalid_grant");
        assertEquals(401, apiStatus(server, next.get("access_token").asText()), "the replay revoked the whole grant");
        assertEquals(401, apiStatus(server, legacy.accessToken()));
        assertOAuthError(refresh(server, f, next.get("refresh_token").asText()), 400, "invalid_grant");
    }

    @Test
    void revokingALegacyRefreshTokenEndsItsGrantAndIntrospectionSeesLegacyTokens() {
        Legacy legacy = legacyGrant();
        var active = server.http.postForm("/auth/oauth/introspect", "token=" + legacy.accessToken(), "Authorization", "Bearer " + KEY);
        assertEquals(200, active.status(), active.body());
        assertEquals(true, active.json().get("active").asBoolean(), active.body());
        assertEquals("access_token", active.json().get("token_use").asText());
        var refreshActive = server.http.postForm("/auth/oauth/introspect", "token=" + legacy.refreshToken(), "Authorization", "Bearer " + KEY);
        assertEquals("refresh_token", refreshActive.json().get("token_use").asText(), refreshActive.body());

        assertEquals(200, revoke(server, f, legacy.refreshToken()).status());
        assertEquals(401, apiStatus(server, legacy.accessToken()));
        assertOAuthError(refresh(server, f, legacy.refreshToken()), 400, "invalid_grant");
        var inactive = server.http.postForm("/auth/oauth/introspect", "token=" + legacy.accessToken(), "Authorization", "Bearer " + KEY);
        assertEquals(false, inactive.json().get("active").asBoolean(), inactive.body());
    }
}
