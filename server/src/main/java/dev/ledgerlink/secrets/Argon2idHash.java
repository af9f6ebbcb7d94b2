package dev.ledgerlink.secrets;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.bouncycastle.crypto.generators.Argon2BytesGenerator;
import org.bouncycastle.crypto.params.Argon2Parameters;

/**
 * One Argon2id password hash in the PHC string format every Argon2 library writes and reads
 * ({@code $argon2id$v=19$m=19456,t=2,p=1$<salt>$<hash>}, salt and hash in unpadded standard base64):
 * the format of the hashes stored since the first release. Bouncy Castle computes; this class only
 * reads and writes the string.
 */
record Argon2idHash(int memoryKib, int iterations, int parallelism, byte[] salt, byte[] hash) {
    private static final Pattern PHC = Pattern.compile(
            "\\$argon2id\\$v=19\\$m=(\\d{1,8}),t=(\\d{1,4}),p=(\\d{1,3})\\$([A-Za-z0-9+/]{11,})\\$([A-Za-z0-9+/]{22,})");
    private static final Base64.Encoder B64 = Base64.getEncoder().withoutPadding();
    /** RFC 9106: a salt of at least 8 bytes (ours are 16). */
    private static final int MIN_SALT_BYTES = 8;

    /** The hash of a password at the given cost (one lane) and salt, 32 bytes long. */
    static Argon2idHash of(String password, int memoryKib, int iterations, byte[] salt) {
        return new Argon2idHash(memoryKib, iterations, 1, salt, compute(password, memoryKib, iterations, 1, salt, 32));
    }

    /** The stored string, or null when it is not an Argon2id hash of version 19 with sane parameters. */
    static Argon2idHash parse(String phc) {
        Matcher m = PHC.matcher(phc);
        if (!m.matches()) return null;
        int memoryKib = Integer.parseInt(m.group(1));
        int iterations = Integer.parseInt(m.group(2));
        int parallelism = Integer.parseInt(m.group(3));
        byte[] salt;
        byte[] hash;
        try {
            salt = Base64.getDecoder().decode(m.group(4));
            hash = Base64.getDecoder().decode(m.group(5));
        } catch (IllegalArgumentException notBase64) {
            return null;
        }
        // RFC 9106: at least one pass, one lane, 8 KiB of memory per lane
        if (iterations < 1 || parallelism < 1 || memoryKib < 8 * parallelism || salt.length < MIN_SALT_BYTES || hash.length < 16) {
            return null;
        }
        return new Argon2idHash(memoryKib, iterations, parallelism, salt, hash);
    }

    /** Whether the password hashes, at this hash's own cost and salt, to this hash (compared in constant time). */
    boolean matches(String password) {
        return MessageDigest.isEqual(hash, compute(password, memoryKib, iterations, parallelism, salt, hash.length));
    }

    String phc() {
        return "$argon2id$v=19$m=" + memoryKib + ",t=" + iterations + ",p=" + parallelism + "$"
                + B64.encodeToString(salt) + "$" + B64.encodeToString(hash);
    }

    private static byte[] compute(String password, int memoryKib, int iterations, int parallelism, byte[] salt, int length) {
        Argon2BytesGenerator generator = new Argon2BytesGenerator();
        generator.init(new Argon2Parameters.Builder(Argon2Parameters.ARGON2_id).withVersion(Argon2Parameters.ARGON2_VERSION_13)
                .withMemoryAsKB(memoryKib).withIterations(iterations).withParallelism(parallelism).withSalt(salt)
                .withBlockPool(Argon2Blocks.SHARED).build());
        byte[] out = new byte[length];
        generator.generateBytes(password.getBytes(StandardCharsets.UTF_8), out);
        return out;
    }
}
