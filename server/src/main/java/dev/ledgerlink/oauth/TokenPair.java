package dev.ledgerlink.oauth;

import java.time.Instant;
import java.util.Set;

/** A freshly issued access and refresh token, in plain text: the one moment they exist outside the client. */
public record TokenPair(String accessToken, String refreshToken, Set<String> scopes, Instant createdAt, Instant expiresAt,
                        long grantId) {}
