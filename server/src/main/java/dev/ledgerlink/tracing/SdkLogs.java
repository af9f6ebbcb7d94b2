package dev.ledgerlink.tracing;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.slf4j.LoggerFactory;

/**
 * The OpenTelemetry SDK logs through java.util.logging (a collector that cannot be reached, spans
 * dropped from a full queue); its lines go to the server's own log instead, in its format (text or
 * JSON), under their SDK logger names. The SDK throttles them itself (a few a minute). The message
 * carries the cause; the stack trace only at DEBUG.
 */
final class SdkLogs {
    private static final AtomicBoolean FORWARDING = new AtomicBoolean();
    /** Held here: java.util.logging keeps loggers only weakly, and a collected one would lose the handler. */
    private static final Logger SDK = Logger.getLogger("io.opentelemetry");

    private SdkLogs() {}

    static void forward() {
        if (!FORWARDING.compareAndSet(false, true)) return;
        SDK.setUseParentHandlers(false);
        SDK.addHandler(new Handler() {
            @Override
            public void publish(LogRecord r) {
                org.slf4j.Logger log = LoggerFactory.getLogger(r.getLoggerName() == null ? SDK.getName() : r.getLoggerName());
                String message = r.getMessage();
                Throwable t = log.isDebugEnabled() ? r.getThrown() : null;
                int level = r.getLevel().intValue();
                if (level >= Level.SEVERE.intValue()) log.error(message, t);
                else if (level >= Level.WARNING.intValue()) log.warn(message, t);
                else if (level >= Level.INFO.intValue()) log.info(message, t);
                else log.debug(message, t);
            }

            @Override
            public void flush() {}

            @Override
            public void close() {}
        });
    }
}
