package dev.ledgerlink.callbacks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ledgerlink.testing.Fixtures;
import dev.ledgerlink.testing.LedgerlinkTest;
import dev.ledgerlink.testing.Receiver;
import dev.ledgerlink.testing.TestHttp;
import dev.ledgerlink.testing.TestServer;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The callbacks endpoints over real HTTP: envelopes, search, pages, access, validation and errors. */
@LedgerlinkTest
class CallbackApiTest {
    static TestServer server;
    static Receiver receiver;
    Fixtures f;
    CallbackApi api;

    @BeforeEach
    void fixture() {
        api = new CallbackApi(server, f.account().accountId(), token("user:invoices:read", "user:clients:read"));
    }

    private String token(String... scopes) {
        return f.issue(Set.of(scopes)).accessToken();
    }

    private String uri(String tag) {
        return receiver.uri() + "?to=" + tag;
    }

    private static List<Long> ids(JsonNode result) {
        List<Long> out = new ArrayList<>();
        result.get("callbacks").forEach(c -> out.add(c.get("id").asLong()));
        return out;
    }

    private static void assertError(TestHttp.Response r, int status, String error) {
        assertEquals(status, r.status(), r.body());
        JsonNode b = r.json();
        assertEquals(status, b.get("errno").asInt());
        assertEquals(error, b.get("error").asText());
        assertEquals(b.get("message").asText(), b.get("error_description").asText());
        assertTrue(b.get("details").isArray());
    }

    private static String field(TestHttp.Response r) {
        return r.json().get("details").get(0).get("fieldViolations").get(0).get("field").asText();
    }

    @Test
    void registerAnswersTheRecordInTheDocumentedEnvelopeUnverified() {
        var r = api.register("invoice.create", uri("a"));
        assertEquals(200, r.status(), r.body());
        JsonNode c = CallbackApi.record(r);
        assertTrue(c.get("callbackid").isIntegralNumber());
        assertEquals(c.get("callbackid").asLong(), c.get("id").asLong());
        assertEquals("invoice.create", c.get("event").asText());
        assertEquals(uri("a"), c.get("uri").asText());
        assertFalse(c.get("verified").asBoolean());
        assertFalse(c.get("disabled").asBoolean());
        assertTrue(c.get("updated_at").asText().matches("\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d"), c.toString());
        // US Eastern wall time of the server's clock (it does not move during the test), not UTC
        assertEquals(java.time.format.DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss")
                .format(server.clock().instant().atZone(java.time.ZoneId.of("America/New_York"))), c.get("updated_at").asText());
        assertEquals(Set.of("callbackid", "id", "event", "uri", "verified", "disabled", "updated_at"), fieldNames(c));
    }

    @Test
    void getOneAnswersTheSameRecord() {
        long id = api.registerId("client", uri("b"));
        var r = api.get(id);
        assertEquals(200, r.status());
        assertEquals(id, CallbackApi.record(r).get("callbackid").asLong());
        assertEquals("client", CallbackApi.record(r).get("event").asText());
    }

    @Test
    void listEnvelopeHasCallbacksPagePagesPerPageAndTotalInIdOrder() {
        long a = api.registerId("invoice", uri("c1"));
        long b = api.registerId("client.update", uri("c2"));
        var r = api.list("");
        assertEquals(200, r.status(), r.body());
        JsonNode result = CallbackApi.result(r);
        assertEquals(List.of(a, b), ids(result));
        assertEquals(1, result.get("page").asInt());
        assertEquals(1, result.get("pages").asInt());
        assertEquals(15, result.get("per_page").asInt());
        assertEquals(2, result.get("total").asInt());
    }

    @Test
    void searchByEventMatchesANounWithAllItsVerbsAndNounVerbWithItsNoun() {
        long noun = api.registerId("invoice", uri("e1"));
        long create = api.registerId("invoice.create", uri("e2"));
        long delete = api.registerId("invoice.delete", uri("e3"));
        api.registerId("client.create", uri("e4"));
        assertEquals(List.of(noun, create, delete), ids(CallbackApi.result(api.list("search%5Bevent%5D=invoice"))));
        assertEquals(List.of(noun, create), ids(CallbackApi.result(api.list("search%5Bevent%5D=invoice.create"))));
        assertError(api.list("search%5Bevent%5D=invoice.explode"), 422, "invalid_field");
    }

    @Test
    void searchByUriIsExact() {
        long one = api.registerId("invoice", uri("u1"));
        api.registerId("invoice", uri("u10"));
        String q = "search%5Buri%5D=" + java.net.URLEncoder.encode(uri("u1"), java.nio.charset.StandardCharsets.UTF_8);
        assertEquals(List.of(one), ids(CallbackApi.result(api.list(q))));
    }

    @Test
    void searchByVerifiedAcceptsEverySpellingAndRawBrackets() throws Exception {
        long unverified = api.registerId("invoice", uri("v1"));
        long verified = api.registerId("invoice", uri("v2"));
        server.services().database().jdbi().useHandle(h -> h.execute("update callbacks set verified = true where id = ?", verified));
        for (String q : List.of("search%5Bverified%5D=true", "search%5Bverified%5D=True", "verified=true", "verified=True")) {
            assertEquals(List.of(verified), ids(CallbackApi.result(api.list(q))), q);
        }
        assertEquals(List.of(unverified), ids(CallbackApi.result(api.list("search%5Bverified%5D=false"))));
        // Raw brackets, as a client library sends them (the JDK client refuses to, hence a socket).
        var raw = api.rawGet(api.path() + "?search[verified]=true&search[event]=invoice&page=1&per_page=15");
        assertEquals(200, raw.status(), raw.body());
        assertEquals(List.of(verified), ids(raw.json().path("response").path("result")));
        var rawFalse = api.rawGet(api.path() + "?search[verified]=False");
        assertEquals(List.of(unverified), ids(rawFalse.json().path("response").path("result")));
        assertError(api.list("search%5Bverified%5D=maybe"), 422, "invalid_field");
    }

    @Test
    void pagesPastTheEndAreEmptyAndPerPageOverAHundredIsClamped() {
        for (int i = 0; i < 3; i++) api.registerId("invoice", uri("p" + i));
        JsonNode p2 = CallbackApi.result(api.list("page=2&per_page=2"));
        assertEquals(1, p2.get("callbacks").size());
        assertEquals(2, p2.get("pages").asInt());
        assertEquals(3, p2.get("total").asInt());
        JsonNode past = CallbackApi.result(api.list("page=5&per_page=2"));
        assertEquals(0, past.get("callbacks").size());
        assertEquals(5, past.get("page").asInt());
        assertEquals(2, past.get("pages").asInt());
        JsonNode big = CallbackApi.result(api.list("per_page=500"));
        assertEquals(100, big.get("per_page").asInt());
        assertEquals(3, big.get("callbacks").size());
    }

    @Test
    void pageZeroNegativeOrNonNumericIsA422NamingTheParameter() {
        for (String q : List.of("page=0", "page=-1", "page=abc", "per_page=0", "per_page=x")) {
            var r = api.list(q);
            assertError(r, 422, "invalid_field");
            assertEquals(q.substring(0, q.indexOf('=')), field(r), q);
        }
    }

    @Test
    void registeringWithoutTheEventsScopeIsA403NamingTheScope() {
        var r = api.register("expense.create", uri("s"));
        assertError(r, 403, "insufficient_scope");
        assertTrue(r.json().get("message").asText().contains("user:expenses:read"));
    }

    @Test
    void aTokenSeesAndManagesOnlyCallbacksWhoseScopeItHolds() {
        long invoice = api.registerId("invoice", uri("sc1"));
        long client = api.registerId("client", uri("sc2"));
        CallbackApi invoicesOnly = api.as(token("user:invoices:read"));
        assertEquals(List.of(invoice), ids(CallbackApi.result(invoicesOnly.list(""))));
        var r = invoicesOnly.get(client);
        assertError(r, 403, "insufficient_scope");
        assertTrue(r.json().get("message").asText().contains("user:clients:read"));
        assertError(invoicesOnly.delete(client), 403, "insufficient_scope");
        assertEquals(200, api.get(client).status());
    }

    @Test
    void aNonMemberIsRefusedWith403() {
        var stranger = Fixtures.create(server);
        String strangerToken = server.services().tokens()
                .issue(stranger.user().id(), f.app().id(), Set.of("user:invoices:read")).accessToken();
        var r = api.as(strangerToken).register("invoice", uri("n"));
        assertError(r, 403, "forbidden");
        assertError(api.as(strangerToken).list(""), 403, "forbidden");
    }

    @Test
    void anotherAccountsCallbackIsNotFound() {
        long id = api.registerId("invoice", uri("x"));
        var other = Fixtures.create(server);
        server.services().accounts().addMember(other.account().accountId(), f.user().id(), "admin");
        CallbackApi inOther = api.in(other.account().accountId());
        assertError(inOther.get(id), 404, "not_found");
        assertError(inOther.put(id, "{\"callback\": {\"resend\": true}}"), 404, "not_found");
        assertError(inOther.delete(id), 404, "not_found");
        assertEquals(0, CallbackApi.result(inOther.list("")).get("total").asInt());
        assertError(api.get(999_999_999L), 404, "not_found");
        assertError(server.http.get(api.path() + "/not-a-number", "Authorization", "Bearer " + api.token), 404, "not_found");
    }

    @Test
    void missingUnknownAndExpiredTokensAre401WithWwwAuthenticate() {
        var missing = server.http.get(api.path(), "Api-Version", "alpha");
        assertError(missing, 401, "invalid_token");
        assertTrue(missing.header("WWW-Authenticate").startsWith("Bearer error=\"invalid_token\""));
        var unknown = api.as("not-a-token").list("");
        assertError(unknown, 401, "invalid_token");
        assertNotNull(unknown.header("WWW-Authenticate"));
        String soonExpired = token("user:invoices:read");
        server.clock.advance(Duration.ofHours(12).plusSeconds(1));
        var expired = api.as(soonExpired).register("invoice", uri("t"));
        assertError(expired, 401, "invalid_token");
        assertTrue(expired.header("WWW-Authenticate").contains("invalid_token"));
    }

    @Test
    void malformedJsonIsA400() {
        assertError(api.post("{\"callback\": {\"event\": "), 400, "invalid_request");
        assertError(api.post("[1, 2]"), 400, "invalid_request");
        assertError(api.post(""), 400, "invalid_request");
    }

    @Test
    void unknownFieldsAndBadValuesAre422NamingTheField() {
        var unknown = api.post("{\"callback\": {\"event\": \"invoice\", \"uri\": \"" + uri("f") + "\", \"colour\": \"red\"}}");
        assertError(unknown, 422, "invalid_field");
        assertEquals("callback.colour", field(unknown));
        var event = api.register("invoice.explode", uri("f"));
        assertError(event, 422, "invalid_field");
        assertEquals("callback.event", field(event));
        var https = api.register("invoice", "http://hooks.example.com/x");
        assertError(https, 422, "invalid_field");
        assertEquals("callback.uri", field(https));
        var missing = api.post("{\"callback\": {}}");
        assertError(missing, 422, "invalid_field");
        var notString = api.post("{\"callback\": {\"event\": 5, \"uri\": \"" + uri("f") + "\"}}");
        assertEquals("callback.event", field(notString));
        var top = api.post("{\"webhook\": {}}");
        assertError(top, 422, "invalid_field");
        long id = api.registerId("invoice", uri("f2"));
        assertEquals("callback.resend", field(api.put(id, "{\"callback\": {\"resend\": false}}")));
        assertEquals("callback.colour", field(api.put(id, "{\"callback\": {\"colour\": 1}}")));
    }

    @Test
    void aWrongVerifierIsA422ThatChangesNothingAndRepeatedTriesAreThrottled() {
        long id = api.registerId("invoice", uri("w"));
        String before = CallbackApi.record(api.get(id)).toString();
        for (int i = 0; i < VerifierThrottle.MAX_WRONG_TRIES; i++) {
            var r = api.verify(id, "wrong-" + i);
            assertError(r, 422, "invalid_field");
            assertEquals("callback.verifier", field(r));
        }
        assertEquals(before, CallbackApi.record(api.get(id)).toString());
        var throttled = api.verify(id, "wrong-again");
        assertError(throttled, 429, "too_many_requests");
        long retryAfter = Long.parseLong(throttled.header("Retry-After"));
        assertTrue(retryAfter > 0 && retryAfter <= VerifierThrottle.WINDOW.toSeconds(), "Retry-After " + retryAfter);
    }

    @Test
    void updateChangesTheEventInPlaceAndANewUriMustBeVerifiedAnew() {
        long id = api.registerId("invoice", uri("up1"));
        server.services().database().jdbi().useHandle(h -> h.execute("update callbacks set verified = true where id = ?", id));
        var event = api.put(id, "{\"callback\": {\"event\": \"invoice.update\"}}");
        assertEquals(200, event.status(), event.body());
        assertEquals("invoice.update", CallbackApi.record(event).get("event").asText());
        assertTrue(CallbackApi.record(event).get("verified").asBoolean());
        // The Node library sends both fields; an unchanged uri keeps the verification.
        var same = api.put(id, "{\"callback\": {\"uri\": \"" + uri("up1") + "\", \"event\": \"invoice.update\"}}");
        assertTrue(CallbackApi.record(same).get("verified").asBoolean());
        var moved = api.put(id, "{\"callback\": {\"uri\": \"" + uri("up2") + "\"}}");
        assertEquals(200, moved.status());
        assertEquals(uri("up2"), CallbackApi.record(moved).get("uri").asText());
        assertFalse(CallbackApi.record(moved).get("verified").asBoolean());
        assertError(api.put(id, "{\"callback\": {\"event\": \"expense\"}}"), 403, "insufficient_scope");
    }

    @Test
    void deleteAnswersAnEmptyResponseAndTheCallbackIsGone() {
        long id = api.registerId("invoice", uri("d"));
        var r = api.delete(id);
        assertEquals(200, r.status());
        assertEquals("{\"response\":{}}", r.body());
        assertError(api.get(id), 404, "not_found");
        assertError(api.delete(id), 404, "not_found");
    }

    @Test
    void apiVersionAlphaOrAbsentIsServedAndAnythingElseIsA400() {
        assertEquals(200, server.http.get(api.path(), "Authorization", "Bearer " + api.token).status());
        assertEquals(200, server.http.get(api.path(), "Authorization", "Bearer " + api.token, "Api-Version", "alpha").status());
        var beta = server.http.get(api.path(), "Authorization", "Bearer " + api.token, "Api-Version", "beta");
        assertError(beta, 400, "invalid_request");
        assertTrue(beta.json().get("message").asText().contains("alpha"));
    }

    @Test
    void aBodyOverOneMebibyteIsA413() {
        String big = "{\"callback\": {\"event\": \"invoice\", \"uri\": \"" + "a".repeat(1024 * 1024) + "\"}}";
        var r = server.http.send(server.http.request(api.path())
                .header("Authorization", "Bearer " + api.token).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(big)));
        assertError(r, 413, "request_too_large");
    }

    @Test
    void outsideDevModePrivateAndLoopbackTargetsAndHttpAreRefused() {
        try (TestServer prod = TestServer.start(s -> s.set(dev.ledgerlink.config.Setting.DEV, "false"))) {
            var pf = Fixtures.create(prod, "https://app.example.com/cb");
            String t = prod.services().tokens().issue(pf.user().id(), pf.app().id(), Set.of("user:invoices:read")).accessToken();
            CallbackApi p = new CallbackApi(prod, pf.account().accountId(), t);
            for (String target : List.of("https://127.0.0.1/x", "https://10.0.0.1/x", "https://169.254.169.254/x",
                    "https://localhost/x", "https://[::1]/x", "http://127.0.0.1:8080/x")) {
                var r = p.register("invoice", target);
                assertError(r, 422, "invalid_field");
                assertEquals("callback.uri", field(r), target);
            }
        }
    }

    private static Set<String> fieldNames(JsonNode n) {
        Set<String> s = new java.util.HashSet<>();
        n.fieldNames().forEachRemaining(s::add);
        return s;
    }
}
