package dev.ledgerlink.config;

import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;

/**
 * Where traces go, checked once at start: tracing.otlp-endpoint is the collector's base address
 * (OTLP/HTTP's {@code OTEL_EXPORTER_OTLP_ENDPOINT}: spans go to its {@code /v1/traces}); empty turns
 * tracing off. An address without an http or https scheme and a host stops the server at the door.
 */
public record TracingSettings(Optional<URI> tracesUri, Duration exportInterval) {
    static final String TRACES_PATH = "/v1/traces";

    public static TracingSettings from(Settings s) {
        return new TracingSettings(tracesUri(s.get(Setting.TRACING_OTLP_ENDPOINT).trim()), s.duration(Setting.TRACING_EXPORT_INTERVAL));
    }

    public boolean on() {
        return tracesUri.isPresent();
    }

    /** The collector's base address with /v1/traces added (kept when it is already there). */
    private static Optional<URI> tracesUri(String endpoint) {
        if (endpoint.isEmpty()) return Optional.empty();
        URI base;
        try {
            base = new URI(endpoint);
        } catch (URISyntaxException e) {
            throw invalid(endpoint);
        }
        String scheme = base.getScheme() == null ? "" : base.getScheme().toLowerCase(Locale.ROOT);
        if (!(scheme.equals("http") || scheme.equals("https")) || base.getHost() == null || base.getRawQuery() != null) throw invalid(endpoint);
        String path = base.getRawPath() == null ? "" : base.getRawPath();
        if (path.endsWith("/")) path = path.substring(0, path.length() - 1);
        if (!path.endsWith(TRACES_PATH)) path = path + TRACES_PATH;
        return Optional.of(base.resolve(path));
    }

    private static ConfigurationException invalid(String endpoint) {
        return new ConfigurationException(Setting.TRACING_OTLP_ENDPOINT.key() + " must be an http or https address of an OTLP/HTTP collector "
                + "such as http://127.0.0.1:4318, got '" + endpoint + "'");
    }
}
