package dev.ledgerlink.oauth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ledgerlink.accounts.ApplicationService;
import dev.ledgerlink.testing.Fixtures;
import dev.ledgerlink.testing.LedgerlinkTest;
import dev.ledgerlink.testing.TestHttp;
import dev.ledgerlink.testing.TestServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The console's grants, a page of (user, application) pairs at a time, the most recently authorized
 * first, each summed up from its own grants and tokens.
 */
@LedgerlinkTest
class GrantSummariesTest {
    TestServer server;
    Fixtures f;

    @Test
    void pairsComeFiftyToAPageNewestFirstEachWithItsChainAndAccessTokens() {
        var apps = new ApplicationService(server.services().database().jdbi(), server.services().clock(), true, server.services().audit(), Duration.ZERO);
        List<Long> issued = new ArrayList<>();
        for (int i = 0; i < Grants.PER_PAGE + 1; i++) {
            long app = apps.create("Pair " + i, List.of(Fixtures.REDIRECT_URI), List.of("user:profile:read")).application().id();
            server.services().tokens().issue(f.user().id(), app, Set.of("user:profile:read"));
            issued.add(app);
            server.clock.advance(Duration.ofSeconds(1));
        }
        TokenPair chain = f.issue();
        assertEquals(200, OAuthFlows.refresh(server, f, chain.refreshToken()).status());   // the fixture's pair: a chain of two, issued last
        Grants grants = server.services().oauth().grants();

        Grants.SummaryPage first = grants.summaries(List.of(f.user().id()), 1);
        assertEquals(Grants.PER_PAGE, first.summaries().size());
        assertTrue(first.more());
        Grants.Summary newest = first.summaries().getFirst();
        assertEquals(f.app().id(), newest.applicationId(), "the pair authorized last comes first");
        assertEquals(2, newest.chainLength(), "its live chain: the first refresh token and the one its refresh issued");
        assertEquals(2, newest.accessTokensIssued());
        assertNotNull(newest.liveRefreshIssuedAt());
        assertEquals(issued.getLast(), first.summaries().get(1).applicationId());

        Grants.SummaryPage second = grants.summaries(List.of(f.user().id()), 2);
        assertEquals(2, second.summaries().size(), "52 pairs: the fixture's and the 51 above");
        assertFalse(second.more());
        assertEquals(issued.getFirst(), second.summaries().getLast().applicationId(), "the oldest pair last");
        assertEquals(Grants.PER_PAGE, grants.summaries(null, 1).summaries().size(), "an operator sees every user's");
    }

    @Test
    void aChainRefreshedMoreThanAThousandTimesCountsAsMoreThanAThousandAndItsLiveTokensStillShow() {
        String refresh = f.issue().refreshToken();
        for (int i = 0; i < Grants.COUNTED + 5; i++) {
            TestHttp.Response r = OAuthFlows.refresh(server, f, refresh);
            assertEquals(200, r.status(), r.body());
            refresh = r.json().get("refresh_token").asText();
        }
        Grants.Summary pair = server.services().oauth().grants().summaries(List.of(f.user().id()), 1).summaries().getFirst();
        assertEquals(Grants.COUNTED + 1, pair.chainLength(), "1,006 refresh tokens in the chain, counted up to one past the bound");
        assertEquals(Grants.COUNTED + 1, pair.accessTokensIssued());
        assertEquals(Grants.COUNTED + 1, pair.liveAccessTokens(), "every access token of the chain is still live (none expired), counted likewise");
        assertNotNull(pair.liveRefreshIssuedAt());
        assertNotNull(pair.liveAccessUntil());
        assertEquals("1,000+", dev.ledgerlink.web.console.Format.tokensCounted(pair.chainLength()));
        assertEquals("1,000", dev.ledgerlink.web.console.Format.tokensCounted(Grants.COUNTED));

        assertEquals(200, OAuthFlows.revoke(server, f, refresh).status());
        Grants.Summary revoked = server.services().oauth().grants().summaries(List.of(f.user().id()), 1).summaries().getFirst();
        assertNull(revoked.liveRefreshIssuedAt(), "no live chain once its refresh token is revoked");
        assertEquals(0, revoked.chainLength());
    }
}
