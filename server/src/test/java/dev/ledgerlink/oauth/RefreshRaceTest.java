package dev.ledgerlink.oauth;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.ledgerlink.testing.Fixtures;
import dev.ledgerlink.testing.LedgerlinkTest;
import dev.ledgerlink.testing.TestDatabases;
import dev.ledgerlink.testing.TestHttp;
import dev.ledgerlink.testing.TestServer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.IntFunction;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Requests racing with one refresh token or one code: exactly one wins, on one node or several. */
@LedgerlinkTest
class RefreshRaceTest {
    static TestServer server;
    @TempDir
    Path dir;

    @Test
    void fiftySimultaneousRefreshesWithOneTokenHaveExactlyOneWinner(Fixtures f) throws Exception {
        TokenPair pair = f.issue();
        List<Integer> statuses = race(50, i -> OAuthFlows.refresh(server, f, pair.refreshToken()));
        assertEquals(1, statuses.stream().filter(s -> s == 200).count(), statuses.toString());
        assertEquals(49, statuses.stream().filter(s -> s == 400).count(), statuses.toString());
        assertEquals(1, server.services().tokens().liveRefreshTokens(f.user().id(), f.app().id()));
    }

    @Test
    void simultaneousExchangesOfOneCodeHaveExactlyOneWinner(Fixtures f) throws Exception {
        String code = OAuthFlows.code(server, f);
        List<Integer> statuses = race(20, i -> OAuthFlows.exchange(server, f, code));
        assertEquals(1, statuses.stream().filter(s -> s == 200).count(), statuses.toString());
    }

    @Test
    void twoServersOnOneDatabaseRacingOneRefreshTokenHaveExactlyOneWinner() throws Exception {
        TestDatabases.TestDb db = TestDatabases.freshShared(dir);
        try (var a = TestServer.start(s -> TestServer.settingsFor(db));
             var b = TestServer.start(s -> TestServer.settingsFor(db))) {
            Fixtures f = Fixtures.create(a);
            TokenPair pair = f.issue();
            List<Integer> statuses = race(50, i -> OAuthFlows.refresh(i % 2 == 0 ? a : b, f, pair.refreshToken()));
            assertEquals(1, statuses.stream().filter(s -> s == 200).count(), statuses.toString());
            assertEquals(1, a.services().tokens().liveRefreshTokens(f.user().id(), f.app().id()));
        }
    }

    @Test
    void refreshRacingNewAuthorizationsLeavesOneLiveRefreshToken(Fixtures f) throws Exception {
        TokenPair pair = f.issue();
        race(20, i -> i == 0 ? OAuthFlows.refresh(server, f, pair.refreshToken()) : issueThroughTheService(server, f));
        assertEquals(1, server.services().tokens().liveRefreshTokens(f.user().id(), f.app().id()));
    }

    private static TestHttp.Response issueThroughTheService(TestServer server, Fixtures f) {
        f.issue();
        return new TestHttp.Response(200, null, "");
    }

    private static List<Integer> race(int n, IntFunction<TestHttp.Response> request) throws Exception {
        CountDownLatch ready = new CountDownLatch(n);
        CountDownLatch go = new CountDownLatch(1);
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<Integer>> results = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                int index = i;
                results.add(pool.submit(() -> {
                    ready.countDown();
                    go.await();
                    return request.apply(index).status();
                }));
            }
            ready.await();
            go.countDown();
            List<Integer> statuses = new ArrayList<>();
            for (Future<Integer> r : results) statuses.add(r.get());
            return statuses;
        }
    }
}
