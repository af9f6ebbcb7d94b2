package dev.ledgerlink.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * deploy/kubernetes/ with `podman kube play` (podman 4.3): the Deployment runs, on the ConfigMap and the
 * Secret, against an external PostgreSQL (the test's PostgreSQL container). What a test of one machine
 * changes, and nothing else: the values an operator fills in (database address, secrets, image), one
 * replica with host ports (two pods cannot share them here), and unique names. podman 4.3 ignores
 * Service and PodDisruptionBudget, and stores a Secret document as YAML that it then cannot read back
 * ("secret ... is not valid JSON"): the test makes the podman secrets from the Secret documents itself,
 * in the form podman reads (a JSON map of base64 values), and checks the kinds podman ignores
 * against the Deployment they describe; and its init container is kept rather than removed (podman
 * 4.3 tried to remove it once it had exited, after the pod's restart policy had started it again).
 */
class KubernetesTest {
    private static final YAMLMapper YAML = new YAMLMapper();

    @TempDir
    Path dir;

    @Test
    void theManifestsDescribeOneConsistentDeployment() throws Exception {
        Map<String, JsonNode> docs = manifests();
        JsonNode deployment = docs.get("Deployment/ledgerlink"), container = deployment.at("/spec/template/spec/containers/0");
        JsonNode labels = deployment.at("/spec/template/metadata/labels");
        assertEquals(deployment.at("/spec/selector/matchLabels"), labels);
        assertEquals(labels, docs.get("PodDisruptionBudget/ledgerlink").at("/spec/selector/matchLabels"));
        assertEquals(1, docs.get("PodDisruptionBudget/ledgerlink").at("/spec/minAvailable").asInt());
        List<String> portNames = new ArrayList<>();
        container.path("ports").forEach(p -> portNames.add(p.path("name").asText()));
        for (String service : List.of("Service/ledgerlink", "Service/ledgerlink-management")) {
            assertEquals(labels, docs.get(service).at("/spec/selector"), service);
            docs.get(service).at("/spec/ports").forEach(p -> assertTrue(portNames.contains(p.path("targetPort").asText()), service));
        }
        assertEquals("/readyz", container.at("/readinessProbe/httpGet/path").asText());
        assertEquals("/healthz", container.at("/livenessProbe/httpGet/path").asText());
        assertEquals("management", container.at("/readinessProbe/httpGet/port").asText());
        assertEquals("management", container.at("/livenessProbe/httpGet/port").asText());
        JsonNode config = docs.get("ConfigMap/ledgerlink").path("data");
        assertEquals(port(container, "management"), config.path("LEDGERLINK_MANAGEMENT_PORT").asInt());
        assertEquals(port(container, "http"), config.path("LEDGERLINK_HTTP_PORT").asInt());
        assertEquals(10001, deployment.at("/spec/template/spec/securityContext/runAsUser").asInt(), "the image's user");
        assertEquals("RuntimeDefault", deployment.at("/spec/template/spec/securityContext/seccompProfile/type").asText());
        JsonNode spread = deployment.at("/spec/template/spec/topologySpreadConstraints/0");
        assertEquals("kubernetes.io/hostname", spread.path("topologyKey").asText(), "replicas spread across nodes");
        assertEquals(labels, spread.at("/labelSelector/matchLabels"));
        // The image is named in one place: kustomization.yaml's images: maps the Deployment's placeholder name.
        assertEquals(container.path("image").asText(), kustomization().at("/images/0/name").asText());
        // Every key of the Secrets is a setting the server reads from its environment.
        for (String secret : List.of("Secret/ledgerlink", "Secret/ledgerlink-migrate")) {
            docs.get(secret).path("stringData").fieldNames().forEachRemaining(k -> assertTrue(k.startsWith("LEDGERLINK_"), k));
        }
        // The migrate step before the server, under the migrating user; the server migrates nothing, and a
        // long start is the startup probe's, never liveness's.
        JsonNode migrate = deployment.at("/spec/template/spec/initContainers/0");
        assertEquals("migrate", migrate.path("name").asText());
        assertEquals("[\"db\",\"migrate\"]", migrate.path("args").toString());
        assertEquals(container.path("image"), migrate.path("image"));
        assertEquals("ledgerlink-migrate", migrate.at("/envFrom/2/secretRef/name").asText(), "its user and password override the server's");
        assertEquals("never", config.path("LEDGERLINK_DB_MIGRATE").asText());
        assertEquals("/healthz", container.at("/startupProbe/httpGet/path").asText());
        assertEquals("management", container.at("/startupProbe/httpGet/port").asText());
        assertTrue(container.at("/startupProbe/periodSeconds").asInt() * container.at("/startupProbe/failureThreshold").asInt() >= 600,
                "the startup probe allows db.migrate-wait (10 minutes)");
        assertTrue(container.at("/livenessProbe/initialDelaySeconds").isMissingNode(), "liveness waits for the startup probe instead");
    }

    @Test
    void podmanKubePlayRunsTheDeploymentOnAnExternalPostgresql() throws Exception {
        String image = ContainerImages.ledgerlink(), postgresImage = ContainerImages.postgres();
        String name = Podman.uniqueName("kube"), database = name + "-postgres";
        String password = Servers.randomKey(18), appPassword = Servers.randomKey(18), operatorKey = Servers.randomKey(30);
        int http = Sh.freePort(), management = Sh.freePort();
        Map<String, JsonNode> docs = manifests();
        Path played = dir.resolve("kubernetes.yaml"), secret = dir.resolve("secret.json");
        try {
            // The database's owner migrates; the nodes' user is made with deploy/postgres/grants.sql, as docs/operations.md says.
            Podman.ok("run", "--detach", "--name", database, "--env", "POSTGRES_USER=ledgerlink_migrate", "--env", "POSTGRES_PASSWORD=" + password,
                    "--env", "POSTGRES_DB=ledgerlink", postgresImage);
            String address = Podman.ok("inspect", "--format", "{{.NetworkSettings.IPAddress}}", database);
            long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();   // a hang, not a timing check
            while (Podman.run("exec", database, "psql", "-U", "ledgerlink_migrate", "-d", "ledgerlink", "-c", "select 1").exit() != 0) {
                if (System.nanoTime() > deadline) throw new AssertionError("PostgreSQL in " + database + " never accepted a connection");
                Thread.sleep(200);
            }
            Podman.ok("exec", database, "psql", "-v", "ON_ERROR_STOP=1", "-U", "ledgerlink_migrate", "-d", "ledgerlink",
                    "-c", "create role ledgerlink_app login password '" + appPassword + "'",
                    "-c", Files.readString(Sh.ROOT.resolve("deploy/postgres/grants.sql")));

            ObjectNode config = (ObjectNode) docs.get("ConfigMap/ledgerlink");
            ((ObjectNode) config.path("metadata")).put("name", name);
            ((ObjectNode) config.path("data")).put("LEDGERLINK_DB_URL", "jdbc:postgresql://" + address + ":5432/ledgerlink")
                    .put("LEDGERLINK_BASE_URL", "http://127.0.0.1:" + http);
            Map<String, String> secrets = new HashMap<>();
            docs.get("Secret/ledgerlink").path("stringData").fieldNames().forEachRemaining(k -> secrets.put(k, ""));
            secrets.put("LEDGERLINK_SECRETS_KEY", Base64.getEncoder().encodeToString(Servers.randomBytes(32)));
            secrets.put("LEDGERLINK_EVENTS_OPERATOR_KEY", operatorKey);
            secrets.put("LEDGERLINK_DB_PASSWORD", appPassword);
            podmanSecret(name, secrets, secret);
            Map<String, String> migrating = new HashMap<>();
            docs.get("Secret/ledgerlink-migrate").path("stringData").fields().forEachRemaining(e -> migrating.put(e.getKey(), e.getValue().asText()));
            migrating.put("LEDGERLINK_DB_PASSWORD", password);
            podmanSecret(name + "-migrate", migrating, dir.resolve("migrate-secret.json"));

            ObjectNode deployment = (ObjectNode) docs.get("Deployment/ledgerlink");
            ((ObjectNode) deployment.path("metadata")).put("name", name);
            ((ObjectNode) deployment.path("spec")).put("replicas", 1);
            ObjectNode container = (ObjectNode) deployment.at("/spec/template/spec/containers/0");
            container.put("image", image);
            ArrayNode envFrom = (ArrayNode) container.path("envFrom");
            ((ObjectNode) envFrom.get(0).path("configMapRef")).put("name", name);
            ((ObjectNode) envFrom.get(1).path("secretRef")).put("name", name);
            // podman 4.3 removes an init container of the default type ("once") once it exited, but its restart policy
            // (the pod's: always) has started it again by then ("failed to remove once init container ... as it is
            // running"); of type "always" it is kept. Podman reads the annotation on the Deployment; Kubernetes ignores it.
            ((ObjectNode) deployment.path("metadata")).putObject("annotations").put("io.podman.annotations.init.container.type", "always");
            ObjectNode migrate = (ObjectNode) deployment.at("/spec/template/spec/initContainers/0");
            migrate.put("image", image);
            ArrayNode migrateEnv = (ArrayNode) migrate.path("envFrom");
            ((ObjectNode) migrateEnv.get(0).path("configMapRef")).put("name", name);
            ((ObjectNode) migrateEnv.get(1).path("secretRef")).put("name", name);
            ((ObjectNode) migrateEnv.get(2).path("secretRef")).put("name", name + "-migrate");
            container.path("ports").forEach(p -> ((ObjectNode) p).put("hostPort", p.path("name").asText().equals("http") ? http : management));
            StringBuilder yaml = new StringBuilder();
            for (JsonNode doc : List.of(config, deployment, docs.get("Service/ledgerlink"), docs.get("PodDisruptionBudget/ledgerlink"))) {
                yaml.append(YAML.writeValueAsString(doc));
            }
            Files.writeString(played, yaml);

            Podman.run(Duration.ofMinutes(5), "kube", "play", played.toString()).ok();
            Servers.awaitReady("http://127.0.0.1:" + management);
            String base = "http://127.0.0.1:" + http;
            var apps = Servers.get(base + "/internal/v1/admin/applications", operatorKey);
            assertEquals(200, apps.statusCode(), "the operator key from the Secret: " + apps.body());
            String pod = Podman.ok("ps", "--format", "{{.Names}}", "--filter", "pod=" + name + "-pod-0").lines()
                    .filter(n -> !n.contains("infra") && !n.endsWith("-migrate")).findFirst().orElseThrow();
            assertTrue(Podman.logs(pod).contains("database postgresql"), "on the external PostgreSQL");
            assertTrue(Podman.logs(pod).contains("this node applies no migration (db.migrate=never)"), Podman.logs(pod));
            String init = Podman.ok("ps", "--all", "--format", "{{.Names}}", "--filter", "pod=" + name + "-pod-0").lines()
                    .filter(n -> n.contains("migrate")).findFirst().orElseThrow(() -> new AssertionError("no migrate init container"));
            assertTrue(Podman.logs(init).contains("the schema is current"), "the init container migrated: " + Podman.logs(init));
            assertEquals("10001", Podman.ok("exec", pod, "id", "-u"));
        } finally {
            if (Files.exists(played)) Podman.run(Duration.ofMinutes(2), "kube", "down", played.toString());
            Podman.run("secret", "rm", name);
            Podman.run("secret", "rm", name + "-migrate");
            Podman.remove(database);
        }
    }

    /** A podman secret named {@code name} holding {@code values}, in the form podman reads back (a JSON map of base64 values). */
    private static void podmanSecret(String name, Map<String, String> values, Path file) throws Exception {
        ObjectNode podmanSecret = Servers.JSON.createObjectNode();
        values.forEach((k, v) -> podmanSecret.put(k, Base64.getEncoder().encodeToString(v.getBytes(StandardCharsets.UTF_8))));
        Files.writeString(file, podmanSecret.toString());
        Podman.ok("secret", "create", name, file.toString());
    }

    private static JsonNode kustomization() throws Exception {
        return YAML.readTree(Sh.ROOT.resolve("deploy/kubernetes/kustomization.yaml").toFile());
    }

    /** The documents of the files kustomization.yaml names, by kind and name. */
    private static Map<String, JsonNode> manifests() throws Exception {
        Map<String, JsonNode> docs = new HashMap<>();
        for (JsonNode file : kustomization().path("resources")) {
            try (var parser = YAML.getFactory().createParser(Sh.ROOT.resolve("deploy/kubernetes/" + file.asText()).toFile())) {
                var it = YAML.readValues(parser, JsonNode.class);
                while (it.hasNext()) {
                    JsonNode doc = it.next();
                    docs.put(doc.path("kind").asText() + "/" + doc.at("/metadata/name").asText(), doc);
                }
            }
        }
        return docs;
    }

    private static int port(JsonNode container, String name) {
        for (JsonNode p : container.path("ports")) if (p.path("name").asText().equals(name)) return p.path("containerPort").asInt();
        throw new AssertionError("no port " + name);
    }
}
