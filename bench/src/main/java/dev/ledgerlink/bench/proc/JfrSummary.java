package dev.ledgerlink.bench.proc;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordingFile;

/**
 * Reads a server's flight recording and says where its time went: the hottest methods by CPU
 * samples (top frame), the hottest ledgerlink frames (first dev.ledgerlink frame on the stack, i.e.
 * which of our code paths the CPU was spent under), contended monitors and parked waits.
 */
public final class JfrSummary {
    private JfrSummary() {}

    public static String describe(Path jfr, int top) {
        Map<String, Integer> topFrames = new HashMap<>();
        Map<String, Integer> ourFrames = new HashMap<>();
        Map<String, Integer> layers = new HashMap<>();
        Map<String, Long> monitorNanos = new HashMap<>();
        Map<String, Long> parkNanos = new HashMap<>();
        int samples = 0;
        try {
            for (RecordedEvent e : RecordingFile.readAllEvents(jfr)) {
                String type = e.getEventType().getName();
                switch (type) {
                    case "jdk.ExecutionSample" -> {
                        RecordedStackTrace st = e.getStackTrace();
                        if (st == null || st.getFrames().isEmpty()) continue;
                        samples++;
                        List<RecordedFrame> frames = st.getFrames();
                        topFrames.merge(name(frames.getFirst()), 1, Integer::sum);
                        layers.merge(layer(frames), 1, Integer::sum);
                        String ours = frames.stream().map(JfrSummary::name).filter(n -> n.startsWith("dev.ledgerlink"))
                                .findFirst().orElse("(no ledgerlink frame: " + bucket(frames) + ")");
                        ourFrames.merge(ours, 1, Integer::sum);
                    }
                    case "jdk.JavaMonitorEnter" -> monitorNanos.merge(className(e, "monitorClass"), e.getDuration().toNanos(), Long::sum);
                    case "jdk.ThreadPark" -> parkNanos.merge(className(e, "parkedClass") + " in " + caller(e), e.getDuration().toNanos(), Long::sum);
                    default -> { }
                }
            }
        } catch (IOException | RuntimeException e) {
            return "profile unreadable: " + e;
        }
        StringBuilder sb = new StringBuilder();
        sb.append("CPU samples: ").append(samples).append('\n');
        sb.append("CPU by layer (library of the sampled frame; JDBC driver and database engine frames win):\n");
        appendTop(sb, layers, samples, 10);
        sb.append("hottest methods (self):\n");
        appendTop(sb, topFrames, samples, top);
        sb.append("CPU by first ledgerlink frame (or library bucket):\n");
        appendTop(sb, ourFrames, samples, top);
        sb.append("contended monitors (total blocked ms):\n");
        appendMillis(sb, monitorNanos, 5);
        sb.append("parked waits (total ms, mostly idle pools):\n");
        appendMillis(sb, parkNanos, 5);
        return sb.toString();
    }

    private static String name(RecordedFrame f) {
        return f.getMethod().getType().getName() + "." + f.getMethod().getName();
    }

    /**
     * Where a sample's CPU went, by the library the running code belongs to: database frames anywhere
     * on the stack win (the work is done for the database); otherwise the first frame, from the top,
     * that is not plain JDK code (collections, reflection, locks) names the library that called it.
     */
    private static String layer(List<RecordedFrame> frames) {
        for (RecordedFrame f : frames) {
            String n = name(f);
            if (n.startsWith("org.h2.")) return "H2 engine (in-process database)";
            if (n.startsWith("org.postgresql.")) return "PostgreSQL JDBC driver";
        }
        for (RecordedFrame f : frames) {
            String n = name(f);
            if (n.startsWith("sun.security.") || n.startsWith("javax.crypto.") || n.startsWith("com.sun.crypto.")) return "JDK crypto (SHA-256, HMAC, SecureRandom)";
            if (n.startsWith("jdk.internal.net.http.") || n.startsWith("java.net.http.")) return "JDK HttpClient (delivery sender)";
            if (n.startsWith("sun.nio.") || n.startsWith("java.net.") || n.startsWith("sun.net.")) return "JDK sockets";
            if (n.startsWith("java.") || n.startsWith("jdk.") || n.startsWith("sun.") || n.startsWith("kotlin.")) continue;
            if (n.startsWith("org.jdbi.") || n.startsWith("io.leangen.geantyref.")) return "JDBI (statement setup, mapping, extension attach)";
            if (n.startsWith("com.fasterxml.jackson.")) return "Jackson JSON";
            if (n.startsWith("org.eclipse.jetty.client.")) return "Jetty HttpClient (delivery sender)";
            if (n.startsWith("org.eclipse.jetty.") || n.startsWith("io.javalin.") || n.startsWith("jakarta.servlet")) return "Jetty/Javalin HTTP";
            if (n.startsWith("com.zaxxer.hikari.")) return "HikariCP pool";
            if (n.startsWith("io.micrometer.")) return "Micrometer metrics";
            if (n.startsWith("ch.qos.logback.") || n.startsWith("org.slf4j.")) return "logging";
            if (n.startsWith("gg.jte.")) return "JTE templates";
            if (n.startsWith("org.bouncycastle.crypto.generators.Argon2")) return "password hashing (Argon2)";
            if (n.startsWith("dev.ledgerlink.")) return "ledgerlink code";
            return "other: " + n.substring(0, Math.min(n.length(), 40));
        }
        return "JDK only (no library frame: GC-free JDK work, virtual thread scheduling)";
    }

    private static String bucket(List<RecordedFrame> frames) {
        for (RecordedFrame f : frames) {
            String n = name(f);
            if (n.startsWith("org.eclipse.jetty")) return "jetty";
            if (n.startsWith("org.h2")) return "h2";
            if (n.startsWith("org.postgresql")) return "pgjdbc";
            if (n.startsWith("com.zaxxer")) return "hikari";
            if (n.startsWith("io.javalin")) return "javalin";
        }
        return name(frames.getLast());
    }

    private static String className(RecordedEvent e, String field) {
        try {
            jdk.jfr.consumer.RecordedClass c = e.getValue(field);
            return c == null ? "?" : c.getName();
        } catch (RuntimeException x) {
            return "?";
        }
    }

    private static String caller(RecordedEvent e) {
        RecordedStackTrace st = e.getStackTrace();
        if (st == null) return "?";
        return st.getFrames().stream().map(JfrSummary::name)
                .filter(n -> !n.startsWith("java.") && !n.startsWith("jdk.") && !n.startsWith("sun."))
                .findFirst().orElse("jdk");
    }

    private static void appendTop(StringBuilder sb, Map<String, Integer> counts, int total, int top) {
        counts.entrySet().stream().sorted(Map.Entry.<String, Integer>comparingByValue().reversed()).limit(top)
                .forEach(en -> sb.append(String.format("  %5.1f%%  %s%n", 100.0 * en.getValue() / Math.max(1, total), en.getKey())));
    }

    private static void appendMillis(StringBuilder sb, Map<String, Long> nanos, int top) {
        if (nanos.isEmpty()) sb.append("  (none recorded above the threshold)\n");
        nanos.entrySet().stream().sorted(Map.Entry.<String, Long>comparingByValue(Comparator.naturalOrder()).reversed()).limit(top)
                .forEach(en -> sb.append(String.format("  %8.0f ms  %s%n", en.getValue() / 1e6, en.getKey())));
    }
}
