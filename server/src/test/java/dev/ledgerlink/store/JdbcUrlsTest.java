package dev.ledgerlink.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ledgerlink.config.ConfigurationException;
import org.junit.jupiter.api.Test;

class JdbcUrlsTest {
    @Test
    void aPlainH2FileUrlBecomesShareableBetweenProcesses() {
        String u = JdbcUrls.normalize("jdbc:h2:file:./data/ledgerlink");
        assertTrue(u.contains(";AUTO_SERVER=TRUE"), u);
        assertTrue(u.contains(";MODE=PostgreSQL"), u);
    }

    @Test
    void anEmbeddedH2FileGetsAPageCacheSizedForTheHeapUnlessTheUrlSetsOne() {
        assertTrue(JdbcUrls.normalize("jdbc:h2:file:./data/ledgerlink").contains(";CACHE_SIZE=8192"));
        String own = JdbcUrls.normalize("jdbc:h2:file:./data/ledgerlink;CACHE_SIZE=65536");
        assertTrue(own.contains(";CACHE_SIZE=65536") && !own.contains("CACHE_SIZE=8192"), own);
        assertFalse(JdbcUrls.normalize("jdbc:h2:mem:x").contains("CACHE_SIZE"));
        assertFalse(JdbcUrls.normalize("jdbc:h2:tcp://localhost/~/x").contains("CACHE_SIZE"));
    }

    @Test
    void inMemoryAndRemoteH2AreNotMadeAutoServer() {
        assertFalse(JdbcUrls.normalize("jdbc:h2:mem:x").contains("AUTO_SERVER"));
        assertFalse(JdbcUrls.normalize("jdbc:h2:tcp://localhost/~/x").contains("AUTO_SERVER"));
    }

    @Test
    void settingsTheOperatorGaveAreKept() {
        String u = JdbcUrls.normalize("jdbc:h2:file:/tmp/x;AUTO_SERVER=FALSE;MODE=Regular");
        assertFalse(u.contains("AUTO_SERVER=TRUE"));
        assertFalse(u.contains("MODE=PostgreSQL"));
    }

    @Test
    void everyH2UrlCommitsToTheFileBeforeTheCommitReturns() {
        for (String url : new String[] {"jdbc:h2:file:./data/ledgerlink", "jdbc:h2:./x;AUTO_SERVER=FALSE",
                "jdbc:h2:tcp://localhost/~/x", "jdbc:h2:mem:x", "JDBC:H2:FILE:/tmp/x;write_delay=0"}) {
            String u = JdbcUrls.normalize(url).toLowerCase(java.util.Locale.ROOT);
            assertTrue(u.contains(";write_delay=0"), u);
            assertEquals(u.indexOf(";write_delay="), u.lastIndexOf(";write_delay="), u);
        }
    }

    @Test
    void anH2UrlThatDelaysCommitsIsRefusedNamingTheSetting() {
        var e = assertThrows(ConfigurationException.class, () -> JdbcUrls.normalize("jdbc:h2:file:/tmp/x;WRITE_DELAY=500"));
        assertTrue(e.getMessage().contains("db.url") && e.getMessage().contains("WRITE_DELAY=500"), e.getMessage());
    }

    @Test
    void postgresUrlsPassUnchanged() {
        assertEquals("jdbc:postgresql://db:5432/ledgerlink", JdbcUrls.normalize("jdbc:postgresql://db:5432/ledgerlink"));
        assertEquals(Database.Dialect.POSTGRESQL, JdbcUrls.dialect("jdbc:postgresql://db/x"));
    }

    @Test
    void otherDatabasesAreRefusedByName() {
        var e = assertThrows(ConfigurationException.class, () -> JdbcUrls.normalize("jdbc:mysql://x/y"));
        assertTrue(e.getMessage().contains("db.url"));
        assertThrows(ConfigurationException.class, () -> JdbcUrls.normalize(" "));
    }

    @Test
    void theDataFileOfAnEmbeddedH2UrlFollowsH2sNamingRules() {
        assertEquals(java.util.Optional.of(java.nio.file.Path.of("/tmp/x.mv.db")), JdbcUrls.h2DataFile("jdbc:h2:file:/tmp/x;AUTO_SERVER=TRUE"));
        assertEquals(java.util.Optional.of(java.nio.file.Path.of("/tmp/y.mv.db")), JdbcUrls.h2DataFile("jdbc:h2:/tmp/y"));
        assertEquals(java.util.Optional.of(java.nio.file.Path.of("data/z.mv.db").toAbsolutePath()), JdbcUrls.h2DataFile("jdbc:h2:./data/z"));
        assertEquals(java.util.Optional.of(java.nio.file.Path.of(System.getProperty("user.home"), "h.mv.db")), JdbcUrls.h2DataFile("jdbc:h2:~/h"));
        for (String none : new String[] {"jdbc:h2:mem:x", "jdbc:h2:tcp://localhost/~/x", "jdbc:h2:zip:/a.zip!/x", "jdbc:postgresql://db/x"}) {
            assertTrue(JdbcUrls.h2DataFile(none).isEmpty(), none);
        }
    }

    @Test
    void theExclusiveUrlKeepsTheOptionsButNotTheSharing() {
        String u = JdbcUrls.h2Exclusive(JdbcUrls.normalize("jdbc:h2:file:/tmp/x"), java.nio.file.Path.of("/tmp/x.rebuild.mv.db"));
        assertTrue(u.startsWith("jdbc:h2:file:/tmp/x.rebuild;"), u);
        assertTrue(u.contains(";MODE=PostgreSQL") && u.contains(";WRITE_DELAY=0") && u.endsWith(";AUTO_SERVER=FALSE"), u);
        assertFalse(u.contains("AUTO_SERVER=TRUE"), u);
    }
}
