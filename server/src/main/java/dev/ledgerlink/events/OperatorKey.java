package dev.ledgerlink.events;

import dev.ledgerlink.config.ConfigurationException;
import dev.ledgerlink.config.Setting;
import dev.ledgerlink.config.Settings;
import dev.ledgerlink.secrets.RandomTokens;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The bearer key of the internal publishing endpoint (events.operator-key). Empty outside dev mode:
 * the endpoint refuses every call. In dev mode one is made: kept in operator-key next to the
 * secrets key file (mode 600) when keys live in files, else generated for this run and printed once
 * on stdout. Never logged.
 */
public final class OperatorKey {
    private static final Logger LOG = LoggerFactory.getLogger(OperatorKey.class);
    private final byte[] key;

    private OperatorKey(String key) {
        this.key = key == null || key.isBlank() ? null : key.trim().getBytes(StandardCharsets.UTF_8);
    }

    public static OperatorKey of(String key) {
        return new OperatorKey(key);
    }

    public static OperatorKey forServer(Settings settings) {
        String configured = settings.get(Setting.OPERATOR_KEY);
        if (!configured.isBlank() || !settings.flag(Setting.DEV)) return new OperatorKey(configured);
        if (settings.get(Setting.SECRETS_KEY).isBlank()) {
            Path file = Path.of(settings.get(Setting.SECRETS_KEY_FILE)).toAbsolutePath().resolveSibling("operator-key");
            OperatorKey k = new OperatorKey(readOrCreate(file));
            LOG.info("dev mode: the operator key of POST /internal/v1/events is in {}", file);
            return k;
        }
        String generated = RandomTokens.alphanumeric(40);
        System.out.println("Operator key for POST /internal/v1/events (dev mode, this run only): " + generated);
        LOG.info("dev mode: an operator key was generated for this run and printed on stdout");
        return new OperatorKey(generated);
    }

    public boolean configured() {
        return key != null;
    }

    /** Constant-time: the time taken does not depend on how much of the key matched. */
    public boolean matches(String presented) {
        if (key == null || presented == null) return false;
        return MessageDigest.isEqual(key, presented.trim().getBytes(StandardCharsets.UTF_8));
    }

    private static String readOrCreate(Path file) {
        try {
            if (Files.exists(file)) return Files.readString(file, StandardCharsets.US_ASCII).trim();
            Files.createDirectories(file.getParent());
            Path tmp = Files.createTempFile(file.getParent(), ".operator", ".tmp");
            try {
                Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rw-------"));
            } catch (UnsupportedOperationException notPosix) {
                // no POSIX permissions here; the directory's protection applies
            }
            Files.writeString(tmp, RandomTokens.alphanumeric(40) + "\n", StandardCharsets.US_ASCII);
            try {
                Files.move(tmp, file);
            } catch (java.nio.file.FileAlreadyExistsException raced) {
                Files.deleteIfExists(tmp);
            }
            return Files.readString(file, StandardCharsets.US_ASCII).trim();
        } catch (IOException e) {
            throw new ConfigurationException("cannot read or create " + file + ": " + e.getMessage());
        }
    }
}
