package dev.ledgerlink.web;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ledgerlink.errors.EchoedInput;
import dev.ledgerlink.errors.ServiceException;
import dev.ledgerlink.oauth.OperatorGrant;
import io.javalin.http.Context;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Set;

/**
 * POST /sandbox/v1/tokens (development mode only, operator key): {@code ledgerlink tokens issue} over
 * HTTP, so a test in any language gets a user's tokens for an application without the browser
 * (docs/sandbox.md, "Tokens without a browser"). Body {@code {"user": EMAIL or ID, "client_id",
 * "scope": "a b"}} (scope optional: the application's); the answer is the token endpoint's.
 */
final class SandboxTokensHandler {
    private static final Set<String> FIELDS = Set.of("user", "client_id", "scope");

    private final OperatorGrant grant;
    private final OperatorAuth operator;

    SandboxTokensHandler(OperatorGrant grant, OperatorAuth operator) {
        this.grant = grant;
        this.operator = operator;
    }

    void issue(Context ctx) {
        operator.require(ctx);
        JsonNode body = RequestBodies.objectBody(ctx);
        List<ServiceException.FieldViolation> bad = new ArrayList<>();
        for (Iterator<String> it = body.fieldNames(); it.hasNext(); ) {
            String k = it.next();
            if (!FIELDS.contains(k)) bad.add(new ServiceException.FieldViolation(EchoedInput.printable(k, 40), "is not a field; known: client_id, scope, user"));
        }
        String user = RequestBodies.scalarText(body, "user");
        String clientId = RequestBodies.text(body, "client_id");
        String scope = RequestBodies.text(body, "scope");
        if (user == null || user.isBlank()) bad.add(new ServiceException.FieldViolation("user", "is required: the user's e-mail address or id"));
        if (clientId == null || clientId.isBlank()) bad.add(new ServiceException.FieldViolation("client_id", "is required: the application's client_id"));
        if (!bad.isEmpty()) throw ServiceException.invalid(bad);
        List<String> scopes = scope == null || scope.isBlank() ? List.of() : Arrays.asList(scope.trim().split("\\s+"));
        ctx.header("Cache-Control", "no-store").json(grant.issue(user.trim(), clientId.trim(), scopes).response());
    }
}
