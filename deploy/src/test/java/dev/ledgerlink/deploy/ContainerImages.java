package dev.ledgerlink.deploy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The images the tests share, each made once per run of this JVM (the scripts also skip what is built
 * already): podman itself (scripts/ensure-podman), the Debian base (scripts/image-base, cached across
 * runs), the ledgerlink image of this build's archive (scripts/image) and, for the compose example, a
 * PostgreSQL image made from Debian's package on the same base.
 */
final class ContainerImages {
    // One lock each: a test waiting for the ledgerlink image does not wait for PostgreSQL's.
    private static final Object BASE = new Object(), LEDGERLINK = new Object(), POSTGRES = new Object();
    private static String base;
    private static String ledgerlink;
    private static String postgres;

    private ContainerImages() {}

    /** The archive the package phase built (scripts/dist-archive). */
    static Path archive() {
        try (Stream<Path> files = Files.list(Sh.TARGET)) {
            return files.filter(p -> p.getFileName().toString().matches("ledgerlink-.*-linux-x64\\.tar\\.gz"))
                    .findFirst().orElseThrow(() -> new AssertionError("no release archive in " + Sh.TARGET + ": the package phase builds it"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static String version() {
        String name = archive().getFileName().toString();
        return name.substring("ledgerlink-".length(), name.length() - "-linux-x64.tar.gz".length());
    }

    /** The commit in the archive's version (0.1.0-SNAPSHOT-1a2b3c4[-dirty]). */
    static String commit() {
        var m = java.util.regex.Pattern.compile("-([0-9a-f]{7,})(-dirty)?$").matcher(version());
        if (!m.find()) throw new AssertionError("no commit in the archive's version " + version());
        return m.group(1);
    }

    static String base() {
        synchronized (BASE) {
            if (base == null) {
                Sh.run(Duration.ofMinutes(10), Sh.ROOT.resolve("scripts/ensure-podman").toString()).ok();
                base = Sh.run(Podman.ENV, null, Duration.ofMinutes(15), Sh.ROOT.resolve("scripts/image-base").toString()).ok().out().trim();
            }
            return base;
        }
    }

    static String ledgerlink() {
        String from = base();
        synchronized (LEDGERLINK) {
            if (ledgerlink == null) {
                ledgerlink = Sh.run(Map.of("BASE_IMAGE", from, "CONTAINERS_CONF", Podman.ENV.get("CONTAINERS_CONF")), null,
                        Duration.ofMinutes(10), Sh.ROOT.resolve("scripts/image").toString(), archive().toString()).ok().out().trim();
            }
            return ledgerlink;
        }
    }

    /** PostgreSQL from Debian's package on the base (deploy/test/postgres-image), kept in podman's storage. */
    static String postgres() {
        String from = base();
        synchronized (POSTGRES) {
            if (postgres == null) {
                postgres = Sh.run(Podman.ENV, null, Duration.ofMinutes(15), Sh.ROOT.resolve("deploy/test/postgres-image").toString(), from)
                        .ok().out().trim();
            }
            return postgres;
        }
    }
}
