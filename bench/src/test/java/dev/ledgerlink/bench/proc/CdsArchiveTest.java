package dev.ledgerlink.bench.proc;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The harness treats the launcher's class-data-sharing archive as the launcher does. */
class CdsArchiveTest {
    private static final String EARLIER = "2026-11-24T12:00:00Z";
    private static final String LATER = "2026-11-24T13:00:00Z";

    @Test
    void anArchiveOlderThanTheJarIsDeletedSoTheServerWritesANewOne(@TempDir Path dir) throws Exception {
        Path jar = dir.resolve("ledgerlink.jar");
        Path archive = jarAndArchive(jar, LATER, EARLIER);

        assertTrue(ServerProcess.cdsOptions(jar).contains("-XX:SharedArchiveFile=" + archive.toAbsolutePath()));
        assertFalse(Files.exists(archive), "the JVM neither uses nor replaces an archive of an older jar");
    }

    @Test
    void anArchiveNewerThanTheJarIsKept(@TempDir Path dir) throws Exception {
        Path jar = dir.resolve("ledgerlink.jar");
        Path archive = jarAndArchive(jar, EARLIER, LATER);

        ServerProcess.cdsOptions(jar);
        assertTrue(Files.exists(archive));
    }

    @Test
    void twoJarsSideBySideHaveAnArchiveEach(@TempDir Path dir) {
        assertTrue(ServerProcess.cdsOptions(dir.resolve("before.jar")).contains("-XX:SharedArchiveFile=" + dir.resolve("before-serve.jsa").toAbsolutePath()));
        assertTrue(ServerProcess.cdsOptions(dir.resolve("after.jar")).contains("-XX:SharedArchiveFile=" + dir.resolve("after-serve.jsa").toAbsolutePath()));
    }

    /** Writes the jar and the archive beside it, modified at the given instants; returns the archive. */
    private static Path jarAndArchive(Path jar, String jarModified, String archiveModified) throws IOException {
        Files.writeString(jar, "jar");
        Path archive = Files.writeString(jar.resolveSibling("ledgerlink-serve.jsa"), "archive");
        Files.setLastModifiedTime(jar, FileTime.from(Instant.parse(jarModified)));
        Files.setLastModifiedTime(archive, FileTime.from(Instant.parse(archiveModified)));
        return archive;
    }
}
