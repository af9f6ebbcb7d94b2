package dev.ledgerlink.testing;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A test class against a real server: parameters of type {@link TestServer}, {@link Fixtures},
 * {@link Receiver} and {@link TestHttp} are injected by {@link TestServerExtension}.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
@ExtendWith(TestServerExtension.class)
public @interface LedgerlinkTest {
}
