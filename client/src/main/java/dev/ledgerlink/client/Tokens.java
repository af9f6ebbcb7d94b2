package dev.ledgerlink.client;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;

/**
 * A token response. {@code refreshToken} is the single live refresh token of this user and
 * application: store it, and replace it with the one of every later response.
 */
public record Tokens(String accessToken, String tokenType, long expiresIn, String refreshToken, String scope, Instant createdAt) {

    /** A token response as the token endpoint (and the sandbox's {@code POST /sandbox/v1/tokens}) writes it. */
    public static Tokens from(JsonNode n) {
        return new Tokens(n.path("access_token").asText(), n.path("token_type").asText("Bearer"),
                n.path("expires_in").asLong(), n.path("refresh_token").asText(null), n.path("scope").asText(null),
                Instant.ofEpochSecond(n.path("created_at").asLong()));
    }

    /** When the access token stops authenticating, from the server's own clock reading. */
    public Instant expiresAt() {
        return createdAt.plusSeconds(expiresIn);
    }
}
