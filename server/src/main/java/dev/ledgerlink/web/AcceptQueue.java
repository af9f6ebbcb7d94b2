package dev.ledgerlink.web;

import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.component.LifeCycle;

/**
 * The listening socket's backlog: connections the kernel has accepted and the server has not taken
 * yet. Jetty leaves it to the JDK, whose default is 50, so a burst of more than 50 new connections
 * (a sign-in rush, clients reconnecting after a restart or a load balancer's failover) overflows it
 * while the server is busy: the kernel drops the handshakes (clients wait a second to retry) and,
 * once it answers with SYN cookies, resets connections whose request was already sent (the sign-in
 * flood of docs/BENCHMARKS.md met both at 50). The kernel caps the value at net.core.somaxconn
 * (4096 on Linux since 5.4).
 */
final class AcceptQueue {
    static final int SIZE = 1024;

    private AcceptQueue() {}

    /** Widens the backlog of every connector of {@code server}, which Javalin adds after its modifyServer hooks, before they bind. */
    static void widen(Server server) {
        server.addEventListener(new LifeCycle.Listener() {
            @Override
            public void lifeCycleStarting(LifeCycle event) {
                for (Connector c : server.getConnectors()) {
                    if (c instanceof ServerConnector connector) connector.setAcceptQueueSize(SIZE);
                }
            }
        });
    }
}
