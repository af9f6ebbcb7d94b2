package dev.ledgerlink.oauth;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.ledgerlink.secrets.Hashes;
import dev.ledgerlink.secrets.RandomTokens;
import java.util.Base64;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The token format alone (TokenFormat): what a token carries, and what a made-up or altered one parses to. */
class TokenFormatTest {
    private final TokenFormat format = new TokenFormat(new byte[] {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16});

    @Test
    void aTokenNamesItsRowAndKindAndOnlyTheHashOfItsSecretIsStored() {
        byte[] secret = TokenFormat.newSecret();
        String token = format.encode(TokenFormat.Kind.REFRESH, 4_242, secret);
        assertEquals(TokenFormat.LENGTH, token.length());
        assertEquals(token, Base64.getUrlEncoder().withoutPadding().encodeToString(Base64.getUrlDecoder().decode(token)), "URL-safe, unpadded");
        var parsed = assertInstanceOf(TokenFormat.Selected.class, format.parse(token));
        assertEquals(TokenFormat.Kind.REFRESH, parsed.kind());
        assertEquals(4_242, parsed.id());
        assertArrayEquals(Hashes.sha256(secret), parsed.hash());
        assertArrayEquals(TokenFormat.hashOf(secret), parsed.hash());
        var access = assertInstanceOf(TokenFormat.Selected.class, format.parse(format.encode(TokenFormat.Kind.ACCESS, 4_242, secret)));
        assertEquals(TokenFormat.Kind.ACCESS, access.kind());
    }

    @Test
    void theSelectorShowsNeitherTheIdNorTheOrderOfIssue() {
        byte[] secret = new byte[32];
        Set<String> selectors = new HashSet<>();
        for (long id = 1; id <= 1_000; id++) selectors.add(format.encode(TokenFormat.Kind.ACCESS, id, secret).substring(0, 21));
        assertEquals(1_000, selectors.size(), "consecutive ids give unrelated selectors");
        TokenFormat otherInstallation = new TokenFormat(new byte[16]);
        String token = format.encode(TokenFormat.Kind.ACCESS, 7, secret);
        assertNotEquals(token, otherInstallation.encode(TokenFormat.Kind.ACCESS, 7, secret));
        assertInstanceOf(TokenFormat.Foreign.class, otherInstallation.parse(token), "another key's token names no row here");
    }

    @Test
    void anAlteredSelectorIsForeignBeforeAnyLookup() {
        String token = format.encode(TokenFormat.Kind.ACCESS, 99, TokenFormat.newSecret());
        byte[] raw = Base64.getUrlDecoder().decode(token);
        for (int i = 0; i < 16; i++) {
            byte[] altered = raw.clone();
            altered[i] ^= 1;
            assertInstanceOf(TokenFormat.Foreign.class, format.parse(Base64.getUrlEncoder().withoutPadding().encodeToString(altered)), "byte " + i);
        }
        byte[] otherSecret = raw.clone();
        otherSecret[40] ^= 1;   // the secret is not checked here but against the row: same row, another hash
        var parsed = assertInstanceOf(TokenFormat.Selected.class, format.parse(Base64.getUrlEncoder().withoutPadding().encodeToString(otherSecret)));
        assertEquals(99, parsed.id());
    }

    @Test
    void tokensOfEarlierReleasesAreLegacyAndAnythingElseIsForeign() {
        String legacy = RandomTokens.urlSafe(32);
        assertArrayEquals(Hashes.sha256(legacy), assertInstanceOf(TokenFormat.Legacy.class, format.parse(legacy)).hash());
        for (String foreign : new String[] {"", "not-a-token", "x".repeat(63), "x".repeat(65), "!".repeat(64), "A".repeat(60) + "====",
                "+".repeat(64), "A".repeat(64)}) {
            assertInstanceOf(TokenFormat.Foreign.class, format.parse(foreign), foreign);
        }
        assertInstanceOf(TokenFormat.Foreign.class, format.parse(null));
    }

    @Test
    void manyThreadsEncodingAndParsingAtOnceEachGetTheirOwnRow() throws Exception {
        try (var threads = java.util.concurrent.Executors.newVirtualThreadPerTaskExecutor()) {
            var results = new java.util.ArrayList<java.util.concurrent.Future<Boolean>>();
            for (int t = 0; t < 64; t++) {
                long base = t * 1_000L;
                results.add(threads.submit(() -> {
                    for (long id = base + 1; id <= base + 500; id++) {
                        TokenFormat.Kind kind = id % 2 == 0 ? TokenFormat.Kind.ACCESS : TokenFormat.Kind.REFRESH;
                        var parsed = (TokenFormat.Selected) format.parse(format.encode(kind, id, TokenFormat.newSecret()));
                        if (parsed.id() != id || parsed.kind() != kind) return false;
                    }
                    return true;
                }));
            }
            for (var r : results) assertEquals(true, r.get());
        }
    }

    @Test
    void theSelectorKeyIsSixteenBytes() {
        assertThrows(IllegalStateException.class, () -> new TokenFormat(new byte[15]));
        assertThrows(IllegalStateException.class, () -> new TokenFormat(null));
    }
}
