package dev.ledgerlink.secrets;

import dev.ledgerlink.config.ConfigurationException;
import dev.ledgerlink.config.Setting;
import dev.ledgerlink.config.Settings;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

/** Where the {@link SecretBox} key comes from: the secrets.key setting, else a key file made once. */
public final class SecretKeys {
    private SecretKeys() {}

    public static SecretBox load(Settings settings) {
        String key = settings.get(Setting.SECRETS_KEY);
        if (!key.isBlank()) return SecretBox.fromBase64(key);
        Path file = Path.of(settings.get(Setting.SECRETS_KEY_FILE));
        try {
            if (Files.exists(file)) return SecretBox.fromBase64(Files.readString(file, StandardCharsets.US_ASCII));
            if (file.toAbsolutePath().getParent() != null) Files.createDirectories(file.toAbsolutePath().getParent());
            String fresh = SecretBox.newKeyBase64();
            Path tmp = Files.createTempFile(file.toAbsolutePath().getParent(), ".key", ".tmp");
            try {
                Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rw-------"));
            } catch (UnsupportedOperationException notPosix) {
                // the file system has no POSIX permissions; the directory's protection applies
            }
            Files.writeString(tmp, fresh + "\n", StandardCharsets.US_ASCII);
            try {
                // Two processes starting at once: the first rename wins and both read the winner.
                Files.move(tmp, file);
            } catch (java.nio.file.FileAlreadyExistsException raced) {
                Files.deleteIfExists(tmp);
            }
            return SecretBox.fromBase64(Files.readString(file, StandardCharsets.US_ASCII));
        } catch (IOException e) {
            throw new ConfigurationException("cannot read or create " + file + ": " + e.getMessage());
        }
    }
}
