package dev.ledgerlink.testing;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** A program the tests run and wait for (pg_ctl, mount): its output, or an IOException saying how it failed. */
public final class Commands {
    private Commands() {}

    public static String run(List<String> command) throws IOException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        try {
            if (!p.waitFor(90, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IOException("timed out: " + String.join(" ", command));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted: " + String.join(" ", command), e);
        }
        String output = new String(p.getInputStream().readAllBytes());
        if (p.exitValue() != 0) throw new IOException(String.join(" ", command) + " exited " + p.exitValue() + ": " + output);
        return output;
    }
}
