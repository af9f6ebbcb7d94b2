package dev.ledgerlink.bench.growth;

import dev.ledgerlink.bench.http.Http1Connection;
import dev.ledgerlink.bench.load.Latencies;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The reads an operator and an integration make page by page: a callback's deliveries (the public API
 * and the console), the console's activity, callbacks and grants pages, and the admin API's lists.
 * Each is sent over one keep-alive connection, one after another, every read in turn, and timed.
 */
public final class PagedReads {
    /** One read: a name for the report, its path and query, the headers that authorize it. */
    public record Read(String name, String path, Map<String, String> headers) {}

    /** One read's latencies, and how many answers were not 200. */
    public record Timed(Read read, Latencies latencies, int failures, String firstFailure) {
        public double p(double q) { return latencies.percentileMillis(q); }
    }

    private PagedReads() {}

    /** Sends every read {@code rounds} times, in turn, and times each; a read left unanswered (30 s) or unreadable is a failure, not sent again. */
    public static List<Timed> measure(int port, List<Read> reads, int rounds) throws Exception {
        Map<Read, Latencies> lat = new LinkedHashMap<>();
        Map<Read, Integer> failures = new LinkedHashMap<>();
        Map<Read, String> first = new LinkedHashMap<>();
        for (Read r : reads) {
            lat.put(r, new Latencies(rounds));
            failures.put(r, 0);
        }
        Http1Connection http = new Http1Connection("127.0.0.1", port);
        try {
            for (int i = 0; i < rounds; i++) {
                for (Read r : reads) {
                    if (first.getOrDefault(r, "").startsWith("no answer")) continue;   // unanswered once: not sent again
                    long t0 = System.nanoTime();
                    Http1Connection.Response answer;
                    try {
                        answer = http.get(r.path(), r.headers());
                    } catch (java.io.IOException e) {
                        // No answer within the connection's read timeout, or one the harness cannot read (a body above its bound):
                        // this read fails and is not sent again; the others are still measured.
                        failures.merge(r, 1, Integer::sum);
                        first.putIfAbsent(r, String.format("no answer: %s after %.1f s", e.getMessage(), (System.nanoTime() - t0) / 1e9));
                        http.close();
                        http = new Http1Connection("127.0.0.1", port);
                        continue;
                    }
                    long t1 = System.nanoTime();
                    if (answer.status() == 200) {
                        lat.get(r).add(t1 - t0);
                    } else {
                        failures.merge(r, 1, Integer::sum);
                        first.putIfAbsent(r, answer.status() + ": " + abbreviate(answer.text()));
                    }
                }
            }
        } finally {
            http.close();
        }
        List<Timed> out = new ArrayList<>();
        for (Read r : reads) out.add(new Timed(r, lat.get(r), failures.get(r), first.get(r)));
        return out;
    }

    private static String abbreviate(String s) {
        return s.length() <= 200 ? s : s.substring(0, 200) + "...";
    }
}
