package dev.ledgerlink.accounts;

import java.time.Instant;
import java.util.List;
import java.util.Set;

/**
 * An OAuth client. Its secret exists in plain text only in {@link ApplicationService.Created}.
 * {@code previousSecretExpiresAt}: until when the secret before the last rotation still
 * authenticates (null when it does not, see V10). {@code ownerAccountId} is the account it belongs
 * to, null when an operator registered it for none (V18).
 */
public record Application(long id, String clientId, String name, List<String> redirectUris, Set<String> scopes,
                          Instant createdAt, Instant secretRotatedAt, Instant previousSecretExpiresAt, String ownerAccountId) {}
