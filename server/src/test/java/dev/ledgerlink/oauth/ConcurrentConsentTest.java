package dev.ledgerlink.oauth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ledgerlink.accounts.Application;
import dev.ledgerlink.accounts.Scopes;
import dev.ledgerlink.testing.Fixtures;
import dev.ledgerlink.testing.LedgerlinkTest;
import dev.ledgerlink.testing.TestHttp;
import dev.ledgerlink.testing.TestServer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/**
 * Remembered consent under concurrent grants, over real HTTP: one user authorizes one application in
 * several browser tabs at once, each tab for other scopes (and one scope they all share). Afterwards
 * every scope any tab granted is remembered: a request for all of them gets a code without asking.
 */
@LedgerlinkTest
class ConcurrentConsentTest {
    TestServer server;
    Fixtures f;

    @Test
    void concurrentGrantsOfDifferentScopesAreAllRemembered() throws Exception {
        List<String> catalog = List.copyOf(Scopes.all());
        Application app = server.services().applications().create("Many Scopes", List.of(Fixtures.REDIRECT_URI), catalog).application();
        String shared = "user:profile:read";
        List<String> others = catalog.stream().filter(s -> !s.equals(shared)).toList();
        int tabs = (others.size() + 1) / 2;

        // Each tab signed in and on the consent page for the shared scope and two of its own.
        List<BrowserSession> browsers = new ArrayList<>();
        for (int i = 0; i < tabs; i++) {
            List<String> scopes = new ArrayList<>(List.of(shared, others.get(i)));
            if (i + tabs < others.size()) scopes.add(others.get(i + tabs));
            BrowserSession b = server.closeFirst(new BrowserSession(server.baseUrl()));
            b.get(authorizeUrl(app, String.join(" ", scopes)));
            assertEquals(200, b.logIn(f.user().email(), f.password()).status(), b.last.body());
            assertTrue(b.last.body().contains("Authorize Many Scopes?"), b.last.body());
            browsers.add(b);
        }

        CountDownLatch go = new CountDownLatch(1);
        List<Future<TestHttp.Response>> answers = new ArrayList<>();
        try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
            for (BrowserSession b : browsers) {
                String action = b.formAction();
                String csrf = b.csrfToken();
                answers.add(threads.submit(() -> {
                    go.await();
                    return b.post(action, Map.of("csrf_token", csrf, "action", "authorize"));
                }));
            }
            go.countDown();
            for (Future<TestHttp.Response> a : answers) assertEquals(303, a.get().status(), a.get().body());
        }

        BrowserSession b = browsers.getFirst();
        TestHttp.Response all = b.get(authorizeUrl(app, String.join(" ", catalog)));
        assertEquals(302, all.status(), "every scope granted in some tab is remembered, none lost to another tab: " + all.body());
        assertNotNull(b.redirectParams().get("code"));
    }

    @Test
    void manyRoundsOfConcurrentGrantsLoseNoScope() throws Exception {
        List<String> catalog = List.copyOf(Scopes.all());
        LoginSession session = server.services().oauth().sessions().logIn(null, f.user().id()).session();
        AuthorizationFlow flow = server.services().oauth().flow();
        for (int round = 0; round < 20; round++) {
            Application app = server.services().applications().create("Round " + round, List.of(Fixtures.REDIRECT_URI), catalog).application();
            CountDownLatch go = new CountDownLatch(1);
            List<Future<AuthorizationFlow.Step>> steps = new ArrayList<>();
            try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
                for (String scope : catalog) {
                    AuthorizationRequest request = request(app, "user:profile:read " + scope);
                    steps.add(threads.submit(() -> {
                        go.await();
                        return flow.decide(request, session, true);
                    }));
                }
                go.countDown();
                for (Future<AuthorizationFlow.Step> step : steps) assertTrue(step.get() instanceof AuthorizationFlow.Redirect, step.get().toString());
            }
            AuthorizationFlow.Step again = flow.begin(request(app, String.join(" ", catalog)), session);
            assertTrue(again instanceof AuthorizationFlow.Redirect, "round " + round + ": a scope was lost, the user is asked again");
        }
    }

    private AuthorizationRequest request(Application app, String scope) {
        return server.services().oauth().requests().validate(Map.of("client_id", List.of(app.clientId()), "response_type", List.of("code"),
                "redirect_uri", List.of(Fixtures.REDIRECT_URI), "scope", List.of(scope)));
    }

    private static String authorizeUrl(Application app, String scope) {
        Map<String, String> p = new LinkedHashMap<>();
        p.put("client_id", app.clientId());
        p.put("response_type", "code");
        p.put("redirect_uri", Fixtures.REDIRECT_URI);
        p.put("scope", scope);
        return "/oauth/authorize?" + BrowserSession.form(p);
    }
}
