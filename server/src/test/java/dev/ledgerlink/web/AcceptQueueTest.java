package dev.ledgerlink.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ledgerlink.testing.FrontEnd;
import dev.ledgerlink.testing.Heavy;
import dev.ledgerlink.testing.LedgerlinkTest;
import dev.ledgerlink.testing.TestServer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.server.ServerConnector;
import org.junit.jupiter.api.Test;

/**
 * The API listener's backlog is {@link AcceptQueue#SIZE}, not the JDK's 50: as Jetty holds it and as
 * the kernel shows it (ss prints a listening socket's backlog as its Send-Q).
 */
@LedgerlinkTest
@FrontEnd
@Heavy
class AcceptQueueTest {
    static TestServer server;

    @Test
    void theApiListenerQueuesABurstOfNewConnections() throws Exception {
        var connector = (ServerConnector) server.server.web().jettyServer().server().getConnectors()[0];
        assertEquals(AcceptQueue.SIZE, connector.getAcceptQueueSize());

        Process ss = new ProcessBuilder("ss", "-ltnH", "sport = :" + server.server.port()).redirectErrorStream(true).start();
        String out = new String(ss.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(ss.waitFor(30, TimeUnit.SECONDS) && ss.exitValue() == 0, "ss (iproute2) lists listening sockets: " + out);
        List<String> listeners = out.lines().filter(l -> l.startsWith("LISTEN")).toList();
        assertEquals(1, listeners.size(), out);
        // readAllLines: Files.readString of this file gives "4" on JDK 25 (procfs reports no size).
        int somaxconn = Integer.parseInt(Files.readAllLines(Path.of("/proc/sys/net/core/somaxconn")).getFirst().trim());
        assertEquals(Math.min(AcceptQueue.SIZE, somaxconn), Integer.parseInt(listeners.getFirst().trim().split("\\s+")[2]),
                "the kernel's backlog of the listener (Send-Q): " + out);
    }
}
