package dev.ledgerlink.testing;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A real webhook receiver in Node that checks every request with the Standard Webhooks reference
 * library (resource standardwebhooks/receiver.mjs, run by node beside the library that
 * {@link StandardWebhooksLibrary} installs): code we did not write says whether what we sent is
 * authentic. Each request it got is one JSON line, read here in the order received.
 */
public final class NodeReceiver implements AutoCloseable {
    private final Process process;
    private final LinkedBlockingQueue<JsonNode> received = new LinkedBlockingQueue<>();
    private final int port;

    public NodeReceiver() {
        Path script = StandardWebhooksLibrary.install("receiver.mjs");
        try {
            process = new ProcessBuilder("node", script.toString()).directory(script.getParent().toFile())
                    .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run node (scripts/ensure-node installs it)", e);
        }
        var lines = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        try {
            String first = lines.readLine();
            if (first == null || !first.startsWith("listening ")) throw new AssertionError("receiver.mjs did not start: " + first);
            port = Integer.parseInt(first.substring("listening ".length()).trim());
        } catch (IOException e) {
            process.destroyForcibly();
            throw new UncheckedIOException(e);
        }
        Thread.ofVirtual().start(() -> {
            try {
                for (String line; (line = lines.readLine()) != null; ) received.add(TestHttp.JSON.readTree(line));
            } catch (IOException ignored) {
                // the process ended
            }
        });
    }

    /** The URI of one path of this receiver (each callback gets its own path, as the docs advise). */
    public String uri(String path) {
        return "http://127.0.0.1:" + port + path;
    }

    /** The next request received; fails the test when none comes within 60 s (a hang, not a timing check). */
    public JsonNode next() {
        try {
            JsonNode r = received.poll(60, TimeUnit.SECONDS);
            if (r == null) throw new AssertionError("the Node receiver got no request within 60 s");
            return r;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    /** The next request to {@code path}; those to other paths (other tests' callbacks) are skipped. */
    public JsonNode next(String path) {
        while (true) {
            JsonNode r = next();
            if (path.equals(r.path("path").asText())) return r;
        }
    }

    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) process.destroyForcibly();
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
