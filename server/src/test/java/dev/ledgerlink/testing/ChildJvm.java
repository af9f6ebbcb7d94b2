package dev.ledgerlink.testing;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;

/**
 * The command line of a child JVM that a test starts (a `ledgerlink serve` it kills or stops), on
 * this JVM's java and classpath. Test-only JVM options: such a process lives for seconds, so the
 * optimising compiler (C2) mostly burns CPU on code it never gets to run (it was the largest CPU
 * user of these processes, beside the surefire forks on a 2-core machine); C1 alone and the serial
 * collector start and run them on less CPU. The product's own JVM options (./ledgerlink, the jar)
 * are not these.
 */
public final class ChildJvm {
    /** Options for short-lived test JVMs: C1 only, serial GC. */
    public static final List<String> OPTIONS = List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC");

    private ChildJvm() {}

    /** java, the test options, {@code jvmOptions}, -cp with this JVM's classpath, and {@code mainClass}. */
    public static List<String> command(List<String> jvmOptions, String mainClass) {
        return command(jvmOptions, System.getProperty("java.class.path"), mainClass);
    }

    /** The same on another classpath (another build's jar). */
    public static List<String> command(List<String> jvmOptions, String classpath, String mainClass) {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(OPTIONS);
        cmd.addAll(jvmOptions);
        cmd.addAll(List.of("-cp", classpath, mainClass));
        return cmd;
    }

    /**
     * The lines a child process writes to {@code out} (its stdout or stderr), read by a daemon thread
     * as they come, so the child never blocks on a full pipe and the test can wait for a line.
     */
    public static BlockingQueue<String> lines(InputStream out) {
        BlockingQueue<String> lines = new LinkedBlockingQueue<>();
        Thread t = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(out, StandardCharsets.UTF_8))) {
                for (String line; (line = r.readLine()) != null; ) lines.add(line);
            } catch (IOException ignored) {
                // the process ended
            }
        });
        t.setDaemon(true);
        t.start();
        return lines;
    }
}
