package dev.ledgerlink.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The Standard Webhooks reference library for JavaScript (npm standardwebhooks, pinned), run by node,
 * so tests check our signatures with code we did not write. Installed once per build into
 * server/target/standardwebhooks-js (node and npm must be on PATH; scripts/ensure-node installs them).
 */
public final class StandardWebhooksLibrary {
    public static final String PACKAGE = "standardwebhooks@1.1.1";
    private static final Path DIR = Path.of("target", "standardwebhooks-js").toAbsolutePath();

    private StandardWebhooksLibrary() {}

    /** The verified payload; AssertionError with the library's reason when it refuses. */
    public static JsonNode verify(String secret, Map<String, String> headers, String body, Long nowSeconds) {
        Path script = install();
        ObjectNode input = TestHttp.JSON.createObjectNode();
        input.put("secret", secret);
        input.set("headers", TestHttp.JSON.valueToTree(headers));
        input.put("body", body);
        if (nowSeconds != null) input.put("now", nowSeconds);
        String out = run(List.of("node", script.toString()), input.toString());
        try {
            JsonNode result = TestHttp.JSON.readTree(out);
            if (!result.path("ok").asBoolean()) throw new AssertionError("standardwebhooks refused the message: " + result.path("error").asText());
            return result.get("payload");
        } catch (IOException e) {
            throw new AssertionError("unexpected output of verify.mjs: " + out, e);
        }
    }

    private static Path install() {
        return install("verify.mjs");
    }

    /** The library installed, and {@code script} (a resource of standardwebhooks/) copied beside it: its path, for node. */
    public static synchronized Path install(String name) {
        Path script = DIR.resolve(name);
        try {
            Files.createDirectories(DIR);
            try (InputStream in = StandardWebhooksLibrary.class.getResourceAsStream("/standardwebhooks/" + name)) {
                Files.write(script, in.readAllBytes());
            }
            InstallLock.holding(DIR, () -> {
                if (Files.isDirectory(DIR.resolve("node_modules/standardwebhooks"))) return;
                Files.writeString(DIR.resolve("package.json"), "{\"private\": true, \"type\": \"module\"}\n");
                run(List.of("npm", "install", "--no-audit", "--no-fund", "--silent", PACKAGE), "");
            });
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return script;
    }

    private static String run(List<String> command, String stdin) {
        try {
            Process p = new ProcessBuilder(command).directory(DIR.toFile()).redirectErrorStream(false).start();
            p.getOutputStream().write(stdin.getBytes(StandardCharsets.UTF_8));
            p.getOutputStream().close();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(120, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new AssertionError(command + " did not finish");
            }
            if (p.exitValue() != 0 && out.isBlank()) throw new AssertionError(command + " failed (" + p.exitValue() + "): " + err);
            return out;
        } catch (IOException e) {
            throw new AssertionError("cannot run " + command + " (is node installed? scripts/ensure-node): " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
