package dev.ledgerlink.secrets;

/**
 * The secrets key this process was given is not the database's: it refuses to start (exit code 5)
 * rather than seal values other nodes cannot open, or fail every delivery later. The message names
 * the fingerprints involved (never a key) and what to do.
 */
public final class WrongKey extends RuntimeException {
    public WrongKey(String message) {
        super(message, null, false, false);
    }
}
