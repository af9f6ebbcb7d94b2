package dev.ledgerlink.consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The Maven repository `mvn deploy` wrote (scripts/dist: dist/maven; the suite: target/maven-repo), as an
 * integration developer takes it: project/ (a JUnit test with LedgerlinkSandbox and the client) is
 * built offline (`mvn -o`), its only repository being that folder. Its local repository is new and holds
 * no ledgerlink artifact: everything else in it is a link to this machine's Maven cache (where the
 * third-party libraries and plugins already are), except dev/ledgerlink, so ledgerlink can come from the
 * folder alone.
 */
class MavenRepositoryTest {
    private static final Path REPO = Path.of(System.getProperty("ledgerlink.maven-repo"));
    private static final String VERSION = System.getProperty("ledgerlink.version");
    private static final Path TARGET = Path.of("target").toAbsolutePath();

    @Test
    void theFolderHoldsEveryPublishedModuleWithSourcesAndJavadoc() throws IOException {
        for (String module : List.of("signature", "h2-fix", "server", "client", "sandbox", "testcontainers", "parent")) {
            Path dir = REPO.resolve("dev/ledgerlink/ledgerlink-" + module + "/" + VERSION);
            assertTrue(Files.exists(dir.resolve("maven-metadata.xml")), dir + "/maven-metadata.xml");
            assertTrue(names(dir).stream().anyMatch(n -> n.endsWith(".pom")), module + "'s POM");
        }
        for (String module : List.of("signature", "h2-fix", "server", "client", "sandbox", "testcontainers")) {
            List<String> files = names(REPO.resolve("dev/ledgerlink/ledgerlink-" + module + "/" + VERSION));
            for (String classifier : List.of("-sources.jar", "-javadoc.jar")) {
                assertTrue(files.stream().anyMatch(n -> n.endsWith(classifier)), module + classifier + " in " + files);
            }
        }
        assertTrue(names(REPO.resolve("dev/ledgerlink")).stream().noneMatch(n -> n.contains("bench") || n.contains("deploy") || n.contains("consumer")),
                "only the published modules");
    }

    @Test
    void aProjectBuildsOfflineAgainstTheFolderAlone() throws Exception {
        Path project = TARGET.resolve("consumer-project");
        copy(Path.of("project"), project);
        Path local = TARGET.resolve("consumer-local-repository");
        linkMachineCacheExceptLedgerlink(Path.of(System.getProperty("maven.local-repo")), local);
        Path settings = TARGET.resolve("consumer-settings.xml");
        Files.writeString(settings, """
                <settings>
                  <profiles><profile><id>ledgerlink</id><repositories><repository>
                    <id>ledgerlink</id><url>%s</url>
                    <releases><enabled>true</enabled></releases><snapshots><enabled>true</enabled></snapshots>
                  </repository></repositories></profile></profiles>
                  <activeProfiles><activeProfile>ledgerlink</activeProfile></activeProfiles>
                </settings>
                """.formatted(REPO.toUri()));
        Path log = TARGET.resolve("consumer-build.log");
        // -o: no network. The file: protocol stays allowed (aether.offline.protocols): the folder is a file: URL.
        ProcessBuilder build = new ProcessBuilder("mvn", "-o", "-Daether.offline.protocols=file", "-B", "-ntp", "-Dstyle.color=never",
                "-s", settings.toString(), "-Dmaven.repo.local=" + local, "-Dledgerlink.version=" + VERSION,
                "-Djunit.version=" + System.getProperty("junit.version"), "test")
                .directory(project.toFile()).redirectErrorStream(true).redirectOutput(log.toFile());
        build.environment().put("JAVA_HOME", System.getProperty("java.home"));   // this JVM's JDK (21 or later)
        Process mvn = build.start();
        assertTrue(mvn.waitFor(10, TimeUnit.MINUTES), "the consumer build ends");
        String output = Files.readString(log);
        assertEquals(0, mvn.exitValue(), output);
        assertTrue(output.contains("Tests run: 1, Failures: 0, Errors: 0, Skipped: 0"), output);
        // Where the ledgerlink artifacts came from: the folder (its repository id), into the new local repository.
        for (String module : List.of("sandbox", "client", "server", "signature")) {
            Path resolved = local.resolve("dev/ledgerlink/ledgerlink-" + module + "/" + VERSION);
            assertTrue(Files.readString(resolved.resolve("_remote.repositories"))
                    .contains(">ledgerlink="), module + " resolved from the folder");
        }
    }

    /** A new local repository: a link to each entry of the machine's, dev/ledgerlink excepted. */
    private static void linkMachineCacheExceptLedgerlink(Path machine, Path local) throws IOException {
        deleteTree(local);
        Files.createDirectories(local.resolve("dev"));
        for (String entry : names(machine)) {
            if (!entry.equals("dev")) Files.createSymbolicLink(local.resolve(entry), machine.resolve(entry));
        }
        if (Files.isDirectory(machine.resolve("dev"))) {
            for (String entry : names(machine.resolve("dev"))) {
                if (!entry.equals("ledgerlink")) Files.createSymbolicLink(local.resolve("dev").resolve(entry), machine.resolve("dev").resolve(entry));
            }
        }
    }

    private static List<String> names(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).toList();
        }
    }

    private static void copy(Path from, Path to) throws IOException {
        deleteTree(to);
        try (Stream<Path> s = Files.walk(from)) {
            for (Path p : s.toList()) {
                Path dest = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) Files.createDirectories(dest);
                else Files.copy(p, dest);
            }
        }
    }

    private static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir, java.nio.file.LinkOption.NOFOLLOW_LINKS)) return;
        // Links are deleted as links: the machine's cache behind them stays untouched.
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : s.sorted(java.util.Comparator.reverseOrder()).toList()) Files.delete(p);
        }
    }
}
