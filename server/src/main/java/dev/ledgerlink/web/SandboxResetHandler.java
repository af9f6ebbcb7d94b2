package dev.ledgerlink.web;

import dev.ledgerlink.sandbox.ResetJson;
import dev.ledgerlink.sandbox.SandboxReset;
import io.javalin.http.Context;
import java.util.Map;

/**
 * Development mode's reset under /sandbox/v1/reset (docs/sandbox.md), with the operator key as
 * bearer; registered only in development mode, so they answer 404 otherwise.
 */
final class SandboxResetHandler {
    private final SandboxReset reset;
    private final OperatorAuth operator;

    SandboxResetHandler(SandboxReset reset, OperatorAuth operator) {
        this.reset = reset;
        this.operator = operator;
    }

    /** POST /sandbox/v1/reset: back to the seed files' state (or empty with demo data), without a restart. */
    void reset(Context ctx) {
        operator.require(ctx);
        ctx.json(Map.of("reset", ResetJson.of(reset.reset())));
    }
}
