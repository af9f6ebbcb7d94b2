package dev.ledgerlink.testing;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Settings of the test server, as {@code key=value} (the keys of docs/configuration.md). On a class:
 * the class's shared server starts with them. On a test method: that test gets a server of its own.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.TYPE, ElementType.METHOD})
public @interface ServerSettings {
    String[] value();
}
