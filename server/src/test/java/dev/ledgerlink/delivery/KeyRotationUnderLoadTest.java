package dev.ledgerlink.delivery;

import dev.ledgerlink.testing.Heavy;
import dev.ledgerlink.testing.PostgresOnly;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ledgerlink.secrets.KeyRotation;
import dev.ledgerlink.secrets.SecretBox;
import dev.ledgerlink.signature.ServiceSignature;
import dev.ledgerlink.testing.ChildJvm;
import dev.ledgerlink.testing.Cli;
import dev.ledgerlink.testing.Receiver;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * issue 43 item 4: the secrets key rotated while two nodes deliver under publishing load, the way
 * docs/operations.md "Keys" tells an operator to: each node restarted with the new key and the old
 * one as secrets.previous-key, `secrets rotate-key` (killed with SIGKILL after its first batch, then
 * run again: it resumes), each node restarted with the new key alone. No acknowledged event is lost,
 * every webhook is signed with its callback's code (a value opened with the wrong key would sign with
 * garbage or not at all), and a node with the old key alone is refused afterwards. PostgreSQL pass
 * only (testing/PostgresOnly): nodes sharing a database.
 */
@PostgresOnly
@Heavy
class KeyRotationUnderLoadTest {
    private static final String[] NODE = {"delivery.poll-interval=PT0.1S", "delivery.retry-schedule=PT0.5S,PT1S,PT2S", "shutdown.drain=PT1S"};
    /** Callbacks beside the one under load, so the rotation has batches to walk. */
    private static final int MORE_CALLBACKS = 24;

    @TempDir
    Path dir;

    @Test
    void aRotationUnderDeliveryLoadWithTwoNodesAndAKillMidWayLosesNothingAndSignsEveryWebhookWithItsCode() throws Exception {
        try (Receiver receiver = new Receiver(); Receiver quiet = new Receiver()) {
            List<SharedQueue.Subscription> subscriptions = new ArrayList<>(List.of(new SharedQueue.Subscription("invoice", receiver)));
            for (int i = 0; i < MORE_CALLBACKS; i++) subscriptions.add(new SharedQueue.Subscription("client", quiet));
            try (SharedQueue s = SharedQueue.create(dir, subscriptions.toArray(SharedQueue.Subscription[]::new))) {
                String oldKey = s.key();
                String newKey = SecretBox.newKeyBase64();
                String code = receiver.requests.stream().filter(r -> "callback.verify".equals(r.param("name"))).findFirst().orElseThrow().param("verifier");
                receiver.answer(r -> new Receiver.Answer(200, Map.of(), java.time.Duration.ofMillis(10)));
                int[] ports = {ServerProcess.freePort(), ServerProcess.freePort()};
                ServerProcess[] nodes = new ServerProcess[2];
                Publishers publishers = new Publishers(s.fixture().account().accountId(), s.fixture().user().id());
                try {
                    for (int n = 0; n < 2; n++) nodes[n] = ServerProcess.start(s.db(), oldKey, dir.resolve("old-key-" + n + ".log"), ports[n], NODE);
                    for (int n = 0; n < 2; n++) {
                        nodes[n].awaitBaseUrl();
                        publishers.publishTo("node" + n, "http://127.0.0.1:" + ports[n], 2);
                    }
                    awaitMoreAcknowledged(publishers, 100);

                    // 1. Each node in turn: the new key, and the old one to read what is still sealed with it.
                    for (int n = 0; n < 2; n++) {
                        publishers.phase = "node " + n + " restarted with the new key and secrets.previous-key";
                        nodes[n].sigterm();
                        assertEquals(0, nodes[n].awaitExit(), "log " + nodes[n].log());
                        nodes[n] = ServerProcess.start(s.db(), newKey, dir.resolve("both-keys-" + n + ".log"), ports[n],
                                with(NODE, "secrets.previous-key=" + oldKey));
                        nodes[n].awaitBaseUrl();
                        awaitMoreAcknowledged(publishers, 100);
                    }

                    // 2. The rotation, killed after its first batch; the nodes serve on over values sealed with either key.
                    publishers.phase = "rotate-key killed half-way";
                    Process rotation = rotateKey(s, newKey, oldKey);
                    BlockingQueue<String> said = ChildJvm.lines(rotation.getErrorStream());
                    String first = said.poll(120, TimeUnit.SECONDS);
                    while (first != null && !first.contains("re-sealed")) first = said.poll(120, TimeUnit.SECONDS);
                    rotation.destroyForcibly();
                    rotation.waitFor(30, TimeUnit.SECONDS);
                    assertTrue(first != null, "rotate-key said nothing within 120 s: " + said);
                    Map<String, Long> perKey = KeyRotation.census(s.services().database().jdbi()).get("callbacks.verifier_sealed");
                    assertTrue(perKey.getOrDefault(SecretBox.fromBase64(oldKey).keyId(), 0L) > 0,
                            "the kill was meant to land half-way, but every value was re-sealed already: " + perKey);
                    assertNotEquals(0, rotation.exitValue());
                    awaitMoreAcknowledged(publishers, 100);

                    publishers.phase = "rotate-key run again";
                    Cli.Result resumed = new Cli(s.db()).run("secrets", "rotate-key", "--json", "--set", "secrets.key=" + newKey,
                            "--set", "secrets.previous-key=" + oldKey);
                    assertEquals(0, resumed.exitCode(), resumed.err());
                    assertTrue(resumed.json().get("resumed").asBoolean(), resumed.out());
                    assertEquals(Map.of(SecretBox.fromBase64(newKey).keyId(), (long) MORE_CALLBACKS + 1),
                            KeyRotation.census(s.services().database().jdbi()).get("callbacks.verifier_sealed"));

                    // 3. The old key is no longer needed: each node restarted with the new key alone.
                    for (int n = 0; n < 2; n++) {
                        publishers.phase = "node " + n + " restarted with the new key alone";
                        nodes[n].sigterm();
                        assertEquals(0, nodes[n].awaitExit(), "log " + nodes[n].log());
                        nodes[n] = ServerProcess.start(s.db(), newKey, dir.resolve("new-key-" + n + ".log"), ports[n], NODE);
                        nodes[n].awaitBaseUrl();
                        awaitMoreAcknowledged(publishers, 100);
                    }
                    Cli.Result stale = new Cli(s.db()).run("serve", "--port", "0", "--set", "secrets.key=" + oldKey);
                    assertEquals(5, stale.exitCode(), "a node left with the old key alone refuses to start: " + stale.err());
                } finally {
                    publishers.close();
                }
                assertEquals(List.of(), List.copyOf(publishers.failures), "answers other than 202, the documented 503 and a refused connection");
                assertEquals(List.of(), RollingRestartTest.storedEvents(s, publishers.closedUnanswered), "requests closed unanswered were handled");
                Set<Long> acknowledged = Set.copyOf(publishers.acknowledged);
                Deliveries.await("every acknowledged event delivered (" + acknowledged.size() + ")",
                        () -> RollingRestartTest.receivedObjectIds(receiver).containsAll(acknowledged) && s.count("pending") == 0);
                List<String> wronglySigned = receiver.requests.stream().filter(r -> "invoice.create".equals(r.param("name")))
                        .filter(r -> !ServiceSignature.verify(code, r.body(), r.signature())).map(r -> r.header("webhook-id")).toList();
                assertEquals(List.of(), wronglySigned, "webhooks not signed with the callback's code");
                assertEquals(0, s.count("dropped"));
                for (ServerProcess node : nodes) if (node != null) node.close();
                System.out.printf("KeyRotationUnderLoadTest: %d events acknowledged and delivered, each signed with its code%n", acknowledged.size());
            }
        }
    }

    /** `secrets rotate-key` in a JVM of its own (so it can be killed), three values a batch, a pause between batches. */
    private static Process rotateKey(SharedQueue s, String newKey, String oldKey) throws java.io.IOException {
        List<String> cmd = new ArrayList<>(ChildJvm.command(List.of(), "dev.ledgerlink.cli.Main"));
        cmd.addAll(List.of("secrets", "rotate-key", "--batch-size", "3", "--pause", "PT0.3S", "--db", s.db().url(),
                "--set", "secrets.key=" + newKey, "--set", "secrets.previous-key=" + oldKey));
        if (!s.db().user().isEmpty()) cmd.addAll(List.of("--set", "db.user=" + s.db().user()));
        return new ProcessBuilder(cmd).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
    }

    private static String[] with(String[] settings, String more) {
        List<String> all = new ArrayList<>(List.of(settings));
        all.add(more);
        return all.toArray(String[]::new);
    }

    private static void awaitMoreAcknowledged(Publishers publishers, int more) {
        int before = publishers.acknowledged.size();
        Deliveries.await(more + " more events acknowledged (failures so far: " + publishers.failures + ")",
                () -> publishers.acknowledged.size() >= before + more);
    }
}
