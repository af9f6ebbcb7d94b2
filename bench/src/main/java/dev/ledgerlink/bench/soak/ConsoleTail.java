package dev.ledgerlink.bench.soak;

import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A browser on the console's activity page: its live tail (the server-sent event stream of delivery
 * attempts), read line by line and dropped and opened again every {@code reconnectEvery}, as a browser
 * does when its page is reloaded or its network changes. Counts the streams opened and the attempts
 * they carried.
 */
final class ConsoleTail implements AutoCloseable {
    private final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final AtomicLong streams = new AtomicLong();
    private final AtomicLong attempts = new AtomicLong();
    private final AtomicLong failures = new AtomicLong();
    private final Thread thread;

    ConsoleTail(String baseUrl, String cookie, Duration reconnectEvery) {
        HttpRequest request = HttpRequest.newBuilder(URI.create(baseUrl + "/console/activity/stream"))
                .header("Cookie", cookie).header("Accept", "text/event-stream").GET().build();
        this.thread = Thread.ofVirtual().name("console-tail").start(() -> {
            while (running.get()) {
                long until = System.nanoTime() + reconnectEvery.toNanos();
                try {
                    HttpResponse<InputStream> r = client.send(request, HttpResponse.BodyHandlers.ofInputStream());
                    try (BufferedReader lines = new BufferedReader(new InputStreamReader(r.body(), StandardCharsets.UTF_8))) {
                        if (r.statusCode() != 200) {
                            failures.incrementAndGet();
                            Thread.sleep(1000);
                            continue;
                        }
                        streams.incrementAndGet();
                        // The stream sends an attempt, or a comment at least every 5 s, so each read returns in time.
                        for (String line; running.get() && System.nanoTime() < until && (line = lines.readLine()) != null; ) {
                            if (line.equals("event: attempt")) attempts.incrementAndGet();
                        }
                    }
                } catch (InterruptedException e) {
                    return;
                } catch (Exception e) {
                    if (running.get()) failures.incrementAndGet();
                }
            }
        });
    }

    long streams() { return streams.get(); }
    long attempts() { return attempts.get(); }
    long failures() { return failures.get(); }

    @Override
    public void close() {
        running.set(false);
        thread.interrupt();
        client.shutdownNow();
        try {
            thread.join(Duration.ofSeconds(10));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
