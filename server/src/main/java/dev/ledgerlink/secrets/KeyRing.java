package dev.ledgerlink.secrets;

import java.util.Optional;

/**
 * The keys of this process: the current one (secrets.key), which seals, and during a rotation the
 * one being replaced (secrets.previous-key), which only opens. Every sealed value is stored with the
 * fingerprint of the key that sealed it ({@link Sealed}), so opening picks the key without trying;
 * a value stored without one (sealed by a release before fingerprints, or by such a release's node
 * during a rolling upgrade) is tried with each key, GCM's tag telling which one sealed it.
 */
public final class KeyRing {
    private final SecretBox current;
    private final SecretBox previous;

    public KeyRing(SecretBox current, SecretBox previous) {
        this.current = current;
        this.previous = previous != null && previous.keyId().equals(current.keyId()) ? null : previous;
    }

    /** A ring of one key (tests, a single key given). */
    public static KeyRing of(SecretBox current) {
        return new KeyRing(current, null);
    }

    /** A sealed value and the fingerprint of the key that sealed it: the two columns a sealed secret is stored in. */
    public record Sealed(String value, String keyId) {}

    /** The key {@code keyId} names is not one this process holds (another node sealed with a newer key). */
    public static final class KeyNotHeld extends RuntimeException {
        private final String keyId;

        KeyNotHeld(String keyId) {
            super("the value was sealed with the key " + keyId + ", which this process does not hold", null, false, false);
            this.keyId = keyId;
        }

        public String keyId() {
            return keyId;
        }
    }

    public Sealed seal(String plaintext) {
        return new Sealed(current.seal(plaintext), current.keyId());
    }

    /**
     * The plain text of {@code sealed}, stored with {@code keyId} (null: unknown). Throws
     * {@link KeyNotHeld} when the value names a key this process lacks, and IllegalStateException when
     * no key held opens it.
     */
    public String open(String sealed, String keyId) {
        if (keyId != null) {
            SecretBox named = keyId.equals(current.keyId()) ? current : previous != null && keyId.equals(previous.keyId()) ? previous : null;
            if (named == null) throw new KeyNotHeld(keyId);
            try {
                return named.open(sealed);
            } catch (IllegalStateException mislabelled) {
                // a release without fingerprints re-sealed the value and left the old one: try the other key
            }
        }
        try {
            return current.open(sealed);
        } catch (IllegalStateException notCurrent) {
            if (previous == null) throw notCurrent;
            return previous.open(sealed);
        }
    }

    public SecretBox current() {
        return current;
    }

    public Optional<SecretBox> previous() {
        return Optional.ofNullable(previous);
    }
}
