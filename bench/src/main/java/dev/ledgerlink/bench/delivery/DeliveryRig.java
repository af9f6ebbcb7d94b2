package dev.ledgerlink.bench.delivery;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ledgerlink.accounts.ApplicationService;
import dev.ledgerlink.accounts.Scopes;
import dev.ledgerlink.bench.BenchRun;
import dev.ledgerlink.bench.http.Http1Connection;
import dev.ledgerlink.bench.http.LoopbackReceiver;
import dev.ledgerlink.bench.proc.ServerProcess;
import dev.ledgerlink.bench.trace.TraceSink;
import dev.ledgerlink.secrets.RandomTokens;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A server with callbacks on the loopback receiver, reached only through the documented interface:
 * a user, account and application set up through the real services; an access token minted by the
 * oauth service (TokenService.issue, the same minting a code exchange does); callbacks registered and verified through the callbacks API
 * (the receiver hands back the code the service sent); events published with POST /internal/v1/events.
 */
public final class DeliveryRig implements AutoCloseable {
    static final String REDIRECT = "http://127.0.0.1:9/bench/callback";
    private static final ObjectMapper JSON = new ObjectMapper();

    public final ReceivedLog log = new ReceivedLog();
    public final LoopbackReceiver receiver;
    private final BenchRun.Stage stage;
    private final String email = "bench-" + RandomTokens.alphanumeric(8).toLowerCase() + "@ledgerlink.test";
    private final String password = RandomTokens.alphanumeric(20);
    private String accountId;
    private long userId;
    private ServerProcess server;
    private String accessToken;

    private DeliveryRig(BenchRun.Stage stage) throws IOException {
        this.stage = stage;
        this.receiver = new LoopbackReceiver(log);
    }

    /** Creates the user, account and application; call before the server starts. */
    public static DeliveryRig prepare(BenchRun.Stage stage) throws IOException {
        DeliveryRig rig = new DeliveryRig(stage);
        stage.setup(s -> {
            var user = s.users().create(rig.email, rig.password, "Bench", "Publisher");
            var account = s.accounts().create("Bench Deliveries", "UTC");
            s.accounts().addMember(account.accountId(), user.id(), "owner");
            var created = new ApplicationService(s.database().jdbi(), s.clock(), true, s.audit(), java.time.Duration.ZERO)
                    .create("Bench Receiver", List.of(REDIRECT), List.copyOf(Scopes.all()));
            rig.accountId = account.accountId();
            rig.userId = user.id();
            // The access token is minted by the oauth service exactly as a code exchange mints it; the
            // token endpoint itself is measured by the token scenario.
            rig.accessToken = s.tokens().issue(user.id(), created.application().id(), Scopes.all()).accessToken();
        });
        return rig;
    }

    public String accountId() { return accountId; }

    /** A browser of the rig's user (who owns the account the callbacks are in), on the started server. */
    public dev.ledgerlink.bench.oauth.BrowserSession browser() {
        return new dev.ledgerlink.bench.oauth.BrowserSession("127.0.0.1", server.port(), email, password);
    }
    public long userId() { return userId; }

    /**
     * Connects to the started server: null when everything needed answers, else why delivery cannot be measured
     * on this build (which feature is missing).
     */
    public String connect(ServerProcess server) throws IOException {
        this.server = server;
        try (Http1Connection http = new Http1Connection("127.0.0.1", server.port())) {
            int list = http.get(callbacksPath(), apiHeaders()).status();
            if (list == 404 || list == 405) return "GET " + callbacksPath() + " answers " + list + ": the callbacks API (issue 5, branch callbacks) is not merged";
            int publish = http.post("/internal/v1/events", Map.of(), "application/json", "{}").status();
            if (publish == 404 || publish == 405) return "POST /internal/v1/events answers " + publish + ": event publishing (issue 4, branch delivery) is not merged";
        }
        return null;
    }

    private String callbacksPath() {
        return "/events/account/" + accountId + "/events/callbacks";
    }

    /** The public API's page of a callback's deliveries (GET, with {@link #apiHeaders}). */
    public String deliveriesPath(long callbackId) {
        return callbacksPath() + "/" + callbackId + "/deliveries";
    }

    /** The headers an integration sends to the callbacks API: its bearer token and the API version. */
    public Map<String, String> apiHeaders() {
        return Map.of("Authorization", "Bearer " + accessToken, "Api-Version", "alpha", "Accept", "application/json");
    }

    /** Registers a callback at the receiver path for the event, and verifies it with the code the service sent there. */
    public long register(String event, String path) throws Exception {
        try (Http1Connection http = new Http1Connection("127.0.0.1", server.port())) {
            String body = JSON.writeValueAsString(Map.of("callback", Map.of("event", event, "uri", receiver.url(path))));
            Http1Connection.Response r = http.post(callbacksPath(), apiHeaders(), "application/json", body);
            if (r.status() / 100 != 2) throw new IOException("register answered " + r.status() + ": " + r.text());
            long id = JSON.readTree(r.text()).path("response").path("result").path("callback").path("callbackid").asLong();
            String code;
            try {
                // Minutes, not seconds: a verification request waits its turn behind everything else on a busy machine.
                code = log.verifierFor(id).get(3, TimeUnit.MINUTES);
            } catch (java.util.concurrent.TimeoutException e) {
                throw new IOException("no verification request reached " + path + " for callback " + id + " within 3 minutes", e);
            }
            log.codeFor(path, code);
            String verify = JSON.writeValueAsString(Map.of("callback", Map.of("verifier", code)));
            Http1Connection.Response v = http.send("PUT", callbacksPath() + "/" + id,
                    Map.of("Authorization", "Bearer " + accessToken, "Api-Version", "alpha", "Content-Type", "application/json"),
                    verify.getBytes(java.nio.charset.StandardCharsets.UTF_8));
            JsonNode cb = JSON.readTree(v.text()).path("response").path("result").path("callback");
            if (v.status() / 100 != 2 || !cb.path("verified").asBoolean()) throw new IOException("verify answered " + v.status() + ": " + v.text());
            return id;
        }
    }

    /**
     * Asks for a new code for a verified callback (PUT {"resend": true}): it re-keys, and its deliveries
     * are held until the new code is verified (docs/callbacks.md), which the rig never does.
     */
    public void resend(long id) throws IOException {
        try (Http1Connection http = new Http1Connection("127.0.0.1", server.port())) {
            Http1Connection.Response r = http.send("PUT", callbacksPath() + "/" + id,
                    Map.of("Authorization", "Bearer " + accessToken, "Api-Version", "alpha", "Content-Type", "application/json"),
                    "{\"callback\": {\"resend\": true}}".getBytes(java.nio.charset.StandardCharsets.UTF_8));
            if (r.status() / 100 != 2) throw new IOException("resend answered " + r.status() + ": " + r.text());
        }
    }

    /** A publisher's own connection to the internal events endpoint. */
    public Publisher publisher() {
        return new Publisher(new Http1Connection("127.0.0.1", server.port()));
    }

    public final class Publisher implements AutoCloseable {
        private final Http1Connection http;

        Publisher(Http1Connection http) {
            this.http = http;
        }

        /** Publishes name with this object id; the publish time is noted first, so latency counts the publish call too. */
        public boolean publish(String name, long objectId) throws IOException {
            log.published(objectId, System.nanoTime());
            String body = "{\"name\":\"" + name + "\",\"object_id\":" + objectId + ",\"account_id\":\"" + accountId
                    + "\",\"user_id\":" + userId + "}";
            Map<String, String> headers = stage.traced()
                    ? Map.of("Authorization", "Bearer " + stage.operatorKey, "traceparent", TraceSink.newTraceparent())
                    : Map.of("Authorization", "Bearer " + stage.operatorKey);
            Http1Connection.Response r = http.post("/internal/v1/events", headers, "application/json", body);
            if (r.status() / 100 != 2) throw new IOException("publish answered " + r.status() + ": " + r.text());
            return true;
        }

        @Override
        public void close() {
            http.close();
        }
    }

    @Override
    public void close() {
        receiver.close();
    }
}
