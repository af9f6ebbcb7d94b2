package dev.ledgerlink.testing;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.Tag;

/**
 * A test class of what only PostgreSQL has (one statement for a group of rotations, nodes reading
 * the database's clock, several nodes sharing a database), or one that runs a PostgreSQL cluster of
 * its own whichever pass runs it: the PostgreSQL pass only. Its comment says which.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
@Tag(PostgresOnly.TAG)
public @interface PostgresOnly {
    String TAG = "postgres-only";
}
