package dev.ledgerlink.web;

import dev.ledgerlink.config.Setting;
import dev.ledgerlink.config.Settings;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.NetworkConnectionLimit;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.component.LifeCycle;

/**
 * What a connection may hold of the API port, so that a flood of connections (thousands left open and
 * idle, headers or bodies trickled in a byte at a time) costs bounded memory and leaves the port to the
 * clients that send requests: the idle timeout ({@code http.idle-timeout}, Jetty's own), the time a
 * request's head and body may take to arrive ({@code http.header-timeout}, {@code http.body-timeout},
 * {@link SlowClients}, which Jetty has no setting for), and a cap on open connections
 * ({@code http.max-connections}, Jetty's NetworkConnectionLimit: at the cap the server stops accepting,
 * and closes connections idle for {@link #IDLE_AT_CAP} until it is below again).
 * {@code ledgerlink_http_connections} is how many are open now. docs/operations.md, "Connection floods".
 */
final class ConnectionLimits {
    /** At the cap, a connection idle this long is closed to make room (instead of http.idle-timeout). */
    static final Duration IDLE_AT_CAP = Duration.ofSeconds(2);

    private ConnectionLimits() {}

    /** Applies the limits of {@code settings} to {@code server}'s connectors, which Javalin adds after its modifyServer hooks. */
    static void apply(Server server, Settings settings, MeterRegistry metrics) {
        long idle = settings.duration(Setting.HTTP_IDLE_TIMEOUT).toMillis();
        NetworkConnectionLimit cap = new NetworkConnectionLimit(settings.integer(Setting.HTTP_MAX_CONNECTIONS), server);
        cap.setEndPointIdleTimeout(Math.min(idle, IDLE_AT_CAP.toMillis()));
        server.addBean(cap);
        SlowClients slow = new SlowClients(server, settings.duration(Setting.HTTP_HEADER_TIMEOUT), settings.duration(Setting.HTTP_BODY_TIMEOUT), metrics);
        server.addEventListener(new LifeCycle.Listener() {
            @Override
            public void lifeCycleStarting(LifeCycle event) {
                for (Connector c : server.getConnectors()) {
                    if (c instanceof ServerConnector connector) connector.setIdleTimeout(idle);
                }
            }

            @Override
            public void lifeCycleStarted(LifeCycle event) {
                slow.start();
            }

            @Override
            public void lifeCycleStopping(LifeCycle event) {
                slow.stop();
            }
        });
        Gauge.builder("ledgerlink.http.connections", server, ConnectionLimits::open)
                .description("Connections open to the API port").register(metrics);
    }

    private static int open(Server server) {
        int n = 0;
        for (Connector c : server.getConnectors()) n += c.getConnectedEndPoints().size();
        return n;
    }
}
