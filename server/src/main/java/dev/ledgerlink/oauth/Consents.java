package dev.ledgerlink.oauth;

import dev.ledgerlink.store.DbTime;
import dev.ledgerlink.accounts.Scopes;
import java.time.Clock;
import java.util.LinkedHashSet;
import java.util.Set;
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
        return jdbi.withExtension(ConsentStore.class, s -> s.scopes(userId, applicationId))
                .map(granted -> Scopes.parse(granted).containsAll(scopes))
                .orElse(false);
    }

    /** Adds these scopes to what the user granted the application. */
    public void grant(long userId, long applicationId, Set<String> scopes) {
        jdbi.useTransaction(h -> grant(h, userId, applicationId, scopes));
    }

    /** The same, inside the caller's transaction (an operator's grant records consent and mints in one). */
    void grant(Handle h, long userId, long applicationId, Set<String> scopes) {
        var now = DbTime.now(clock);
        ConsentStore s = h.attach(ConsentStore.class);
        Set<String> all = new LinkedHashSet<>(s.scopes(userId, applicationId).map(Scopes::parse).orElse(Set.of()));
        all.addAll(scopes);
        if (s.insert(userId, applicationId, Scopes.join(all), now) == 0) s.update(userId, applicationId, Scopes.join(all), now);
    }
}
