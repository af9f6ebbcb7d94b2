package dev.ledgerlink.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ledgerlink.client.LedgerlinkClient;
import dev.ledgerlink.client.Tokens;
import java.time.Duration;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * deploy/compose.yaml as it is, run with podman-compose (Debian's 1.0.3): two ledgerlink nodes and
 * PostgreSQL (the test's image from Debian's package, deploy/test/postgres.Containerfile) on a bridge
 * network of their own. Only the images and the ports on the host come from the environment, as the
 * file's comment says. The nodes share the database and the secrets key: an application made with the
 * CLI on one node is listed by the other's admin API, and a refresh token issued on one is exchanged
 * at the other's token endpoint. The schema is the one-shot migrate service's to apply, the nodes'
 * migrations off.
 */
class ComposeTest {

    @Test
    void twoNodesShareOnePostgresql() throws Exception {
        String project = Podman.uniqueName("compose").replace('-', '_');
        Map<String, String> env = new HashMap<>(Podman.ENV);
        env.put("LEDGERLINK_IMAGE", ContainerImages.ledgerlink());
        env.put("POSTGRES_IMAGE", ContainerImages.postgres());
        env.put("POSTGRES_PASSWORD", Servers.randomKey(18));
        env.put("LEDGERLINK_SECRETS_KEY", Base64.getEncoder().encodeToString(Servers.randomBytes(32)));
        String operatorKey = Servers.randomKey(30);
        env.put("LEDGERLINK_EVENTS_OPERATOR_KEY", operatorKey);
        int[] ports = {Sh.freePort(), Sh.freePort(), Sh.freePort(), Sh.freePort()};
        env.put("LEDGERLINK_1_PORT", Integer.toString(ports[0]));
        env.put("LEDGERLINK_1_MANAGEMENT_PORT", Integer.toString(ports[1]));
        env.put("LEDGERLINK_2_PORT", Integer.toString(ports[2]));
        env.put("LEDGERLINK_2_MANAGEMENT_PORT", Integer.toString(ports[3]));
        String node1 = "http://127.0.0.1:" + ports[0], node2 = "http://127.0.0.1:" + ports[2];
        String file = Sh.ROOT.resolve("deploy/compose.yaml").toString();
        try {
            Sh.run(env, null, Duration.ofMinutes(5), "podman-compose", "-p", project, "-f", file, "up", "-d").ok();
            Servers.awaitReady("http://127.0.0.1:" + ports[1]);
            Servers.awaitReady("http://127.0.0.1:" + ports[3]);
            String c1 = project + "_ledgerlink-1_1", c2 = project + "_ledgerlink-2_1", migrate = project + "_migrate_1";
            assertTrue(Podman.logs(c1).contains("database postgresql") && Podman.logs(c2).contains("database postgresql"));
            // The one-shot migrate service applied the schema and exited 0; the nodes, migrating nothing, waited for it if they came first.
            assertEquals("0", Podman.ok("inspect", "--format", "{{.State.ExitCode}}", migrate), Podman.logs(migrate));
            assertTrue(Podman.logs(migrate).contains("the schema is current"), Podman.logs(migrate));
            for (String node : List.of(c1, c2)) assertTrue(Podman.logs(node).contains("db.migrate=never"), Podman.logs(node));

            // The CLI in node 1's container works on the shared database; node 2's admin API sees the result.
            JsonNode app = Servers.json(Podman.ok("exec", c1, "ledgerlink", "apps", "create", "--name", "Compose Sync",
                    "--redirect-uri", "https://sync.example.com/callback", "--scope", "user:profile:read", "--json"));
            String clientId = app.path("client_id").asText(), secret = app.path("client_secret").asText();
            var listed = Servers.get(node2 + "/internal/v1/admin/applications?per_page=100", operatorKey);
            assertEquals(200, listed.statusCode(), listed.body());
            assertTrue(listed.body().contains(clientId), listed.body());

            Podman.ok("exec", c2, "bash", "-c", "echo 'a long compose passphrase' | ledgerlink users create --email ana@example.com "
                    + "--password-stdin --first-name Ana");
            String refresh = Servers.json(Podman.ok("exec", c1, "ledgerlink", "tokens", "issue", "--user", "ana@example.com",
                    "--app", clientId, "--json")).path("refresh_token").asText();
            // Exchanged at node 2, used at node 1.
            Tokens tokens = LedgerlinkClient.builder(node2, clientId, secret, "https://sync.example.com/callback").build().refresh(refresh);
            LedgerlinkClient atNode1 = LedgerlinkClient.builder(node1, clientId, secret, "https://sync.example.com/callback").build();
            assertEquals("Ana", atNode1.me(tokens.accessToken()).firstName());
        } finally {
            // podman-compose 1.0.3's down leaves the anonymous volumes of the image's VOLUME: the containers go first, with theirs.
            Podman.run("ps", "--all", "--quiet", "--filter", "label=io.podman.compose.project=" + project).out().lines()
                    .filter(id -> !id.isBlank()).forEach(Podman::remove);
            Sh.run(env, null, Duration.ofMinutes(3), "podman-compose", "-p", project, "-f", file, "down", "--volumes", "--timeout", "10");
            Podman.run("network", "rm", "--force", project + "_default");   // podman-compose 1.0.3 leaves it
        }
        assertTrue(Podman.ok("ps", "--all", "--format", "{{.Names}}").lines().noneMatch(n -> n.startsWith(project)), "compose down removed the containers");
    }
}
