package dev.ledgerlink.audit;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.AppenderBase;
import com.fasterxml.jackson.databind.JsonNode;
import dev.ledgerlink.testing.Metrics;
import dev.ledgerlink.testing.TestHttp;
import dev.ledgerlink.testing.TestServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import net.logstash.logback.encoder.LogstashEncoder;
import org.slf4j.LoggerFactory;

/**
 * The audit lines a server writes while a test runs, each exactly as log.format=json writes it
 * (encoded by the same LogstashEncoder), and the audit counters of its /metrics.
 */
final class AuditLines implements AutoCloseable {
    private final Logger logger = (Logger) LoggerFactory.getLogger(AuditLog.LOGGER);
    private final LogstashEncoder encoder = new LogstashEncoder();
    private final List<String> json = new CopyOnWriteArrayList<>();
    private final AppenderBase<ILoggingEvent> appender = new AppenderBase<>() {
        @Override
        protected void append(ILoggingEvent event) {
            json.add(new String(encoder.encode(event), StandardCharsets.UTF_8).trim());
        }
    };

    AuditLines() {
        LoggerContext context = logger.getLoggerContext();
        encoder.setContext(context);
        encoder.start();
        appender.setContext(context);
        appender.setName("audit-lines-under-test");
        appender.start();
        logger.addAppender(appender);
    }

    /** Every line written so far, as its JSON text. */
    List<String> raw() {
        return List.copyOf(json);
    }

    /** The lines of one event, parsed. */
    List<JsonNode> of(String event) {
        return json.stream().map(AuditLines::parse).filter(n -> event.equals(n.path("event").asText())).toList();
    }

    private static JsonNode parse(String line) {
        try {
            return TestHttp.JSON.readTree(line);
        } catch (IOException e) {
            throw new UncheckedIOException("not one JSON object: " + line, e);
        }
    }

    /** {@code ledgerlink_audit_events_total{event="..."}} as GET /metrics shows it now. */
    static double counter(TestServer server, String event) {
        return Metrics.value(server, "ledgerlink_audit_events_total", "event", event)
                .orElseThrow(() -> new AssertionError("no counter for " + event + " in /metrics"));
    }

    @Override
    public void close() {
        logger.detachAppender(appender);
        appender.stop();
        encoder.stop();
    }
}
