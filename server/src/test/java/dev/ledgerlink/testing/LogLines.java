package dev.ledgerlink.testing;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.AppenderBase;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Predicate;
import org.slf4j.LoggerFactory;

/**
 * The log lines an in-process server writes while a test runs (every logger, from WARN up: what an
 * operator reads), as a test asserts on what the log says and how often.
 */
public final class LogLines implements AutoCloseable {
    /** One line: its level, logger, message as written, and whether it carries a stack trace. */
    public record Line(Level level, String logger, String message, boolean stackTrace) {
        @Override
        public String toString() {
            return level + " " + logger + " - " + message + (stackTrace ? " [with a stack trace]" : "");
        }
    }

    private final Logger root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
    private final List<Line> lines = new CopyOnWriteArrayList<>();
    private final AppenderBase<ILoggingEvent> appender = new AppenderBase<>() {
        @Override
        protected void append(ILoggingEvent e) {
            if (e.getLevel().isGreaterOrEqual(Level.WARN)) {
                lines.add(new Line(e.getLevel(), e.getLoggerName(), e.getFormattedMessage(), e.getThrowableProxy() != null));
            }
        }
    };

    public LogLines() {
        appender.setContext(root.getLoggerContext());
        appender.setName("log-lines-under-test-" + System.identityHashCode(this));
        appender.start();
        root.addAppender(appender);
    }

    public List<Line> all() {
        return List.copyOf(lines);
    }

    public List<Line> matching(Predicate<Line> p) {
        return lines.stream().filter(p).toList();
    }

    @Override
    public void close() {
        root.detachAppender(appender);
        appender.stop();
    }
}
