package dev.ledgerlink.testing;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.Tag;

/**
 * A test class of a front end (the console's pages, the CLI's commands and output, the HTTP layer:
 * routing, headers, limits, errors, pages in a browser) that takes what the store does as given: it
 * runs once, in the H2 pass, not again on PostgreSQL. A class whose point is a statement, a
 * transaction, concurrent writers, a migration, durability or the database's clock runs on both and
 * is not this (docs/testing.md, "Which pass runs a class").
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
@Tag(FrontEnd.TAG)
public @interface FrontEnd {
    String TAG = "front-end";
}
