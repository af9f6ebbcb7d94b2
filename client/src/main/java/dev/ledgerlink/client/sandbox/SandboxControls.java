package dev.ledgerlink.client.sandbox;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ledgerlink.client.Tokens;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The one implementation of {@link Sandbox}: a running sandbox's HTTP controls (the routes under
 * {@code /sandbox/v1/}, the internal event route and the admin API's reads, all with the operator key),
 * so a sandbox in the test's JVM, in a container or on another machine is driven the same way.
 *
 * <pre>{@code
 * Sandbox sandbox = SandboxControls.connect("http://127.0.0.1:8090", Files.readString(Path.of("data/operator-key")).strip())
 *         .withPasswords(Map.of("dev@example.com", "sandbox password"));   // for authorizationCode
 * }</pre>
 */
public final class SandboxControls implements Sandbox {
    private static final Duration POLL = Duration.ofMillis(100);

    private final String baseUrl;
    private final String operatorKey;
    private final String callbackHost;
    private final Map<String, String> passwords;
    private final SandboxHttp http;
    private volatile JsonNode metadata;

    private SandboxControls(String baseUrl, String operatorKey, String callbackHost, Map<String, String> passwords) {
        this.baseUrl = baseUrl.endsWith("/") ? baseUrl.substring(0, baseUrl.length() - 1) : baseUrl;
        this.operatorKey = operatorKey;
        this.callbackHost = callbackHost;
        this.passwords = Map.copyOf(passwords);
        this.http = new SandboxHttp(this.baseUrl, operatorKey);
    }

    /** The controls of the sandbox serving {@code baseUrl}, with its operator key; its receivers in this process are at 127.0.0.1. */
    public static SandboxControls connect(String baseUrl, String operatorKey) {
        return new SandboxControls(baseUrl, operatorKey, "127.0.0.1", Map.of());
    }

    /** The same controls, for a sandbox that reaches this process's receivers under {@code host} (a container's name for its host). */
    public SandboxControls withCallbackHost(String host) {
        return new SandboxControls(baseUrl, operatorKey, host, passwords);
    }

    /** The same controls, knowing the passwords of seeded users (e-mail → password), which {@link #authorizationCode} types in. */
    public SandboxControls withPasswords(Map<String, String> passwordsByEmail) {
        Map<String, String> lower = new LinkedHashMap<>();
        passwordsByEmail.forEach((email, password) -> lower.put(email.toLowerCase(Locale.ROOT), password));
        return new SandboxControls(baseUrl, operatorKey, callbackHost, lower);
    }

    @Override
    public SandboxControls controls() {
        return this;
    }

    @Override
    public String baseUrl() {
        return baseUrl;
    }

    @Override
    public String metadataUrl() {
        return baseUrl + "/.well-known/oauth-authorization-server";
    }

    @Override
    public String authorizationEndpoint() {
        return metadata().path("authorization_endpoint").asText();
    }

    @Override
    public String tokenEndpoint() {
        return metadata().path("token_endpoint").asText();
    }

    /** The metadata document, read once: the public addresses of a sandbox do not change while it runs. */
    private JsonNode metadata() {
        JsonNode m = metadata;
        if (m == null) metadata = m = http.send("GET", "/.well-known/oauth-authorization-server", null, Map.of());
        return m;
    }

    @Override
    public String operatorKey() {
        return operatorKey;
    }

    @Override
    public String callbackHost() {
        return callbackHost;
    }

    @Override
    public Tokens tokens(String user, String app, String... scopes) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("user", user);
        body.put("client_id", app);
        if (scopes.length > 0) body.put("scope", String.join(" ", scopes));
        return Tokens.from(http.post("/sandbox/v1/tokens", body));
    }

    @Override
    public String authorizationCode(String user, String app, String redirectUri) {
        String password = passwords.get(user.toLowerCase(Locale.ROOT));
        if (password == null) throw new IllegalArgumentException(user + " is not a user of this sandbox's seeds (their password is needed)");
        return new AuthorizationPageDriver(authorizationEndpoint()).code(user, password, app, redirectUri);
    }

    @Override
    public long userId(String email) {
        for (int page = 1; ; page++) {
            JsonNode answer = http.get("/internal/v1/admin/users?per_page=100&page=" + page);
            for (JsonNode u : answer.path("users")) {
                if (u.path("email").asText().equalsIgnoreCase(email)) return u.path("id").asLong();
            }
            if (page >= answer.path("pages").asInt(1)) throw new IllegalArgumentException("no user " + email + " in this sandbox");
        }
    }

    @Override
    public PublishedEvent publish(String accountId, String name, long objectId, long userId) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("name", name);
        body.put("account_id", accountId);
        body.put("object_id", objectId);
        body.put("user_id", userId);
        return event(http.post("/internal/v1/events", body).path("event"));
    }

    @Override
    public PublishedEvent publish(String accountId, String name, long objectId, long userId, TestDelivery delivery) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("account_id", accountId);
        body.put("name", name);
        body.put("object_id", objectId);
        body.put("user_id", userId);
        body.put("delivery", options(delivery));
        return event(http.post("/sandbox/v1/events", body).path("event"));
    }

    @Override
    public List<PublishedEvent> publish(String accountId, List<TestEvent> events, TestDelivery delivery) {
        List<Map<String, Object>> list = new ArrayList<>();
        for (TestEvent e : events) list.add(Map.of("name", e.name(), "object_id", e.objectId(), "user_id", e.userId()));
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("account_id", accountId);
        body.put("events", list);
        body.put("delivery", options(delivery));
        List<PublishedEvent> out = new ArrayList<>();
        for (JsonNode e : http.post("/sandbox/v1/events", body).path("events")) out.add(event(e));
        return out;
    }

    private static Map<String, Object> options(TestDelivery d) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("signature", d.signature().value());
        m.put("copies", d.copies());
        m.put("delay", d.delay().toString());
        m.put("order", d.order().value());
        return m;
    }

    private static PublishedEvent event(JsonNode e) {
        return new PublishedEvent(e.path("id").asLong(), e.path("name").asText(), e.path("account_id").asText(), e.path("object_id").asLong(),
                e.path("user_id").asLong(), SandboxHttp.instant(e, "created_at"), e.path("deliveries").asInt());
    }

    @Override
    public List<Delivery> deliveries(long callbackId) {
        List<Delivery> out = new ArrayList<>();
        for (JsonNode d : http.get("/internal/v1/admin/deliveries?per_page=100&callback_id=" + callbackId).path("deliveries")) out.add(delivery(d));
        return out;
    }

    private static Delivery delivery(JsonNode d) {
        List<Delivery.Attempt> attempts = new ArrayList<>();
        for (JsonNode a : d.path("attempts")) {
            attempts.add(new Delivery.Attempt(a.path("attempt").asInt(), SandboxHttp.instant(a, "attempted_at"), SandboxHttp.integer(a, "status_code"),
                    a.path("duration_ms").asLong(), SandboxHttp.text(a, "error"), SandboxHttp.text(a, "request_headers"),
                    SandboxHttp.text(a, "request_body"), SandboxHttp.text(a, "response_headers"), SandboxHttp.text(a, "response_body")));
        }
        JsonNode t = d.get("test");
        TestDelivery test = t == null || t.isNull() ? null : new TestDelivery(
                TestDelivery.Signature.valueOf(t.path("signature").asText().toUpperCase(Locale.ROOT)), t.path("copies").asInt(),
                Duration.parse(t.path("delay").asText()), TestDelivery.Order.valueOf(t.path("order").asText().toUpperCase(Locale.ROOT)));
        JsonNode event = d.get("event_id");
        return new Delivery(d.path("id").asLong(), d.path("callbackid").asLong(), event == null || event.isNull() ? null : event.asLong(),
                d.path("kind").asText(), d.path("name").asText(), Delivery.State.of(d.path("state").asText()), d.path("attempt_count").asInt(),
                SandboxHttp.instant(d, "next_attempt_at"), SandboxHttp.text(d, "drop_reason"), SandboxHttp.instant(d, "created_at"),
                SandboxHttp.instant(d, "finished_at"), test, List.copyOf(attempts));
    }

    @Override
    public Delivery awaitDelivery(long callbackId, String eventName, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            List<Delivery> all = deliveries(callbackId);
            Optional<Delivery> done = all.stream().filter(d -> eventName.equals(d.name()) && d.state() == Delivery.State.DELIVERED).findFirst();
            if (done.isPresent()) return done.get();
            Optional<Delivery> dropped = all.stream().filter(d -> eventName.equals(d.name()) && d.state() == Delivery.State.DROPPED).findFirst();
            if (dropped.isPresent()) throw new AssertionError("the " + eventName + " delivery to callback " + callbackId + " was dropped: " + dropped.get());
            if (System.nanoTime() > deadline) {
                throw new AssertionError("no successful " + eventName + " delivery to callback " + callbackId + " within " + timeout
                        + "; deliveries so far: " + all);
            }
            try {
                Thread.sleep(POLL.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
        }
    }

    @Override
    public SandboxClock clock() {
        return new SandboxClock(http);
    }

    @Override
    public SandboxFaults faults() {
        return new SandboxFaults(http);
    }

    @Override
    public List<JournalEntry> requests(String clientId) {
        String query = clientId == null ? "" : "&client_id=" + URLEncoder.encode(clientId, StandardCharsets.UTF_8);
        List<JournalEntry> out = new ArrayList<>();
        for (JsonNode j : http.get("/sandbox/v1/requests?limit=1000" + query).path("requests")) {
            out.add(new JournalEntry(j.path("id").asLong(), SandboxHttp.instant(j, "received_at"), SandboxHttp.text(j, "client_id"),
                    j.path("method").asText(), j.path("path").asText(), j.path("status").asInt(), SandboxHttp.text(j, "error"),
                    SandboxHttp.text(j, "error_description"), j.path("duration_ms").asInt()));
        }
        return out;
    }

    @Override
    public ResetResult reset() {
        JsonNode r = http.post("/sandbox/v1/reset", null).path("reset");
        List<String> seeds = new ArrayList<>(), created = new ArrayList<>();
        r.path("seeds").forEach(s -> seeds.add(s.asText()));
        r.path("created").forEach(c -> created.add(c.asText()));
        Map<String, String> secrets = new LinkedHashMap<>();
        r.path("client_secrets").fields().forEachRemaining(e -> secrets.put(e.getKey(), e.getValue().asText()));
        JsonNode d = r.get("demo");
        ResetResult.Demo demo = d == null || d.isNull() ? null : new ResetResult.Demo(d.path("email").asText(), d.path("password").asText(),
                d.path("account_id").asText(), d.path("client_id").asText(), d.path("client_secret").asText());
        return new ResetResult(List.copyOf(seeds), List.copyOf(created), Map.copyOf(secrets), demo);
    }
}
