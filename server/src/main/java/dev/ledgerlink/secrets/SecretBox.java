package dev.ledgerlink.secrets;

import dev.ledgerlink.config.ConfigurationException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.Provider;
import java.security.SecureRandom;
import java.util.Base64;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * AES-256-GCM for the few secrets the service must read back in plain text: the verification codes
 * that key the webhook signatures. Hashing cannot serve there, so they are encrypted at rest with a
 * key that lives outside the database (see the secrets.key setting).
 */
public final class SecretBox {
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final int NONCE_BYTES = 12;
    private static final int TAG_BITS = 128;
    private static final String TRANSFORMATION = "AES/GCM/NoPadding";
    /**
     * The provider of AES-GCM, found once: a delivery opens its callback's code, and looking the
     * provider up by name on each call walked the JDK's provider list, most of the cost of an open
     * (docs/benchmarks-history.md, "SecretBox's provider found once").
     */
    private static final Provider PROVIDER;

    static {
        try {
            PROVIDER = Cipher.getInstance(TRANSFORMATION).getProvider();
        } catch (GeneralSecurityException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final SecretKeySpec key;

    public SecretBox(byte[] key) {
        if (key.length != 32) throw new ConfigurationException("secrets.key must be 32 bytes (base64), got " + key.length);
        this.key = new SecretKeySpec(key.clone(), "AES");
    }

    public static SecretBox fromBase64(String base64) {
        try {
            return new SecretBox(Base64.getDecoder().decode(base64.trim()));
        } catch (IllegalArgumentException e) {
            throw new ConfigurationException("secrets.key is not valid base64");
        }
    }

    public static String newKeyBase64() {
        byte[] k = new byte[32];
        RANDOM.nextBytes(k);
        return Base64.getEncoder().encodeToString(k);
    }

    /** nonce || ciphertext+tag, base64. */
    public String seal(String plaintext) {
        try {
            byte[] nonce = new byte[NONCE_BYTES];
            RANDOM.nextBytes(nonce);
            Cipher c = Cipher.getInstance(TRANSFORMATION, PROVIDER);
            c.init(Cipher.ENCRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, nonce));
            byte[] sealed = c.doFinal(plaintext.getBytes(StandardCharsets.UTF_8));
            return Base64.getEncoder().encodeToString(ByteBuffer.allocate(nonce.length + sealed.length).put(nonce).put(sealed).array());
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-GCM is part of every JDK", e);
        }
    }

    public String open(String sealedBase64) {
        try {
            byte[] all = Base64.getDecoder().decode(sealedBase64);
            Cipher c = Cipher.getInstance(TRANSFORMATION, PROVIDER);
            c.init(Cipher.DECRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, all, 0, NONCE_BYTES));
            return new String(c.doFinal(all, NONCE_BYTES, all.length - NONCE_BYTES), StandardCharsets.UTF_8);
        } catch (GeneralSecurityException | IllegalArgumentException e) {
            throw new IllegalStateException("a stored secret cannot be decrypted: was secrets.key changed?", e);
        }
    }
}
