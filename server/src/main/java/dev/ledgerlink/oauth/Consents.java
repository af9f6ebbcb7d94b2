package dev.ledgerlink.oauth;

import dev.ledgerlink.store.DbTime;
import java.time.Clock;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;

/** Remembered consent: a user who already granted an application these scopes is not asked again. */
public final class Consents {
    private final Jdbi jdbi;
    private final Clock clock;

    public Consents(Jdbi jdbi, Clock clock) {
        this.jdbi = jdbi;
        this.clock = clock;
    }

    public boolean covers(long userId, long applicationId, Set<String> scopes) {
        return jdbi.withExtension(ConsentStore.class, s -> s.scopes(userId, applicationId)).containsAll(scopes);
    }

    /**
     * Adds these scopes to what the user granted the application. Only adds rows, one per scope, so
     * grants of different scopes at the same moment (two tabs, two nodes) all stay granted.
     */
    public void grant(long userId, long applicationId, Set<String> scopes) {
        jdbi.useTransaction(h -> grant(h, userId, applicationId, scopes));
    }

    /** The same, inside the caller's transaction (an operator's grant records consent and mints in one). */
    void grant(Handle h, long userId, long applicationId, Set<String> scopes) {
        if (scopes.isEmpty()) return;
        h.attach(ConsentStore.class).grant(userId, applicationId, List.copyOf(new TreeSet<>(scopes)), DbTime.now(clock));
    }
}
