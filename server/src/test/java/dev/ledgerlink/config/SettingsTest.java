package dev.ledgerlink.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SettingsTest {
    @TempDir
    Path dir;

    @Test
    void laterSourcesWinDefaultsThenFileThenEnvironmentThenFlags() throws Exception {
        Path file = dir.resolve("ledgerlink.properties");
        Files.writeString(file, "http.port=9000\ndelivery.timeout=PT5S\noauth.code-ttl=PT1M\n");
        Settings s = Settings.builder()
                .file(file)
                .environment(Map.of("LEDGERLINK_DELIVERY_TIMEOUT", "PT7S", "LEDGERLINK_OAUTH_CODE_TTL", "PT2M"))
                .set("oauth.code-ttl=PT3M")
                .build();
        assertEquals(9000, s.integer(Setting.HTTP_PORT));
        assertEquals(Duration.ofSeconds(7), s.duration(Setting.DELIVERY_TIMEOUT));
        assertEquals(Duration.ofMinutes(3), s.duration(Setting.AUTHORIZATION_CODE_TTL));
        assertEquals(Duration.ofHours(12), s.duration(Setting.ACCESS_TOKEN_TTL));
    }

    @Test
    void theDefaultRetryScheduleIsTheDocumentedOne() {
        assertEquals(List.of(Duration.ofMinutes(1), Duration.ofMinutes(5), Duration.ofMinutes(30), Duration.ofHours(2),
                Duration.ofHours(6), Duration.ofHours(12), Duration.ofHours(24)), Settings.defaults().durations(Setting.DELIVERY_RETRY_SCHEDULE));
    }

    @Test
    void environmentNamesFollowTheKey() {
        assertEquals("LEDGERLINK_DB_URL", Setting.DB_URL.envName());
        assertEquals("LEDGERLINK_OAUTH_REFRESH_REPLAY_WINDOW", Setting.REFRESH_REPLAY_WINDOW.envName());
    }

    @Test
    void unknownKeysAndBadValuesAreNamedErrors() throws Exception {
        Path file = dir.resolve("bad.properties");
        Files.writeString(file, "htttp.port=1\n");
        var e = assertThrows(ConfigurationException.class, () -> Settings.builder().file(file));
        assertTrue(e.getMessage().contains("htttp.port"));
        assertThrows(ConfigurationException.class, () -> Settings.builder().set("nosuch=1"));
        assertThrows(ConfigurationException.class, () -> Settings.builder().set("no-equals-sign"));
        var port = assertThrows(ConfigurationException.class, () -> Settings.builder().set(Setting.HTTP_PORT, "eighty").build().integer(Setting.HTTP_PORT));
        assertTrue(port.getMessage().contains("http.port"));
        var dur = assertThrows(ConfigurationException.class, () -> Settings.builder().set(Setting.DELIVERY_TIMEOUT, "10s").build().duration(Setting.DELIVERY_TIMEOUT));
        assertTrue(dur.getMessage().contains("ISO-8601"));
    }

    @Test
    void docsConfigurationListsEverySettingWithItsDefault() throws Exception {
        Path doc = Path.of("..", "docs", "configuration.md");
        String text = Files.readString(doc);
        for (Setting s : Setting.values()) {
            assertTrue(text.contains("`" + s.key() + "`"), "docs/configuration.md lacks " + s.key());
            assertTrue(text.contains("`" + s.envName() + "`"), "docs/configuration.md lacks " + s.envName());
            if (!s.defaultValue().isEmpty()) {
                assertTrue(text.contains("`" + s.defaultValue() + "`"), "docs/configuration.md lacks the default of " + s.key());
            }
        }
    }
}
