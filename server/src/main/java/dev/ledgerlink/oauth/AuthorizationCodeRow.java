package dev.ledgerlink.oauth;

import java.time.Instant;

/** A stored authorization code (only its hash is kept), what it is bound to, and whether a disconnect revoked it. */
public record AuthorizationCodeRow(long id, long applicationId, long userId, String scopes, String redirectUri,
                                   String codeChallenge, String codeChallengeMethod, Instant expiresAt, Instant usedAt, Instant revokedAt) {}
