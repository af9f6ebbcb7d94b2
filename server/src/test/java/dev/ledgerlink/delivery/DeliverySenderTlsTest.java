package dev.ledgerlink.delivery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ledgerlink.net.PublicAddressGate;
import dev.ledgerlink.testing.FrontEnd;
import dev.ledgerlink.testing.Heavy;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.util.ssl.SslContextFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * DeliverySender over https against a real receiver on loopback with a certificate keytool makes:
 * where connections go (the gate's checked addresses only) and TLS as before. No database: once.
 */
@FrontEnd
@Heavy
class DeliverySenderTlsTest {
    private static final WebhookRequest WEBHOOK = DeliverySenderTest.WEBHOOK;

    /**
     * No window between the check and the connection (DNS rebinding): a resolver that answers a public
     * address first and a loopback address next. Outside development mode the first connection goes to
     * the public address the gate checked (this test's connector records it and connects nowhere but
     * loopback), the next lookup's loopback answer is refused, and the receiver on loopback never sees
     * a connection. The gate is asked once per connection: the client looks nothing up itself.
     */
    @Test
    void httpsConnectsOnlyToTheAddressTheGateCheckedSoARebindingToLoopbackReachesNothing(@TempDir Path dir) throws Exception {
        TlsReceiver receiver = TlsReceiver.start(dir);
        List<String> asked = new CopyOnWriteArrayList<>();
        PublicAddressGate.Resolver rebinding = host -> {
            asked.add(host);
            return new InetAddress[] {InetAddress.getByName(asked.size() == 1 ? "93.184.216.34" : "127.0.0.1")};
        };
        DeliverySenderTest.RecordingConnector connector = new DeliverySenderTest.RecordingConnector();
        String uri = "https://hooks.example.com:" + receiver.port() + "/hook";
        try (DeliverySender sender = new DeliverySender(Duration.ofSeconds(5), 64, PublicAddressGate.of(false, rebinding), Clock.systemUTC(),
                connector, receiver.trusting())) {
            AttemptOutcome first = sender.send(uri, WEBHOOK);
            assertEquals("connection refused", first.error(), "the checked public address, which this test does not connect to");
            AttemptOutcome second = sender.send(uri, WEBHOOK);
            assertEquals("refused: the host hooks.example.com resolves to a non-public address (127.0.0.1, loopback)", second.error());
        } finally {
            receiver.close();
        }
        assertEquals(List.of("/93.184.216.34:" + receiver.port()), connector.addresses(), "where connections were opened");
        assertEquals(List.of("hooks.example.com", "hooks.example.com"), asked, "one lookup per connection, the gate's");
        assertEquals(0, receiver.requests(), "nothing reached loopback");
    }

    /**
     * TLS as before: the certificate is checked against the trust store and the URI's host name (the
     * connection goes to a resolved address, the name stays the name); a trusted one gets the answer,
     * its status, headers and body, and the request carries the webhook's own headers, nothing added.
     */
    @Test
    void httpsChecksTheCertificateAndItsNameAndDeliversTheWebhookAsIs(@TempDir Path dir) throws Exception {
        TlsReceiver receiver = TlsReceiver.start(dir);
        PublicAddressGate dev = PublicAddressGate.of(true, PublicAddressGate.SYSTEM);
        try (DeliverySender trusting = new DeliverySender(Duration.ofSeconds(10), 64, dev, Clock.systemUTC(), new org.eclipse.jetty.io.ClientConnector(),
                receiver.trusting());
             DeliverySender usual = new DeliverySender(Duration.ofSeconds(10), 64, dev, Clock.systemUTC())) {
            AttemptOutcome ok = trusting.send("https://localhost:" + receiver.port() + "/hook", WEBHOOK);
            assertEquals(503, ok.status(), ok.error());
            assertEquals("try later", ok.responseBody());
            assertTrue(ok.responseHeaders().contains("Retry-After: 120"), ok.responseHeaders());
            assertEquals(Duration.ofSeconds(120), ok.retryAfter());
            TlsReceiver.Seen seen = receiver.last();
            assertEquals("name=invoice.create&object_id=1", seen.body());
            assertEquals("localhost:" + receiver.port(), seen.headers().get("Host"));
            assertEquals("ledgerlink-webhooks/test", seen.headers().get("User-Agent"));
            assertEquals("application/x-www-form-urlencoded", seen.headers().get("Content-Type"));
            assertNull(seen.headers().get("Accept-Encoding"), "nothing asked of the receiver beyond the webhook");

            AttemptOutcome wrongName = trusting.send("https://127.0.0.1:" + receiver.port() + "/hook", WEBHOOK);
            assertNull(wrongName.status());
            assertTrue(wrongName.error().startsWith("TLS: "), "the certificate names localhost only: " + wrongName.error());
            AttemptOutcome untrusted = usual.send("https://localhost:" + receiver.port() + "/hook", WEBHOOK);
            assertNull(untrusted.status());
            assertTrue(untrusted.error().startsWith("TLS: "), "a self-signed certificate: " + untrusted.error());
            assertEquals(1, receiver.requests());
        } finally {
            receiver.close();
        }
    }

    /** An https receiver on loopback with a self-signed certificate for localhost (made by keytool), answering 503 with Retry-After. */
    record TlsReceiver(com.sun.net.httpserver.HttpsServer server, java.security.KeyStore trust, List<Seen> seen) implements AutoCloseable {
        record Seen(Map<String, String> headers, String body) {}

        static TlsReceiver start(Path dir) throws Exception {
            Path store = dir.resolve("receiver.p12");
            Process keytool = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "keytool").toString(), "-genkeypair",
                    "-alias", "receiver", "-keyalg", "EC", "-groupname", "secp256r1", "-dname", "CN=localhost", "-ext", "san=dns:localhost",
                    "-validity", "2", "-storetype", "PKCS12", "-keystore", store.toString(), "-storepass", "changeit", "-keypass", "changeit")
                    .redirectErrorStream(true).start();
            String out = new String(keytool.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(keytool.waitFor(60, TimeUnit.SECONDS) && keytool.exitValue() == 0, "keytool: " + out);
            java.security.KeyStore keys = java.security.KeyStore.getInstance("PKCS12");
            try (var in = java.nio.file.Files.newInputStream(store)) {
                keys.load(in, "changeit".toCharArray());
            }
            var kmf = javax.net.ssl.KeyManagerFactory.getInstance(javax.net.ssl.KeyManagerFactory.getDefaultAlgorithm());
            kmf.init(keys, "changeit".toCharArray());
            var ssl = javax.net.ssl.SSLContext.getInstance("TLS");
            ssl.init(kmf.getKeyManagers(), null, null);
            java.security.KeyStore trust = java.security.KeyStore.getInstance("PKCS12");
            trust.load(null, null);
            trust.setCertificateEntry("receiver", keys.getCertificate("receiver"));

            var server = com.sun.net.httpserver.HttpsServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 8);
            server.setHttpsConfigurator(new com.sun.net.httpserver.HttpsConfigurator(ssl));
            List<Seen> seen = new CopyOnWriteArrayList<>();
            server.createContext("/hook", exchange -> {
                Map<String, String> headers = new java.util.TreeMap<>(String.CASE_INSENSITIVE_ORDER);
                exchange.getRequestHeaders().forEach((k, v) -> headers.put(k, String.join(",", v)));
                seen.add(new Seen(headers, new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8)));
                byte[] body = "try later".getBytes(StandardCharsets.UTF_8);
                exchange.getResponseHeaders().set("Retry-After", "120");
                exchange.sendResponseHeaders(503, body.length);
                exchange.getResponseBody().write(body);
                exchange.close();
            });
            server.start();
            return new TlsReceiver(server, trust, seen);
        }

        int port() {
            return server.getAddress().getPort();
        }

        /** TLS settings that trust this receiver's certificate, and check names as always. */
        SslContextFactory.Client trusting() {
            SslContextFactory.Client tls = new SslContextFactory.Client();
            tls.setTrustStore(trust);
            return tls;
        }

        int requests() {
            return seen.size();
        }

        Seen last() {
            return seen.getLast();
        }

        @Override
        public void close() {
            server.stop(0);
        }
    }
}
