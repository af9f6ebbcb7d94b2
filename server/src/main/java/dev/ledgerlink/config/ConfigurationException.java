package dev.ledgerlink.config;

/** A setting has a value ledgerlink cannot use; the message names the setting. */
public final class ConfigurationException extends RuntimeException {
    public ConfigurationException(String message) {
        super(message);
    }
}
