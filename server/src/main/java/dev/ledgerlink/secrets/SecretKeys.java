package dev.ledgerlink.secrets;

import dev.ledgerlink.config.ConfigurationException;
import dev.ledgerlink.config.Setting;
import dev.ledgerlink.config.Settings;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * Where the keys come from: secrets.key, else the key file (secrets.key-file), plus secrets.previous-key
 * during a rotation. A key file is made by the process only for a new embedded database
 * ({@code mayCreate}): on PostgreSQL, where several nodes share the database, a node that made a key
 * of its own would seal codes the others cannot open, so the key must be given; and a database that
 * already holds sealed values needs the key that sealed them, not a new one.
 */
public final class SecretKeys {
    private SecretKeys() {}

    /**
     * The ring of the configured keys. {@code mayCreate}: a missing key file is made (a new H2
     * database); otherwise a missing key is a {@link WrongKey} naming {@code databaseKeyId}, the
     * fingerprint of the key the database was used with (null: none recorded).
     */
    public static KeyRing load(Settings settings, boolean mayCreate, String databaseKeyId) {
        String previous = settings.get(Setting.SECRETS_PREVIOUS_KEY);
        SecretBox prev = previous.isBlank() ? null : SecretBox.fromBase64(previous, Setting.SECRETS_PREVIOUS_KEY.key());
        return new KeyRing(current(settings, mayCreate, databaseKeyId), prev);
    }

    private static SecretBox current(Settings settings, boolean mayCreate, String databaseKeyId) {
        String key = settings.get(Setting.SECRETS_KEY);
        if (!key.isBlank()) return SecretBox.fromBase64(key);
        Path file = Path.of(settings.get(Setting.SECRETS_KEY_FILE));
        try {
            if (Files.exists(file)) return SecretBox.fromBase64(Files.readString(file, StandardCharsets.US_ASCII), "the key file " + file);
            if (!mayCreate) {
                throw new WrongKey("no secrets key is given (secrets.key / LEDGERLINK_SECRETS_KEY is empty and there is no key file at " + file + "): "
                        + (databaseKeyId != null ? "give this node the key this database was used with (fingerprint " + databaseKeyId + ")"
                        : "give every node sharing this database the same key, made once with `ledgerlink secrets new-key`")
                        + "; a node never makes a key of its own for a shared or existing database (docs/operations.md, \"Keys\")");
            }
            return SecretBox.fromBase64(create(file), "the key file " + file);
        } catch (IOException e) {
            throw new ConfigurationException("cannot read or create " + file + ": " + e.getMessage());
        }
    }

    private static String create(Path file) throws IOException {
        if (file.toAbsolutePath().getParent() != null) Files.createDirectories(file.toAbsolutePath().getParent());
        Path tmp = Files.createTempFile(file.toAbsolutePath().getParent(), ".key", ".tmp");
        try {
            Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rw-------"));
        } catch (UnsupportedOperationException notPosix) {
            // the file system has no POSIX permissions; the directory's protection applies
        }
        Files.writeString(tmp, SecretBox.newKeyBase64() + "\n", StandardCharsets.US_ASCII);
        try {
            // Two processes starting at once: the first rename wins and both read the winner.
            Files.move(tmp, file);
        } catch (java.nio.file.FileAlreadyExistsException raced) {
            Files.deleteIfExists(tmp);
        }
        return Files.readString(file, StandardCharsets.US_ASCII);
    }
}
