package dev.ledgerlink.secrets;

import dev.ledgerlink.config.ConfigurationException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.Provider;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.HexFormat;
import javax.crypto.Cipher;
import javax.crypto.Mac;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * AES-256-GCM for the few secrets the service must read back in plain text: the verification codes
 * that key the webhook signatures. Hashing cannot serve there, so they are encrypted at rest with a
 * key that lives outside the database (see the secrets.key setting). A key is known by its
 * {@link #keyId() fingerprint}, which sealed values are stored with, and the database keeps its
 * {@link #checkValue() check value} (KeyCheck): both are HMACs of fixed labels under the key, from
 * which the key cannot be recovered.
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
    private final String keyId;
    private final String checkValue;

    public SecretBox(byte[] key) {
        this(key, "secrets.key");
    }

    private SecretBox(byte[] key, String setting) {
        if (key.length != 32) throw new ConfigurationException(setting + " must be 32 bytes (base64), got " + key.length);
        this.key = new SecretKeySpec(key.clone(), "AES");
        this.keyId = HexFormat.of().formatHex(hmac(key, "ledgerlink secrets key id"), 0, 8);
        this.checkValue = Base64.getEncoder().encodeToString(hmac(key, "ledgerlink secrets key check"));
    }

    public static SecretBox fromBase64(String base64) {
        return fromBase64(base64, "secrets.key");
    }

    /** As {@link #fromBase64(String)}, a refusal naming {@code setting} (secrets.previous-key, a key file). */
    public static SecretBox fromBase64(String base64, String setting) {
        try {
            return new SecretBox(Base64.getDecoder().decode(base64.trim()), setting);
        } catch (IllegalArgumentException e) {
            throw new ConfigurationException(setting + " is not valid base64");
        }
    }

    /**
     * The key's fingerprint: 16 hex digits, stored beside every value it sealed and shown in messages
     * about keys (never the key).
     */
    public String keyId() {
        return keyId;
    }

    /** What the database keeps to recognise the key (KeyCheck): base64 of a 256-bit HMAC under it. */
    public String checkValue() {
        return checkValue;
    }

    /** Whether {@code stored} is this key's check value, compared in constant time. */
    public boolean matches(String stored) {
        return stored != null && MessageDigest.isEqual(checkValue.getBytes(StandardCharsets.US_ASCII), stored.getBytes(StandardCharsets.US_ASCII));
    }

    private static byte[] hmac(byte[] key, String label) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            return mac.doFinal(label.getBytes(StandardCharsets.UTF_8));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HMAC-SHA256 is part of every JDK", e);
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
            throw new IllegalStateException("a stored secret cannot be opened with the key " + keyId, e);
        }
    }
}
