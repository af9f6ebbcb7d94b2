package dev.ledgerlink.junit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ledgerlink.client.LedgerlinkClient;
import dev.ledgerlink.client.OAuthException;
import dev.ledgerlink.client.Tokens;
import dev.ledgerlink.client.ApiException;
import dev.ledgerlink.client.sandbox.JournalEntry;
import dev.ledgerlink.client.sandbox.Sandbox;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The "Faults" and "Journal" examples of docs/sandbox.md: an app refreshes its token through the Java
 * client while the sandbox's token endpoint misbehaves on purpose, and the journal says what happened.
 */
class TokenRefreshUnderFaultsTest {
    @RegisterExtension
    static LedgerlinkSandbox sandbox = LedgerlinkSandbox.create().seed("example-seed.yaml");

    LedgerlinkClient client;   // the app's client: retries a 429 or 503 after its Retry-After, at most twice

    @BeforeEach
    void client() {
        client = clientOf(sandbox);
    }

    static LedgerlinkClient clientOf(Sandbox sandbox) {
        return LedgerlinkClient.builder(sandbox.baseUrl(), "invoicesync01", "invoice-sync-test-secret", "http://localhost:8000/callback").build();
    }

    @Test
    void theAppsRefreshSurvivesATokenEndpointThatAnswers503Twice() {
        refreshSurvives503Twice(sandbox, client);
    }

    @Test
    void aRefusedRefreshUsesNothingAndTheJournalSaysWhy() {
        refusedRefreshUsesNothing(sandbox, client);
    }

    static void refreshSurvives503Twice(Sandbox sandbox, LedgerlinkClient client) {
        String refreshToken = sandbox.tokens("ana@example.com", "invoicesync01").refreshToken();
        sandbox.faults().on("token").grantType("refresh_token").status(503, 1).times(2).add();

        Tokens refreshed = client.refresh(refreshToken);          // 503, wait 1 s, 503, wait 1 s, 200

        assertEquals("Ana", client.me(refreshed.accessToken()).firstName());
        List<JournalEntry> calls = sandbox.requests("invoicesync01").stream()
                .filter(e -> e.path().equals("/auth/oauth/token")).limit(3).toList();   // the app's last three
        assertEquals(List.of(200, 503, 503), calls.stream().map(JournalEntry::status).toList(), "newest first: " + calls);
        assertEquals("temporarily_unavailable", calls.get(1).error());
        assertTrue(calls.get(1).errorDescription().contains("sandbox fault rule"), calls.get(1).toString());
        // the app honoured Retry-After: each retry came at least a second after the answer that asked for it
        assertFalse(calls.get(1).receivedAt().isBefore(calls.get(2).receivedAt().plusSeconds(1)), calls.toString());
        assertFalse(calls.get(0).receivedAt().isBefore(calls.get(1).receivedAt().plusSeconds(1)), calls.toString());
        assertEquals(0, sandbox.faults().list().get(0).remaining());
    }

    static void refusedRefreshUsesNothing(Sandbox sandbox, LedgerlinkClient client) {
        String refreshToken = sandbox.tokens("ana@example.com", "invoicesync01").refreshToken();
        sandbox.faults().on("token").clientId("invoicesync01").invalidGrant().add();

        OAuthException refused = assertThrows(OAuthException.class, () -> client.refresh(refreshToken));
        assertEquals("invalid_grant", refused.error());
        Tokens refreshed = client.refresh(refreshToken);            // the same refresh token still works

        JournalEntry why = sandbox.requests("invoicesync01").get(1);
        assertEquals(400, why.status());
        assertEquals("invalid_grant", why.error());
        assertEquals(refused.description(), why.errorDescription());
        for (JournalEntry e : sandbox.requests(null)) {
            String all = e.toString();
            assertFalse(all.contains(refreshToken) || all.contains(refreshed.accessToken()) || all.contains(refreshed.refreshToken())
                    || all.contains("invoice-sync-test-secret"), "no secret in the journal: " + all);
        }
    }

    @Test
    void latencyAndClientMatchingAndClear() {
        String token = sandbox.tokens("ana@example.com", "invoicesync01").accessToken();
        sandbox.faults().on("identity").clientId("someotherapp").status(503, 1).add();
        sandbox.faults().on("identity").latency(Duration.ofMillis(300)).add();
        assertEquals("Ana", client.me(token).firstName());                  // another app's rule does not apply; the delay does
        assertTrue(sandbox.requests("invoicesync01").getFirst().durationMs() >= 300);
        List<Integer> left = sandbox.faults().list().stream().map(r -> r.remaining()).toList();
        assertEquals(List.of(1, 0), left);
        assertEquals(2, sandbox.faults().clear());
        assertTrue(sandbox.faults().list().isEmpty());
        ApiException refused = assertThrows(ApiException.class, () -> sandbox.faults().on("identity").invalidGrant().add(),
                "invalid_grant applies to the token route only");
        assertEquals(422, refused.status());
        assertTrue(refused.fieldViolations().containsKey("effect.error"), refused.getMessage());
    }
}
