package dev.ledgerlink.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ledgerlink.oauth.TokenPair;
import dev.ledgerlink.testing.Fixtures;
import dev.ledgerlink.testing.FrontEnd;
import dev.ledgerlink.testing.LedgerlinkTest;
import dev.ledgerlink.testing.TestServer;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

@LedgerlinkTest
@FrontEnd
class IdentityEndpointTest {
    static TestServer server;
    static Fixtures f;
    static TokenPair pair;

    @BeforeAll
    static void start() {
        pair = f.issue();
    }

    @Test
    void identityCarriesEveryKeyClientLibrariesRead() {
        var r = server.http.get("/auth/api/v1/users/me", "Authorization", "Bearer " + pair.accessToken(), "Api-Version", "alpha");
        assertEquals(200, r.status(), r.body());
        JsonNode me = r.json().get("response");
        for (String key : List.of("id", "identity_id", "first_name", "last_name", "email", "business_memberships")) {
            assertTrue(me.has(key), key);
        }
        assertEquals(f.user().id(), me.get("id").asLong());
        assertEquals("Ana", me.get("first_name").asText());
        assertEquals("Silva", me.get("last_name").asText());
        assertEquals(f.user().email(), me.get("email").asText());
        JsonNode membership = me.get("business_memberships").get(0);
        assertTrue(membership.has("id"));
        assertEquals("owner", membership.get("role").asText());
        JsonNode business = membership.get("business");
        for (String key : List.of("id", "name", "account_id", "timezone", "address", "phone_number", "business_clients")) {
            assertTrue(business.has(key), "business." + key);
        }
        assertEquals(f.account().accountId(), business.get("account_id").asText());
        assertEquals("America/Toronto", business.get("timezone").asText());
        assertTrue(business.get("address").isNull());
        assertTrue(business.get("phone_number").isNull());
        assertTrue(business.get("business_clients").isArray() && business.get("business_clients").isEmpty());
    }

    @Test
    void identityNeedsABearerToken() {
        var r = server.http.get("/auth/api/v1/users/me");
        assertEquals(401, r.status());
        assertTrue(r.header("WWW-Authenticate").contains("invalid_token"));
        assertEquals("invalid_token", r.json().get("error").asText());
    }

    @Test
    void revokedTokenNoLongerAuthenticates() {
        TokenPair other = f.issue();
        server.services().oauth().revocation().revoke(f.app(), other.accessToken(), null);
        assertEquals(401, server.http.get("/auth/api/v1/users/me", "Authorization", "Bearer " + other.accessToken()).status());
    }

    @Test
    void unsupportedApiVersionIsRefusedBeforeAuthentication() {
        var r = server.http.get("/auth/api/v1/users/me", "Authorization", "Bearer " + pair.accessToken(), "Api-Version", "2024-01");
        assertEquals(400, r.status());
    }
}
