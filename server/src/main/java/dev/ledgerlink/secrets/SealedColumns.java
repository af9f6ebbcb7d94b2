package dev.ledgerlink.secrets;

import java.util.List;

/**
 * Every column that holds a sealed secret, one line each, beside the column that names the key which
 * sealed it: the key rotation re-seals what they hold, the key check at start tries one value of
 * each, and {@code SealedColumnsTest} fails when the schema has a column ending in {@code _sealed}
 * that is not listed here. A capability that seals a new kind of secret adds its line (naming its
 * columns {@code <name>_sealed} and {@code <name>_key}) and nothing else.
 */
public final class SealedColumns {
    /** {@code table.sealedColumn}, found by {@code idColumn} (a whole number), sealed with the key whose fingerprint is in {@code keyColumn}. */
    public record SealedColumn(String table, String idColumn, String sealedColumn, String keyColumn) {
        @Override
        public String toString() {
            return table + "." + sealedColumn;
        }
    }

    public static final List<SealedColumn> ALL = List.of(
            // callbacks: the verification code, which keys the webhook signatures
            new SealedColumn("callbacks", "id", "verifier_sealed", "verifier_key"),
            // oauth: a user's authenticator secret (the second factor at sign-in)
            new SealedColumn("user_second_factors", "user_id", "totp_secret_sealed", "totp_secret_key"));

    private SealedColumns() {}
}
