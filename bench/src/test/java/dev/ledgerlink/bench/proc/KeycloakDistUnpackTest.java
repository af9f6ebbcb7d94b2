package dev.ledgerlink.bench.proc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The peer comparison's unpacking of a Keycloak distribution zip, on small zips of the same layout
 * (Keycloak itself never runs in the test suite: it is fetched and started only by scripts/bench --peer keycloak).
 */
class KeycloakDistUnpackTest {

    @Test
    void unpacksTheDistributionOnceWithExecutableLaunchers(@TempDir Path dir) throws IOException {
        Map<String, String> entries = new LinkedHashMap<>();
        entries.put("keycloak-9.9.9/bin/kc.sh", "#!/bin/sh\n");
        entries.put("keycloak-9.9.9/version.txt", "Keycloak - Version 9.9.9\n");
        entries.put("keycloak-9.9.9/lib/quarkus-run.jar", "jar");
        Path zip = zip(dir.resolve("dist.zip"), entries);

        Path home = KeycloakProcess.unpack(zip, dir.resolve("work"));
        assertEquals(dir.resolve("work/keycloak-9.9.9").toAbsolutePath().normalize(), home);
        assertTrue(Files.isExecutable(home.resolve("bin/kc.sh")), "kc.sh executable");
        assertFalse(Files.isExecutable(home.resolve("version.txt")), "data files keep no exec bit");
        assertEquals("jar", Files.readString(home.resolve("lib/quarkus-run.jar")));

        // A second unpacking of the same zip keeps what is there (the marker says it is complete).
        Files.writeString(home.resolve("lib/quarkus-run.jar"), "built by a first start");
        assertEquals(home, KeycloakProcess.unpack(zip, dir.resolve("work")));
        assertEquals("built by a first start", Files.readString(home.resolve("lib/quarkus-run.jar")));
    }

    @Test
    void refusesAZipWithoutKcShAndEntriesOutsideTheDistribution(@TempDir Path dir) throws IOException {
        Path notKeycloak = zip(dir.resolve("other.zip"), Map.of("something/README", "x"));
        IOException none = assertThrows(IOException.class, () -> KeycloakProcess.unpack(notKeycloak, dir.resolve("a")));
        assertTrue(none.getMessage().contains("not a Keycloak distribution"), none.getMessage());

        Map<String, String> entries = new LinkedHashMap<>();
        entries.put("keycloak-9.9.9/bin/kc.sh", "#!/bin/sh\n");
        entries.put("keycloak-9.9.9/../escaped.txt", "outside");
        Path evil = zip(dir.resolve("evil.zip"), entries);
        IOException outside = assertThrows(IOException.class, () -> KeycloakProcess.unpack(evil, dir.resolve("b")));
        assertTrue(outside.getMessage().contains("outside"), outside.getMessage());
        assertFalse(Files.exists(dir.resolve("b/escaped.txt")), "nothing written outside the distribution");
    }

    private static Path zip(Path file, Map<String, String> entries) throws IOException {
        try (OutputStream out = Files.newOutputStream(file); ZipOutputStream z = new ZipOutputStream(out)) {
            for (var e : entries.entrySet()) {
                z.putNextEntry(new ZipEntry(e.getKey()));
                z.write(e.getValue().getBytes(StandardCharsets.UTF_8));
                z.closeEntry();
            }
        }
        return file;
    }
}
