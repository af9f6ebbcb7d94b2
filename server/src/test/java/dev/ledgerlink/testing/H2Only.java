package dev.ledgerlink.testing;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.Tag;

/**
 * A test class of what only an H2 file has (crash repair, housekeeping, a node on an H2 file), or one
 * that makes an H2 file of its own whichever pass runs it: the H2 pass only. Its comment says which.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
@Tag(H2Only.TAG)
public @interface H2Only {
    String TAG = "h2-only";
}
