package dev.ledgerlink.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Pattern;

/**
 * Checks real responses against openapi.json (the document the server serves): every JSON response
 * {@link TestHttp} receives for a documented operation must match the schema of its status (or the
 * operation's "default"); a JSON response with a status the operation does not document fails the
 * test that received it. The schemas are JSON Schema 2020-12 (OpenAPI 3.1's dialect), checked with
 * networknt json-schema-validator. Responses to undocumented paths are left to OpenApiDocumentTest,
 * which keeps the document equal to the route table.
 */
public final class OpenApiContract {
    public static final JsonNode DOCUMENT = load();
    private static final JsonSchemaFactory FACTORY = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012);
    private static final List<Operation> OPERATIONS = operations();
    private static final Map<String, JsonSchema> SCHEMAS = new ConcurrentHashMap<>();
    private static final AtomicInteger VALIDATED = new AtomicInteger();

    private record Operation(String method, String template, Pattern pattern, JsonNode node) {}

    private OpenApiContract() {}

    /** How many responses have been validated so far in this JVM. */
    public static int validated() {
        return VALIDATED.get();
    }

    /** Throws AssertionError when a JSON response does not match its documented schema. */
    public static void check(String method, String path, int status, String contentType, String body) {
        if (contentType == null || !contentType.toLowerCase(Locale.ROOT).startsWith("application/json")) return;
        Operation op = find(method, path);
        if (op == null) return;
        JsonNode responses = op.node().path("responses");
        String key = responses.has(Integer.toString(status)) ? Integer.toString(status) : "default";
        JsonNode response = responses.get(key);
        if (response == null) {
            throw new AssertionError("openapi.json: " + method + " " + op.template() + " does not document status " + status + " (body " + body + ")");
        }
        JsonNode schemaNode = response.path("content").path("application/json").path("schema");
        if (schemaNode.isMissingNode()) {
            throw new AssertionError("openapi.json: " + method + " " + op.template() + " " + key + " documents no JSON body, got " + body);
        }
        JsonSchema schema = SCHEMAS.computeIfAbsent(method + " " + op.template() + " " + key, k -> compile(schemaNode));
        JsonNode json;
        try {
            json = TestHttp.JSON.readTree(body);
        } catch (IOException e) {
            throw new AssertionError(method + " " + path + " -> " + status + " says JSON but is not: " + body, e);
        }
        Set<ValidationMessage> errors = schema.validate(json);
        if (!errors.isEmpty()) {
            throw new AssertionError("response of " + method + " " + path + " -> " + status + " does not match openapi.json ("
                    + op.template() + " " + key + "): " + errors + "\nbody: " + body);
        }
        VALIDATED.incrementAndGet();
    }

    /** The documented operation of a request, or null; a literal path wins over a template. */
    static Operation find(String method, String path) {
        String m = method.toLowerCase(Locale.ROOT);
        String p = path.length() > 1 && path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
        Operation best = null;
        for (Operation op : OPERATIONS) {
            if (!op.method().equals(m) || !op.pattern().matcher(p).matches()) continue;
            if (best == null || op.template().chars().filter(c -> c == '{').count() < best.template().chars().filter(c -> c == '{').count()) best = op;
        }
        return best;
    }

    /** Every (method, path template) the document describes, as "GET /path/{id}". */
    public static Set<String> documented() {
        Set<String> out = new java.util.TreeSet<>();
        for (Operation op : OPERATIONS) out.add(op.method().toUpperCase(Locale.ROOT) + " " + op.template());
        return out;
    }

    /** The response schema with the document's components as $defs, so its $refs resolve on their own. */
    private static JsonSchema compile(JsonNode schemaNode) {
        ObjectNode root = ((ObjectNode) schemaNode.deepCopy());
        root.put("$schema", "https://json-schema.org/draft/2020-12/schema");
        root.set("$defs", DOCUMENT.path("components").path("schemas").deepCopy());
        rewriteRefs(root);
        return FACTORY.getSchema(root);
    }

    private static void rewriteRefs(JsonNode node) {
        if (node instanceof ObjectNode o) {
            JsonNode ref = o.get("$ref");
            if (ref != null && ref.isTextual()) o.put("$ref", ref.asText().replace("#/components/schemas/", "#/$defs/"));
            for (Iterator<JsonNode> it = o.elements(); it.hasNext(); ) rewriteRefs(it.next());
        } else if (node.isArray()) {
            node.forEach(OpenApiContract::rewriteRefs);
        }
    }

    private static List<Operation> operations() {
        List<Operation> out = new ArrayList<>();
        DOCUMENT.path("paths").fields().forEachRemaining(path -> path.getValue().fields().forEachRemaining(method -> {
            String regex = Pattern.quote(path.getKey()).replaceAll("\\{[^}]+}", "\\\\E[^/]+\\\\Q");
            out.add(new Operation(method.getKey(), path.getKey(), Pattern.compile(regex), method.getValue()));
        }));
        return List.copyOf(out);
    }

    private static JsonNode load() {
        try (InputStream in = OpenApiContract.class.getResourceAsStream("/openapi.json")) {
            return TestHttp.JSON.readTree(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
