package dev.ledgerlink.logging;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.Appender;
import ch.qos.logback.core.ConsoleAppender;
import dev.ledgerlink.config.ConfigurationException;
import dev.ledgerlink.config.Setting;
import dev.ledgerlink.config.Settings;
import net.logstash.logback.encoder.LogstashEncoder;
import org.slf4j.LoggerFactory;

/**
 * log.format: {@code text} (logback.xml's one readable line per event) or {@code json}: one JSON
 * object per line on stderr from logstash-logback-encoder ({@code @timestamp}, {@code level},
 * {@code logger_name}, {@code thread_name}, {@code message}, {@code stack_trace}, and the MDC's
 * {@code request_id}). Only what the code logs is written: no request bodies, headers or arguments,
 * so no secret reaches either format. Applied once settings are known, before the server starts.
 */
public final class LogFormat {
    private static final String TEXT_APPENDER = "STDERR";
    private static final String JSON_APPENDER = "JSON";
    private static Appender<ILoggingEvent> text;

    private LogFormat() {}

    public static synchronized void apply(Settings settings) {
        String format = settings.get(Setting.LOG_FORMAT).trim();
        if (!format.equals("text") && !format.equals("json")) {
            throw new ConfigurationException(Setting.LOG_FORMAT.key() + " must be text or json, got '" + format + "'");
        }
        if (!(LoggerFactory.getILoggerFactory() instanceof LoggerContext context)) return;
        Logger root = context.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        boolean json = format.equals("json");
        if (json && root.getAppender(JSON_APPENDER) == null) {
            LogstashEncoder encoder = new LogstashEncoder();
            encoder.setContext(context);
            encoder.start();
            ConsoleAppender<ILoggingEvent> appender = new ConsoleAppender<>();
            appender.setContext(context);
            appender.setName(JSON_APPENDER);
            appender.setTarget("System.err");
            appender.setEncoder(encoder);
            appender.start();
            root.addAppender(appender);
            text = root.getAppender(TEXT_APPENDER);
            if (text != null) root.detachAppender(text);
        } else if (!json && root.getAppender(JSON_APPENDER) != null) {
            if (text != null) root.addAppender(text);
            Appender<ILoggingEvent> appender = root.getAppender(JSON_APPENDER);
            root.detachAppender(appender);
            appender.stop();
        }
    }
}
