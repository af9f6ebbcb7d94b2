package dev.ledgerlink.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ledgerlink.client.LedgerlinkClient;
import dev.ledgerlink.client.Tokens;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The release archive on a machine without Java: unpacked into a temporary directory and run with a
 * PATH that holds no java (only the two tools the launcher calls) and no JAVA_HOME.
 */
class ArchiveTest {
    @TempDir
    Path dir;

    @Test
    void theArchiveRunsTheServerAndTheCommandsWithItsOwnRuntime() throws Exception {
        Path archive = ContainerImages.archive();
        Sh.run(Duration.ofMinutes(2), "tar", "-xzf", archive.toString(), "-C", dir.toString()).ok();
        Path home = dir.resolve("ledgerlink-" + ContainerImages.version());
        for (String f : List.of("bin/ledgerlink", "lib/ledgerlink.jar", "lib/jvm.options", "runtime/bin/java", "ledgerlink.properties",
                "README.md", "LICENSE", "NOTICE", "sbom.cdx.json", "legal/THIRD-PARTY.txt", "legal/java-runtime/java.base")) {
            assertTrue(Files.exists(home.resolve(f)), f + " in the archive");
        }
        assertTrue(Files.readString(home.resolve("legal/THIRD-PARTY.txt")).contains("io.javalin:javalin"));
        assertTrue(Files.readString(home.resolve("LICENSE")).contains("Apache License"));
        assertTrue(Files.readString(home.resolve("NOTICE")).contains("MPL 2.0") || Files.readString(home.resolve("NOTICE")).contains("Mozilla Public License 2.0"));
        // The bill of materials: CycloneDX, the server and what its jar bundles, the H2 fix with H2's licences among them.
        JsonNode sbom = Servers.json(Files.readString(home.resolve("sbom.cdx.json")));
        assertEquals("CycloneDX", sbom.path("bomFormat").asText());
        assertEquals("ledgerlink-server", sbom.at("/metadata/component/name").asText());
        List<String> components = new java.util.ArrayList<>();
        sbom.path("components").forEach(c -> components.add(c.path("purl").asText()));
        assertTrue(components.stream().anyMatch(p -> p.startsWith("pkg:maven/io.javalin/javalin@")), components.toString());
        assertTrue(components.stream().anyMatch(p -> p.startsWith("pkg:maven/dev.ledgerlink/ledgerlink-h2-fix@")), components.toString());
        // jlink's runtime: only the modules of deploy/archive/modules, not a whole JDK.
        String modules = Files.readString(home.resolve("runtime/release"));
        assertTrue(modules.contains("java.sql") && !modules.contains("jdk.compiler"), modules);

        Path tools = Files.createDirectories(dir.resolve("tools"));
        for (String tool : List.of("dirname", "readlink")) Files.createSymbolicLink(tools.resolve(tool), Path.of("/usr/bin", tool));
        Map<String, String> env = new HashMap<>();
        env.put("PATH", tools.toString());
        env.put("HOME", dir.toString());
        Path data = dir.resolve("data");
        String launcher = home.resolve("bin/ledgerlink").toString();
        assertNotEquals(0, Sh.run(env, false, dir, Duration.ofSeconds(10), "/bin/sh", "-c", "command -v java").exit(), "no java on the PATH");

        String version = run(env, launcher, "--version");
        assertTrue(version.contains("(commit " + ContainerImages.commit()), version);

        int port = Sh.freePort();
        ProcessBuilder pb = new ProcessBuilder(launcher, "serve", "--dev", "--port", Integer.toString(port), "--data-dir", data.toString())
                .redirectErrorStream(true).redirectOutput(dir.resolve("serve.log").toFile());
        pb.environment().clear();
        pb.environment().putAll(env);
        Process server = pb.start();
        try {
            String base = "http://127.0.0.1:" + port;
            Servers.awaitReady(base);
            String account = Servers.json(run(env, launcher, "accounts", "create", "--name", "Ana's Books", "--json", "--data-dir", data.toString()))
                    .path("account_id").asText();
            run(env, launcher, "accounts", "add-member", "--account", account, "--user", "demo@ledgerlink.test", "--role", "owner", "--data-dir", data.toString());
            JsonNode app = Servers.json(run(env, launcher, "apps", "create", "--name", "Sync", "--redirect-uri", "https://sync.example.com/callback",
                    "--scope", "user:profile:read", "--json", "--data-dir", data.toString()));
            assertTrue(run(env, launcher, "users", "list", "--data-dir", data.toString()).contains("demo@ledgerlink.test"));
            String clientId = app.path("client_id").asText(), secret = app.path("client_secret").asText();
            String refresh = Servers.json(run(env, launcher, "tokens", "issue", "--user", "demo@ledgerlink.test", "--app", clientId, "--json",
                    "--data-dir", data.toString())).path("refresh_token").asText();

            // A token exchange at the token endpoint (the refresh grant, with the app's credentials), then the API.
            LedgerlinkClient client = LedgerlinkClient.builder(base, clientId, secret, "https://sync.example.com/callback").build();
            Tokens tokens = client.refresh(refresh);
            assertEquals("demo@ledgerlink.test", client.me(tokens.accessToken()).email());
            assertTrue(client.me(tokens.accessToken()).memberships().stream().anyMatch(m -> m.accountId().equals(account)));
        } finally {
            server.destroy();   // SIGTERM: the launcher exec'd the JVM, so it is the JVM that gets it
            assertTrue(server.waitFor(60, TimeUnit.SECONDS), "the server stops on SIGTERM");
        }
        assertEquals(0, server.exitValue(), Files.readString(dir.resolve("serve.log")));
        assertTrue(Files.readString(dir.resolve("serve.log")).contains("shutting down"));
        assertTrue(Files.readString(dir.resolve("serve.log")).contains("with ledgerlink's fix of its commit"), "the application jar's H2 runs the fix");
    }

    private String run(Map<String, String> env, String... command) {
        return Sh.run(env, false, dir, Duration.ofMinutes(2), command).ok().out();
    }
}
