package dev.ledgerlink.testing;

import java.util.OptionalDouble;

/** One series of the server's GET /metrics (Prometheus text), for the tests that count outcomes there. */
public final class Metrics {
    private Metrics() {}

    /**
     * The value of {@code name} with exactly these labels (name, value pairs in the order /metrics
     * writes them; none for a series without labels), or empty while /metrics has no such line.
     */
    public static OptionalDouble value(TestServer server, String name, String... labels) {
        TestHttp.Response r = server.http.get("/metrics");
        if (r.status() != 200) throw new AssertionError("/metrics answered " + r.status());
        String series = series(name, labels);
        for (String line : r.body().lines().toList()) {
            int space = line.lastIndexOf(' ');
            if (line.startsWith("#") || space < 0) continue;
            // The exposition format allows a comma after the last label.
            if (line.substring(0, space).replace(",}", "}").equals(series)) {
                return OptionalDouble.of(Double.parseDouble(line.substring(space + 1)));
            }
        }
        return OptionalDouble.empty();
    }

    private static String series(String name, String... labels) {
        if (labels.length % 2 != 0) throw new IllegalArgumentException("labels come in name, value pairs");
        if (labels.length == 0) return name;
        StringBuilder s = new StringBuilder(name).append('{');
        for (int i = 0; i < labels.length; i += 2) {
            if (i > 0) s.append(',');
            s.append(labels[i]).append("=\"").append(labels[i + 1]).append('"');
        }
        return s.append('}').toString();
    }
}
