package dev.ledgerlink.secrets;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Password hashing in /metrics, so an operator sees sign-ins outgrow a node before users see 503s:
 * the hashes waiting for their share of the memory budget, the budget left, and the hashes refused
 * because their turn did not come within secrets.argon2-max-wait (process-wide, as the budget is).
 */
public final class PasswordHashMetrics {
    private PasswordHashMetrics() {}

    public static void register(MeterRegistry registry) {
        Gauge.builder("ledgerlink.password.hashes.waiting", PasswordHasher.MEMORY, s -> s.getQueueLength())
                .description("Password hashes waiting for their share of the hashing memory budget").register(registry);
        Gauge.builder("ledgerlink.password.hash.memory.free", PasswordHasher.MEMORY, s -> s.availablePermits() * 1024.0)
                .baseUnit("bytes").description("Hashing memory budget (a third of the heap) not taken by running hashes").register(registry);
        FunctionCounter.builder("ledgerlink.password.hashes.refused", PasswordHasher.REFUSED, AtomicLong::get)
                .description("Password hashes refused (the sign-in answered 503) because their turn did not come within secrets.argon2-max-wait")
                .register(registry);
    }
}
