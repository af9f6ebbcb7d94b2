package dev.ledgerlink.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ledgerlink.client.ApiException;
import dev.ledgerlink.client.Callback;
import dev.ledgerlink.client.CallbacksClient;
import dev.ledgerlink.client.LedgerlinkClient;
import dev.ledgerlink.client.Notification;
import dev.ledgerlink.client.Tokens;
import dev.ledgerlink.client.sandbox.Delivery;
import dev.ledgerlink.client.sandbox.JournalEntry;
import dev.ledgerlink.client.sandbox.PublishedEvent;
import dev.ledgerlink.client.sandbox.ResetResult;
import dev.ledgerlink.client.sandbox.Sandbox;
import dev.ledgerlink.client.sandbox.TestDelivery;
import dev.ledgerlink.junit.LedgerlinkSandbox;
import dev.ledgerlink.testcontainers.LedgerlinkContainer;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.Network;

/**
 * The testcontainers module's LedgerlinkContainer against this build's image, through podman's
 * Docker-compatible socket (PodmanSocket), on a bridge network with published ports, as on Docker
 * Desktop: one container serves every test of the class. The same test body runs against it and
 * against the in-process LedgerlinkSandbox, through the one sandbox API; a receiver in a sibling
 * container gets webhooks by its network alias; host networking remains an option.
 */
class LedgerlinkContainerTest {
    private static final String USER = Servers.SANDBOX_USER, APP = Servers.SANDBOX_APP, ACCOUNT = "SBX01";
    private static final String REDIRECT = "http://localhost:8000/callback";

    @RegisterExtension
    static LedgerlinkSandbox inProcess = LedgerlinkSandbox.create().seed(Sh.ROOT.resolve("docs/sandbox-seed.yaml"));

    static Network network;
    static GenericContainer<?> siblingReceiver;
    static LedgerlinkContainer container;

    @BeforeAll
    static void start() throws Exception {
        PodmanSocket.start();
        network = Network.newNetwork();
        siblingReceiver = new GenericContainer<>(ContainerImages.receiver()).withNetwork(network).withNetworkAliases("receiver");
        container = new LedgerlinkContainer(ContainerImages.ledgerlink())
                .withSeed(Sh.ROOT.resolve("docs/sandbox-seed.yaml"))
                .withNetwork(network)
                .withSetting("dev.callback-hosts", "receiver");
        siblingReceiver.start();
        container.start();
    }

    @AfterAll
    static void stop() {
        if (container != null) container.stop();
        if (siblingReceiver != null) siblingReceiver.stop();
        if (network != null) network.close();
    }

    static Stream<Sandbox> sandboxes() {
        return Stream.of(inProcess, container);
    }

    /**
     * What an integration's test does with a sandbox, written once against {@link Sandbox}: tokens issued
     * and refreshed, a code from the authorization page, a webhook to a receiver in this process, a
     * test delivery, a fault, the clock moved, the journal, reset.
     */
    @ParameterizedTest(autoCloseArguments = false)   // both serve the other tests of the class too
    @MethodSource("sandboxes")
    void theSameTestBodyPassesInProcessAndInAContainer(Sandbox sandbox) throws Exception {
        sandbox.reset();
        LedgerlinkClient client = LedgerlinkClient.builder(sandbox.baseUrl(), APP, Servers.SANDBOX_SECRET, REDIRECT).build();
        assertEquals(sandbox.baseUrl() + "/auth/oauth/token", sandbox.tokenEndpoint());
        assertEquals(sandbox.baseUrl() + "/oauth/authorize", sandbox.authorizationEndpoint());
        JsonNode metadata = Servers.json(Servers.get(sandbox.metadataUrl(), null).body());
        assertEquals(sandbox.baseUrl(), metadata.path("issuer").asText(), "the addresses the sandbox announces are the test's");

        Tokens exchanged = client.exchangeCode(sandbox.authorizationCode(USER, APP, REDIRECT), null);
        assertEquals("Dana", client.me(exchanged.accessToken()).firstName(), "a code from the real authorization page");
        Tokens tokens = sandbox.tokens(USER, APP);                              // a newer grant: the code's refresh token is superseded
        assertEquals("Dana", client.me(tokens.accessToken()).firstName());
        Tokens refreshed = client.refresh(tokens.refreshToken());

        try (Receiver receiver = Receiver.startForContainers()) {
            CallbacksClient callbacks = client.callbacks(refreshed.accessToken(), ACCOUNT);
            Callback callback = callbacks.register("invoice", receiver.url(sandbox.callbackHost(), "/webhooks"));
            String code = receiver.next("callback.verify", Duration.ofSeconds(60)).notification().verifier();
            assertTrue(callbacks.verify(callback.id(), code).verified());

            PublishedEvent event = sandbox.publish(ACCOUNT, "invoice.create", 7, sandbox.userId(USER));
            assertEquals(1, event.deliveries());
            Receiver.Received delivered = receiver.next("invoice.create", Duration.ofSeconds(60));
            assertTrue(Notification.isAuthentic(code, delivered.body(), delivered.signature()));
            Delivery recorded = sandbox.awaitDelivery(callback.id(), "invoice.create", Duration.ofSeconds(60));
            assertEquals(200, recorded.attempts().get(0).statusCode());

            sandbox.publish(ACCOUNT, "invoice.update", 8, sandbox.userId(USER), TestDelivery.PLAIN.withSignature(TestDelivery.Signature.TAMPERED));
            Receiver.Received tampered = receiver.next("invoice.update", Duration.ofSeconds(60));
            assertFalse(Notification.isAuthentic(code, tampered.body(), tampered.signature()), "a tampered test delivery fails verification");
            assertTrue(sandbox.deliveries(callback.id()).stream().anyMatch(d -> d.name().equals("invoice.update") && d.test() != null));
        }

        sandbox.faults().on("token").grantType("refresh_token").status(503, 1).add();
        Tokens afterFault = client.refresh(refreshed.refreshToken());          // 503, Retry-After 1 s, then 200: the client retries
        List<Integer> tokenCalls = sandbox.requests(APP).stream().filter(e -> e.path().equals("/auth/oauth/token")).limit(2)
                .map(JournalEntry::status).toList();
        assertEquals(List.of(200, 503), tokenCalls, "newest first");
        assertEquals(0, sandbox.faults().list().get(0).remaining());

        sandbox.clock().advance(Duration.ofHours(12).plusMinutes(1));
        ApiException expired = assertThrows(ApiException.class, () -> client.me(afterFault.accessToken()));
        assertEquals(401, expired.status());
        JournalEntry why = sandbox.requests(APP).get(0);
        assertEquals(List.of(401, "/auth/api/v1/users/me"), List.of(why.status(), why.path()), "the expired token's call, under its application");

        ResetResult reset = sandbox.reset();
        assertTrue(reset.created().contains("users[0] " + USER), reset.toString());
        assertEquals(Duration.ZERO, sandbox.clock().read().offset());
        assertTrue(sandbox.faults().list().isEmpty());
        String fresh = sandbox.tokens(USER, APP).accessToken();
        assertEquals(0, client.callbacks(fresh, ACCOUNT).list(1, 10, null, null, null).total(), "the callback is gone");
    }

    /** A receiver in another container of the network, named in dev.callback-hosts, gets webhooks by its alias. */
    @Test
    void aReceiverInASiblingContainerIsReachedByItsAlias() throws Exception {
        LedgerlinkClient client = LedgerlinkClient.builder(container.baseUrl(), APP, Servers.SANDBOX_SECRET, REDIRECT).build();
        String token = container.tokens(USER, APP).accessToken();
        CallbacksClient callbacks = client.callbacks(token, ACCOUNT);
        Callback callback = callbacks.register("invoice.create", "http://receiver:9000/sibling");
        String code = receiverLine("callback.verify").path("verifier").asText();
        callbacks.verify(callback.id(), code);
        container.publish(ACCOUNT, "invoice.create", 11, container.userId(USER));
        JsonNode delivered = receiverLine("invoice.create");
        assertEquals("11", delivered.path("object_id").asText());
        assertTrue(delivered.path("authentic").asBoolean(), "the receiver checked the signature: " + delivered);
    }

    /** The receiver container prints one JSON line per request (docs/receivers/receiver.py): the newest of {@code name}. */
    private static JsonNode receiverLine(String name) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (true) {
            Optional<String> line = siblingReceiver.getLogs().lines().filter(l -> l.contains("\"name\": \"" + name + "\""))
                    .reduce((first, second) -> second);
            if (line.isPresent()) return Servers.json(line.get());
            if (System.nanoTime() > deadline) throw new AssertionError("no " + name + " at the sibling receiver: " + siblingReceiver.getLogs());
            Thread.sleep(200);
        }
    }

    /** The default image is the one scripts/image tagged for this build's version and commit, not latest. */
    @Test
    void theDefaultImageIsThisBuildsVersion() {
        assertEquals(ContainerImages.versionTag(), LedgerlinkContainer.DEFAULT_IMAGE);
        assertTrue(container.ledgerlink("--version").contains("(commit " + ContainerImages.commit()));
    }

    /** Host networking stays available: the server on the host's loopback, a receiver there reached as 127.0.0.1. */
    @Test
    void hostNetworkingRemainsAnOption() throws Exception {
        try (LedgerlinkContainer onHost = new LedgerlinkContainer(ContainerImages.ledgerlink()).withHostNetwork()
                .withSeed(Sh.ROOT.resolve("docs/sandbox-seed.yaml"));
             Receiver receiver = Receiver.start()) {
            onHost.start();
            assertTrue(onHost.baseUrl().startsWith("http://127.0.0.1:"), onHost.baseUrl());
            assertEquals("127.0.0.1", onHost.callbackHost());
            LedgerlinkClient client = LedgerlinkClient.builder(onHost.baseUrl(), APP, Servers.SANDBOX_SECRET, REDIRECT).build();
            String token = onHost.tokens(USER, APP).accessToken();
            client.callbacks(token, ACCOUNT).register("invoice", receiver.url(onHost.callbackHost(), "/host"));
            assertEquals(ACCOUNT, receiver.next("callback.verify", Duration.ofSeconds(60)).notification().accountId());
        }
    }
}
