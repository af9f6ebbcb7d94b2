package dev.ledgerlink.bench.proc;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The harness treats the launcher's class-data-sharing archive as the launcher does. */
class CdsArchiveTest {

    @Test
    void anArchiveOlderThanTheJarIsDeletedSoTheServerWritesANewOne(@TempDir Path dir) throws Exception {
        Path jar = Files.writeString(dir.resolve("ledgerlink.jar"), "jar");
        Path archive = Files.writeString(dir.resolve("ledgerlink-serve.jsa"), "archive");
        Files.setLastModifiedTime(archive, FileTime.from(Instant.parse("2026-11-24T12:00:00Z")));
        Files.setLastModifiedTime(jar, FileTime.from(Instant.parse("2026-11-24T13:00:00Z")));

        assertTrue(ServerProcess.cdsOptions(jar).contains("-XX:SharedArchiveFile=" + archive.toAbsolutePath()));
        assertFalse(Files.exists(archive), "the JVM neither uses nor replaces an archive of an older jar");
    }

    @Test
    void anArchiveNewerThanTheJarIsKept(@TempDir Path dir) throws Exception {
        Path jar = Files.writeString(dir.resolve("ledgerlink.jar"), "jar");
        Path archive = Files.writeString(dir.resolve("ledgerlink-serve.jsa"), "archive");
        Files.setLastModifiedTime(jar, FileTime.from(Instant.parse("2026-11-24T12:00:00Z")));
        Files.setLastModifiedTime(archive, FileTime.from(Instant.parse("2026-11-24T13:00:00Z")));

        ServerProcess.cdsOptions(jar);
        assertTrue(Files.exists(archive));
    }
}
