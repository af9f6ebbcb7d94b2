package dev.ledgerlink.oauth;

import com.fasterxml.jackson.annotation.JsonProperty;

/** The token response of interface.md: what the token endpoint answers on success. */
public record TokenResponse(
        @JsonProperty("access_token") String accessToken,
        @JsonProperty("token_type") String tokenType,
        @JsonProperty("expires_in") long expiresIn,
        @JsonProperty("refresh_token") String refreshToken,
        @JsonProperty("scope") String scope,
        @JsonProperty("created_at") long createdAt) {

    /** Built from a pair just minted: expires_in is the whole seconds left (43200 at issue). */
    public static TokenResponse of(TokenPair pair) {
        long secondsLeft = java.time.Duration.between(pair.createdAt(), pair.expiresAt()).toSeconds();
        return new TokenResponse(pair.accessToken(), "Bearer", secondsLeft, pair.refreshToken(),
                String.join(" ", pair.scopes()), pair.createdAt().getEpochSecond());
    }
}
