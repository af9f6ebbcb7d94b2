package dev.ledgerlink.testing;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.Tag;

/**
 * A test class that starts a child process (a server JVM, a PostgreSQL cluster, node, python, a
 * mount) or a browser: it runs in the full suite, never in {@code scripts/test --quick}, which is
 * the inner loop's pure rules and in-process tests. Not a judgement of speed: an in-process test
 * that takes a while stays quick. {@code SuiteLayoutTest} checks that every class that starts such
 * a thing, itself or through a helper, carries this, and that no other class does (docs/testing.md).
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
@Tag(Heavy.TAG)
public @interface Heavy {
    String TAG = "heavy";
}
