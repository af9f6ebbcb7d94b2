package dev.ledgerlink.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.ledgerlink.testing.Fixtures;
import dev.ledgerlink.oauth.TokenResponse;
import dev.ledgerlink.testing.TestServer;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** One refresh at a time per grant against the real token endpoint (single-use refresh tokens would expose a second one). */
class TokenRefresherTest {
    static TestServer server;

    @BeforeAll
    static void start() {
        server = TestServer.start();
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static Tokens issued(Fixtures f) {
        TokenResponse t = server.services().oauth().operatorGrant().issue(f.user().email(), f.app().clientId(), List.of()).response();
        return new Tokens(t.accessToken(), t.tokenType(), t.expiresIn(), t.refreshToken(), t.scope(), Instant.ofEpochSecond(t.createdAt()));
    }

    private static LedgerlinkClient client(Fixtures f) {
        return LedgerlinkClient.builder(server.baseUrl(), f.app().clientId(), f.clientSecret(), Fixtures.REDIRECT_URI).build();
    }

    @Test
    void manyThreadsOnAnExpiringTokenCauseOneRefreshPersistedBeforeUse() throws Exception {
        Fixtures f = Fixtures.create(server);
        List<Tokens> saved = new CopyOnWriteArrayList<>();
        // The clock reads 12 hours ahead: the issued access token counts as expiring.
        Clock later = Clock.offset(Clock.systemUTC(), Duration.ofHours(12));
        TokenRefresher refresher = new TokenRefresher(client(f), issued(f), saved::add, Duration.ofMinutes(1), later);

        int threads = 8;
        CountDownLatch go = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        List<Future<String>> results = new ArrayList<>();
        for (int i = 0; i < threads; i++) {
            results.add(pool.submit(() -> {
                go.await();
                return refresher.accessToken();
            }));
        }
        go.countDown();
        Set<String> tokens = new HashSet<>();
        for (Future<String> r : results) tokens.add(r.get());
        pool.shutdown();

        assertEquals(1, saved.size(), "one refresh, handed to persistence once");
        assertEquals(Set.of(saved.getFirst().accessToken()), tokens, "every thread got the persisted pair's token");
        assertSame(saved.getFirst(), refresher.current());
        assertEquals(1, server.services().tokens().liveRefreshTokens(f.user().id(), f.app().id()));
        assertEquals(f.user().email(), client(f).me(tokens.iterator().next()).email());
    }

    @Test
    void aRejectedTokenIsRefreshedOnceAndLaterRejectionsOfItTakeTheNewPair() {
        Fixtures f = Fixtures.create(server);
        Tokens first = issued(f);
        List<Tokens> saved = new ArrayList<>();
        TokenRefresher refresher = new TokenRefresher(client(f), first, saved::add);
        assertEquals(first.accessToken(), refresher.accessToken(), "fresh for 12 hours: no refresh");

        Tokens second = refresher.refreshAfterRejection(first.accessToken());
        assertNotEquals(first.accessToken(), second.accessToken());
        assertSame(second, refresher.refreshAfterRejection(first.accessToken()), "already refreshed since that token");
        assertEquals(List.of(second), saved);
    }

    @Test
    void aFailingPersistenceIsThrownButTheSpentTokenIsNotLost() {
        Fixtures f = Fixtures.create(server);
        Tokens first = issued(f);
        TokenRefresher refresher = new TokenRefresher(client(f), first, pair -> {
            throw new IllegalStateException("disk full");
        });
        assertThrows(IllegalStateException.class, () -> refresher.refreshAfterRejection(first.accessToken()));
        assertNotEquals(first, refresher.current(), "the new pair is kept: the old refresh token is spent");
        assertEquals(f.user().email(), client(f).me(refresher.current().accessToken()).email());
    }
}
