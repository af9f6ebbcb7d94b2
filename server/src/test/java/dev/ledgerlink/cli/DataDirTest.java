package dev.ledgerlink.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ledgerlink.config.Setting;
import dev.ledgerlink.config.Settings;
import dev.ledgerlink.store.Database;
import dev.ledgerlink.testing.FrontEnd;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** One data directory, resolved once, wherever the command runs from; a new database is announced. */
@FrontEnd
class DataDirTest {
    @Test
    void theFlagWinsOverTheEnvironmentWhichWinsOverDotData(@TempDir Path dir) {
        assertEquals(dir.resolve("a"), DataDir.resolve(dir.resolve("a"), dir.resolve("b").toString()));
        assertEquals(dir.resolve("b"), DataDir.resolve(null, dir.resolve("b").toString()));
        assertEquals(Path.of("data").toAbsolutePath().normalize(), DataDir.resolve(null, null));
    }

    @Test
    void theDefaultDatabaseAndKeyFileMoveIntoTheDataDirectoryButAConfiguredOneStays(@TempDir Path dir) {
        Settings.Builder b = Settings.builder();
        DataDir.apply(b, b.build(), dir);
        Settings s = b.build();
        assertEquals("jdbc:h2:file:" + dir.resolve("ledgerlink"), s.get(Setting.DB_URL));
        assertEquals(dir.resolve("ledgerlink.key").toString(), s.get(Setting.SECRETS_KEY_FILE));

        Settings.Builder configured = Settings.builder().set(Setting.DB_URL, "jdbc:postgresql://127.0.0.1:5432/x");
        DataDir.apply(configured, configured.build(), dir);
        assertEquals("jdbc:postgresql://127.0.0.1:5432/x", configured.build().get(Setting.DB_URL));
    }

    @Test
    void creatingANewDatabaseIsAnnouncedWithItsPathAndOpeningAnExistingOneIsNot(@TempDir Path dir) {
        Settings s = Settings.builder().set(Setting.DB_URL, "jdbc:h2:file:" + dir.resolve("ledgerlink")).build();
        String first = announce(s);
        assertTrue(first.contains(dir.resolve("ledgerlink.mv.db").toString()) && first.contains("new"), first);
        try (Database ignored = Database.open(s.get(Setting.DB_URL), "", "", 2, null)) {
            assertEquals("", announce(s));
        }
    }

    private static String announce(Settings s) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        DataDir.announceNewDatabase(s, new PrintStream(bytes, true, StandardCharsets.UTF_8));
        return bytes.toString(StandardCharsets.UTF_8);
    }
}
