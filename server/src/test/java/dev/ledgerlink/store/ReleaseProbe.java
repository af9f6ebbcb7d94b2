package dev.ledgerlink.store;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ledgerlink.delivery.Publishers;
import dev.ledgerlink.oauth.BrowserSession;
import dev.ledgerlink.signature.ServiceSignature;
import dev.ledgerlink.testing.Receiver;
import dev.ledgerlink.testing.TestHttp;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What an integration and an operator do with a node, over HTTP, each step judged: the authorization
 * code flow (sign-in, consent, code, exchange), a refresh, the identity endpoint, a callback
 * registered, verified, re-keyed (resend) and verified again, an event published and delivered signed
 * with the callback's code, the callback deleted, and the admin API's reads. Run against the previous
 * release's nodes after each migration of this release (the expand rule: they must keep working on the
 * new schema) and against each node that replaces another; the probe user is its own, so the load's
 * refresh chains are not superseded by the probe's authorizations.
 */
final class ReleaseProbe {
    static final String EVENT = "client";
    private final String accountId;
    private final String clientId;
    private final String clientSecret;
    private final String redirectUri;
    private final String email;
    private final String password;
    private final Receiver receiver;
    private final AtomicLong objectIds = new AtomicLong(1_000_000_000L);

    ReleaseProbe(String accountId, String clientId, String clientSecret, String redirectUri, String email, String password, Receiver receiver) {
        this.accountId = accountId;
        this.clientId = clientId;
        this.clientSecret = clientSecret;
        this.redirectUri = redirectUri;
        this.email = email;
        this.password = password;
        this.receiver = receiver;
    }

    /** What went wrong at {@code base}, one line per step that failed; empty when every step passed. */
    List<String> run(String base) {
        List<String> problems = new ArrayList<>();
        try (TestHttp http = new TestHttp(base); BrowserSession browser = new BrowserSession(base)) {
            JsonNode tokens = UpgradeTest.authorize(browser, base, clientId, clientSecret, redirectUri, email, password);
            String access = tokens.get("access_token").asText();
            TestHttp.Response refreshed = http.postForm("/auth/oauth/token", BrowserSession.form(Map.of("grant_type", "refresh_token",
                    "client_id", clientId, "client_secret", clientSecret, "refresh_token", tokens.get("refresh_token").asText())));
            expect(problems, "refresh grant", refreshed, 200);
            String[] bearer = {"Authorization", "Bearer " + access};
            expect(problems, "identity (GET /auth/api/v1/users/me)", http.get("/auth/api/v1/users/me", bearer), 200);

            String callbacks = "/events/account/" + accountId + "/events/callbacks";
            TestHttp.Response registered = http.postJson(callbacks, "{\"callback\": {\"event\": \"" + EVENT + "\", \"uri\": \"" + receiver.uri() + "\"}}", bearer);
            if (!expect(problems, "register a callback", registered, 200)) return problems;
            long id = registered.json().at("/response/result/callback/callbackid").asLong();
            String code = verification(id).param("verifier");
            expect(problems, "verify the callback", http.putJson(callbacks + "/" + id, "{\"callback\": {\"verifier\": \"" + code + "\"}}", bearer), 200);
            expect(problems, "resend the callback's code", http.putJson(callbacks + "/" + id, "{\"callback\": {\"resend\": true}}", bearer), 200);
            code = verification(id).param("verifier");
            expect(problems, "verify the new code", http.putJson(callbacks + "/" + id, "{\"callback\": {\"verifier\": \"" + code + "\"}}", bearer), 200);
            expect(problems, "list the callbacks", http.get(callbacks + "?search[event]=" + EVENT, bearer), 200);

            long objectId = objectIds.incrementAndGet();
            TestHttp.Response published = http.postJson("/internal/v1/events", "{\"name\": \"" + EVENT + ".create\", \"account_id\": \"" + accountId
                    + "\", \"object_id\": " + objectId + ", \"user_id\": " + tokensUser(http, bearer) + "}", "Authorization", "Bearer " + Publishers.OPERATOR_KEY);
            if (expect(problems, "publish an event", published, 202)) {
                String sentCode = code;
                Receiver.Request delivered = receiver.await(1, r -> (EVENT + ".create").equals(r.param("name"))
                        && Long.toString(objectId).equals(r.param("object_id"))).getFirst();
                if (!ServiceSignature.verify(sentCode, delivered.body(), delivered.signature())) {
                    problems.add("the event's delivery is not signed with the callback's code");
                }
            }
            String[] operator = {"Authorization", "Bearer " + Publishers.OPERATOR_KEY};
            expect(problems, "admin: list callbacks", http.get("/internal/v1/admin/callbacks?account_id=" + accountId, operator), 200);
            expect(problems, "admin: the callback's deliveries", http.get("/internal/v1/admin/deliveries?callback_id=" + id, operator), 200);
            expect(problems, "delete the callback", http.delete(callbacks + "/" + id, bearer), 200);
        } catch (RuntimeException | AssertionError e) {
            problems.add("the probe stopped: " + e);
        }
        return problems;
    }

    private static long tokensUser(TestHttp http, String[] bearer) {
        return http.get("/auth/api/v1/users/me", bearer).json().at("/response/id").asLong();
    }

    /** The latest verification request of callback {@code id}. */
    private Receiver.Request verification(long id) {
        List<Receiver.Request> all = receiver.await(1, r -> "callback.verify".equals(r.param("name")) && Long.toString(id).equals(r.param("object_id")));
        Receiver.Request last = all.getLast();
        receiver.requests.removeIf(r -> "callback.verify".equals(r.param("name")) && Long.toString(id).equals(r.param("object_id")));
        return last;
    }

    private static boolean expect(List<String> problems, String step, TestHttp.Response r, int status) {
        if (r.status() == status) return true;
        problems.add(step + " answered " + r.status() + " " + r.body());
        return false;
    }
}
