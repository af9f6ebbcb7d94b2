package dev.ledgerlink.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * The previous release's server jar, as scripts/previous-release builds it once (from the commit that
 * script names) and caches it. A clone without that commit in its history, or a build that fails,
 * fails the test that asked, saying why: an upgrade test that cannot run is not passed over.
 */
public final class PreviousRelease {
    private static final Path SCRIPT = Path.of("..", "scripts", "previous-release").toAbsolutePath().normalize();
    private static Path jar;

    private PreviousRelease() {}

    /** The commit of the previous release, as the script names it. */
    public static String commit() {
        try {
            return Files.readAllLines(SCRIPT).stream().filter(l -> l.startsWith("PREVIOUS_RELEASE=")).findFirst()
                    .map(l -> l.substring("PREVIOUS_RELEASE=".length()).trim()).orElseThrow(() -> new AssertionError(SCRIPT + " names no PREVIOUS_RELEASE"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Its server jar, built on first use (a few minutes) and cached under ~/.cache/ledgerlink. */
    public static synchronized Path jar() throws IOException, InterruptedException {
        if (jar != null) return jar;
        Path err = Files.createTempFile("previous-release", ".log");
        Process p = new ProcessBuilder(SCRIPT.toString()).redirectError(err.toFile()).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        if (!p.waitFor(30, TimeUnit.MINUTES)) {
            p.destroyForcibly();
            throw new AssertionError("scripts/previous-release did not finish within 30 minutes; its output: " + Files.readString(err));
        }
        if (p.exitValue() != 0 || out.isEmpty() || !Files.isRegularFile(Path.of(out))) {
            throw new AssertionError("the previous release (commit " + commit() + ") could not be had: scripts/previous-release exited "
                    + p.exitValue() + ":\n" + Files.readString(err));
        }
        Files.deleteIfExists(err);
        jar = Path.of(out);
        return jar;
    }
}
