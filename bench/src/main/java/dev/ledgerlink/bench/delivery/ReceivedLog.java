package dev.ledgerlink.bench.delivery;

import dev.ledgerlink.bench.http.LoopbackReceiver;
import dev.ledgerlink.bench.load.Latencies;
import dev.ledgerlink.signature.FormParams;
import dev.ledgerlink.signature.ServiceSignature;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What the loopback receiver was sent, as the benchmark needs it: verification codes by callback id,
 * and for notifications the publish-to-receive latency (publish time looked up by object_id), counted
 * per group of endpoints (the path's first segment, e.g. "hook" or "hang"), with each signature checked
 * against the code of its endpoint.
 */
public final class ReceivedLog implements LoopbackReceiver.Handler {
    private final Map<String, CompletableFuture<String>> verifiers = new ConcurrentHashMap<>();
    private final Map<String, String> codeByPath = new ConcurrentHashMap<>();
    private final Map<Long, Long> publishedAt = new ConcurrentHashMap<>();
    private final Map<String, Group> groups = new ConcurrentHashMap<>();
    private final AtomicLong badSignatures = new AtomicLong();
    private final java.util.List<String> badExamples = new java.util.concurrent.CopyOnWriteArrayList<>();
    private final AtomicLong unknownEvents = new AtomicLong();
    private volatile String phase = "";

    /** Names the measurement under way; deliveries count in the group "phase:firstPathSegment". */
    public void phase(String name) {
        phase = name;
    }

    /** Deliveries of one group of endpoints. */
    public static final class Group {
        private final Latencies latencies = new Latencies(2_000_000);
        private final AtomicLong count = new AtomicLong();
        private volatile long first = Long.MAX_VALUE;
        private volatile long last = Long.MIN_VALUE;

        synchronized void add(long latency, long at) {
            latencies.add(latency);
            count.incrementAndGet();
            if (at < first) first = at;
            if (at > last) last = at;
        }

        public long count() { return count.get(); }
        public synchronized double p(double q) { return latencies.percentileMillis(q); }
        public long lastNanos() { return last; }
        public long firstNanos() { return first; }
    }

    /** The code the service sends to the callback with this id (completes when its verification request arrives). */
    public CompletableFuture<String> verifierFor(long callbackId) {
        return verifiers.computeIfAbsent(Long.toString(callbackId), k -> new CompletableFuture<>());
    }

    public void codeFor(String path, String code) {
        codeByPath.put(path, code);
    }

    public void published(long objectId, long nanos) {
        publishedAt.put(objectId, nanos);
    }

    public Group group(String name) {
        return groups.computeIfAbsent(name, k -> new Group());
    }

    public long badSignatures() { return badSignatures.get(); }
    /** The first few requests whose signature did not verify, and why: for a failure's message. */
    public java.util.List<String> badSignatureExamples() { return java.util.List.copyOf(badExamples); }
    public long unknownEvents() { return unknownEvents.get(); }

    @Override
    public void received(LoopbackReceiver.Request r) {
        FormParams params = FormParams.parse(r.body());
        if (FormParams.VERIFY_EVENT.equals(params.get("name"))) {
            verifierFor(Long.parseLong(params.get("object_id"))).complete(params.get("verifier"));
            return;
        }
        String code = codeByPath.get(r.path());
        String signature = r.headers().get("x-service-hmac-sha256");
        if (code == null || signature == null || !ServiceSignature.verify(code, params, signature)) {
            if (badSignatures.incrementAndGet() <= 5) {
                badExamples.add(r.path() + (code == null ? ": no code for this path" : signature == null ? ": no signature" : ": signature does not verify")
                        + " (" + params.get("name") + " " + params.get("object_id") + ")");
            }
        }
        Long sent;
        try {
            sent = publishedAt.get(Long.parseLong(String.valueOf(params.get("object_id"))));
        } catch (NumberFormatException e) {
            sent = null;
        }
        if (sent == null) {
            unknownEvents.incrementAndGet();
            return;
        }
        String path = r.path();
        int slash = path.indexOf('/', 1);
        group(phase + ":" + (slash < 0 ? path.substring(1) : path.substring(1, slash))).add(r.receivedNanos() - sent, r.receivedNanos());
    }
}
