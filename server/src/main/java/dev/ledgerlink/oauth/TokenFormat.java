package dev.ledgerlink.oauth;

import dev.ledgerlink.secrets.Hashes;
import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Base64;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import javax.crypto.Cipher;
import javax.crypto.spec.SecretKeySpec;
import org.jdbi.v3.core.Jdbi;

/**
 * What an access or refresh token is, and how a presented one is found: 64 URL-safe base64
 * characters encoding 48 bytes, a 16-byte selector and a 32-byte secret (256 random bits; only their
 * SHA-256 is stored, in the row's token_hash).
 *
 * <p>The selector is the token row's id and kind, encrypted with AES under this installation's
 * selector key (one block: id, kind, seven zero bytes). The row is found by its primary key instead of
 * by a unique index on the hash: a random key in an index costs every grant a page of that index
 * that nothing else in its commit shares, which on H2 was the larger part of a refresh grant's
 * database work (docs/benchmarks-history.md, "Tokens found by id"). The encryption keeps the ids from showing
 * how many tokens were issued; the zero bytes turn away a made-up token before any lookup. The key
 * is not what protects a token (the secret is): it lives in the database (oauth_token_keys, V22),
 * shared by every node and kept by every backup.
 *
 * <p>Tokens issued before V22 are 43 characters (the base64 of 32 random bytes) and are found by the
 * SHA-256 of the whole string in oauth_legacy_token_hashes.
 */
public final class TokenFormat {
    /** Which table a token's id points into. */
    enum Kind {
        ACCESS, REFRESH;

        byte code() {
            return (byte) (ordinal() + 1);
        }
    }

    /**
     * A token string as presented, parsed: where its row is and what the row's token_hash must be.
     * Public as an opaque value (development mode's journal holds one until its writer names the
     * token's application, TokenService.issuedTo): it carries the secret's hash, never the secret.
     */
    public sealed interface Presented {}

    /** One of ours: the row {@code id} of {@code kind}, whose token_hash must equal {@code hash}. */
    record Selected(Kind kind, long id, byte[] hash) implements Presented {}

    /** Issued before V22: found through oauth_legacy_token_hashes by the hash of the whole string. */
    record Legacy(byte[] hash) implements Presented {}

    /** Neither: no row can match it. */
    record Foreign() implements Presented {}

    static final int LENGTH = 64;
    static final int LEGACY_LENGTH = 43;
    private static final int SELECTOR_BYTES = 16;
    private static final int SECRET_BYTES = 32;
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final Base64.Encoder ENCODER = Base64.getUrlEncoder().withoutPadding();
    private static final Base64.Decoder DECODER = Base64.getUrlDecoder();

    private final SecretKeySpec selectorKey;
    /**
     * Ciphers initialised with the key, one queue per mode, taken and given back around each use: a
     * Cipher is not thread-safe, and a new one per token (getInstance, key expansion) showed in the
     * refresh grant's profile (docs/benchmarks-history.md, "Tokens found by id"). Requests run on
     * virtual threads, so a ThreadLocal would not be reused; the queues hold at most as many ciphers
     * as tokens were ever being made at once.
     */
    private final Queue<Cipher> encrypting = new ConcurrentLinkedQueue<>();
    private final Queue<Cipher> decrypting = new ConcurrentLinkedQueue<>();

    TokenFormat(byte[] selectorKey) {
        if (selectorKey == null || selectorKey.length != 16) throw new IllegalStateException("the token selector key must be 16 bytes");
        this.selectorKey = new SecretKeySpec(selectorKey, "AES");
    }

    /** The installation's format, with the selector key migration V22 stored. */
    public static TokenFormat load(Jdbi jdbi) {
        return new TokenFormat(jdbi.withHandle(h -> h.createQuery("select selector_key from oauth_token_keys where id = 1")
                .map((row, ctx) -> row.getBytes(1)).one()));
    }

    /** A new token's secret: 256 random bits. */
    static byte[] newSecret() {
        byte[] secret = new byte[SECRET_BYTES];
        RANDOM.nextBytes(secret);
        return secret;
    }

    /** What the row of a token with this secret stores. */
    static byte[] hashOf(byte[] secret) {
        return Hashes.sha256(secret);
    }

    String encode(Kind kind, long id, byte[] secret) {
        ByteBuffer block = ByteBuffer.allocate(SELECTOR_BYTES).putLong(id).put(kind.code());
        byte[] token = new byte[SELECTOR_BYTES + SECRET_BYTES];
        System.arraycopy(crypt(Cipher.ENCRYPT_MODE, block.array()), 0, token, 0, SELECTOR_BYTES);
        System.arraycopy(secret, 0, token, SELECTOR_BYTES, SECRET_BYTES);
        return ENCODER.encodeToString(token);
    }

    Presented parse(String token) {
        if (token == null) return new Foreign();
        if (token.length() == LEGACY_LENGTH) return new Legacy(Hashes.sha256(token));
        if (token.length() != LENGTH) return new Foreign();
        byte[] raw;
        try {
            raw = DECODER.decode(token);
        } catch (IllegalArgumentException notBase64) {
            return new Foreign();
        }
        if (raw.length != SELECTOR_BYTES + SECRET_BYTES) return new Foreign();   // padding inside the 64 characters
        ByteBuffer selector = ByteBuffer.wrap(crypt(Cipher.DECRYPT_MODE, Arrays.copyOf(raw, SELECTOR_BYTES)));
        long id = selector.getLong();
        byte kind = selector.get();
        for (int i = 9; i < SELECTOR_BYTES; i++) if (selector.get() != 0) return new Foreign();
        if (id <= 0 || (kind != Kind.ACCESS.code() && kind != Kind.REFRESH.code())) return new Foreign();
        byte[] secret = Arrays.copyOfRange(raw, SELECTOR_BYTES, raw.length);
        return new Selected(kind == Kind.ACCESS.code() ? Kind.ACCESS : Kind.REFRESH, id, hashOf(secret));
    }

    private byte[] crypt(int mode, byte[] block) {
        Queue<Cipher> ciphers = mode == Cipher.ENCRYPT_MODE ? encrypting : decrypting;
        try {
            Cipher aes = ciphers.poll();
            if (aes == null) {
                // One block of a permutation, never two of the same plaintext (ids are unique): ECB is exactly that.
                aes = Cipher.getInstance("AES/ECB/NoPadding");
                aes.init(mode, selectorKey);
            }
            byte[] out = aes.doFinal(block);   // leaves the cipher as initialised, ready for the next block
            ciphers.offer(aes);
            return out;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES is part of every JDK", e);
        }
    }
}
