package dev.ledgerlink.testing;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

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
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(OPTIONS);
        cmd.addAll(jvmOptions);
        cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), mainClass));
        return cmd;
    }
}
