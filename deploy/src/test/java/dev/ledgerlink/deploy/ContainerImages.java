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
 * PostgreSQL image made from Debian's package on the same base; for the sandbox's, a webhook receiver
 * (docs/receivers/receiver.py on Debian's python3).
 */
final class ContainerImages {
    // One lock each: a test waiting for the ledgerlink image does not wait for PostgreSQL's.
    private static final Object BASE = new Object(), LEDGERLINK = new Object(), POSTGRES = new Object(), RECEIVER = new Object();
    private static String base;
    private static String ledgerlink;
    private static String versionTag;
    private static String postgres;
    private static String receiver;

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

    /**
     * The ledgerlink image of this build's archive, by a tag of its own ({@code localhost/ledgerlink-test:<archive sum>}),
     * removed when the JVM exits. Other checkouts on one machine share podman's storage and build the same version
     * tag (the same commit, their own changes): this archive's image is pinned by its id as soon as scripts/image has
     * built it, so another build taking the version tag (and pruning what it left untagged) cannot swap it.
     */
    static String ledgerlink() {
        String from = base();
        synchronized (LEDGERLINK) {
            if (ledgerlink == null) {
                String sum = sha256(archive());
                for (int attempt = 1; ledgerlink == null; attempt++) {
                    versionTag = Sh.run(Map.of("BASE_IMAGE", from, "CONTAINERS_CONF", Podman.ENV.get("CONTAINERS_CONF")), null,
                            Duration.ofMinutes(10), Sh.ROOT.resolve("scripts/image").toString(), archive().toString()).ok().out().trim();
                    String[] built = Podman.ok("image", "inspect", "--format", "{{.Id}} {{index .Config.Labels \"dev.ledgerlink.archive\"}}", versionTag)
                            .split(" ");
                    if (built.length == 2 && built[1].equals(sum)) {
                        String pinned = "localhost/ledgerlink-test:" + sum.substring(0, 16);
                        Podman.ok("tag", built[0], pinned);
                        Runtime.getRuntime().addShutdownHook(new Thread(() -> Podman.run("rmi", pinned), "untag-" + pinned));
                        ledgerlink = pinned;
                    } else if (attempt == 3) {
                        throw new AssertionError(versionTag + " kept being taken by another build of this version on this machine");
                    }
                }
            }
            return ledgerlink;
        }
    }

    /** The name scripts/image gave this build's image: localhost/ledgerlink:VERSION (what LedgerlinkContainer runs by default). */
    static String versionTag() {
        ledgerlink();
        return versionTag;
    }

    private static String sha256(Path file) {
        try (var in = Files.newInputStream(file)) {
            var digest = java.security.MessageDigest.getInstance("SHA-256");
            byte[] buffer = new byte[1 << 16];
            for (int n; (n = in.read(buffer)) > 0; ) digest.update(buffer, 0, n);
            return java.util.HexFormat.of().formatHex(digest.digest());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
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

    /** docs/receivers/receiver.py on Debian's python3 on the base (deploy/test/receiver-image), kept in podman's storage. */
    static String receiver() {
        String from = base();
        synchronized (RECEIVER) {
            if (receiver == null) {
                receiver = Sh.run(Podman.ENV, null, Duration.ofMinutes(15), Sh.ROOT.resolve("deploy/test/receiver-image").toString(), from)
                        .ok().out().trim();
            }
            return receiver;
        }
    }
}
