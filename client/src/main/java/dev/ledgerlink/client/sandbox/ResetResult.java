package dev.ledgerlink.client.sandbox;

import java.util.List;
import java.util.Map;

/**
 * What a reset restored (docs/sandbox.md, "Reset"): the seed files applied again, the entries they
 * created, the client secrets generated for applications without a fixed one (shown only now), and
 * the demo data made when the sandbox has no seed file (else null).
 */
public record ResetResult(List<String> seeds, List<String> created, Map<String, String> clientSecrets, Demo demo) {
    /** The demo user, account and application, with the password and client secret shown only now. */
    public record Demo(String email, String password, String accountId, String clientId, String clientSecret) {}
}
