package dev.ledgerlink.oauth;

import java.time.Instant;

/** A stored authorization code (only its hash is kept) and what it is bound to. */
public record AuthorizationCodeRow(long id, long applicationId, long userId, String scopes, String redirectUri,
                                   String codeChallenge, String codeChallengeMethod, Instant expiresAt, Instant usedAt) {}
