package dev.ledgerlink.accounts;

import java.time.Instant;
import java.util.List;
import java.util.Set;

/** An OAuth client. Its secret exists in plain text only in {@link ApplicationService.Created}. */
public record Application(long id, String clientId, String name, List<String> redirectUris, Set<String> scopes,
                          Instant createdAt, Instant secretRotatedAt) {}
