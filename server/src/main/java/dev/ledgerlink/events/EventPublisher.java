package dev.ledgerlink.events;

import dev.ledgerlink.store.TimeMapping;
import dev.ledgerlink.store.DbTime;
import dev.ledgerlink.errors.EchoedInput;
import dev.ledgerlink.errors.ServiceException;
import dev.ledgerlink.errors.Validation;
import dev.ledgerlink.store.Constraints;
import dev.ledgerlink.store.Database;
import dev.ledgerlink.store.GroupCommit;
import dev.ledgerlink.store.Named;
import dev.ledgerlink.store.PlainJdbc;
import dev.ledgerlink.tracing.PublishSpan;
import dev.ledgerlink.tracing.TraceHeaders;
import dev.ledgerlink.tracing.Tracing;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;

/**
 * Publishing: stores an event and fans it out to its subscribers in one transaction, so the event
 * is acknowledged only once it and every delivery it causes are durable. Same operation for the
 * internal HTTP endpoint, the Java API and the CLI.
 */
public final class EventPublisher {
    static final int MAX_IDEMPOTENCY_KEY = 200;

    private final Jdbi jdbi;
    private final Clock clock;
    private final FanOut fanOut;
    private final GroupCommit commits;
    private final boolean grouped;
    private final Tracing tracing;

    /**
     * Publishes on H2 share commits (store/GroupCommit): one chunk written for every publish of the
     * moment. On PostgreSQL each runs alone: there a savepoint per publish cost more than the shared
     * WAL flush saved (docs/benchmarks-history.md, "Deliveries without a claim pass, grouped publishes on H2").
     */
    public EventPublisher(Jdbi jdbi, GroupCommit commits, Database.Dialect dialect, Clock clock, Tracing tracing, FanOut fanOut) {
        this.jdbi = jdbi;
        this.commits = commits;
        this.grouped = dialect == Database.Dialect.H2;
        this.clock = clock;
        this.fanOut = fanOut;
        this.tracing = tracing;
    }

    /**
     * What a publisher says happened. {@code idempotencyKey} may be null. A key names one event within
     * its account: a repeat with the same payload answers with the original event, a different
     * payload under the same key is a 409 naming the key (decisions.md, "Durability and failure").
     * {@code trace}: the W3C trace context the publisher sent (null: none), which the event keeps so
     * that its deliveries continue the publisher's trace.
     */
    public record Request(String name, String accountId, Long objectId, Long userId, String idempotencyKey, TraceHeaders trace) {
        /** A publish without a trace context of its own (the Java API, the CLI). */
        public Request(String name, String accountId, Long objectId, Long userId, String idempotencyKey) {
            this(name, accountId, objectId, userId, idempotencyKey, null);
        }
    }

    public Event publish(Request r) {
        return publish(r, fanOut);
    }

    /**
     * As {@link #publish(Request)}, its deliveries queued by {@code via} instead of the usual fan-out
     * (development mode's test events queue theirs with their test options). In a span of its own
     * (tracing/Tracing#publish), whose context the event keeps.
     */
    public Event publish(Request r, FanOut via) {
        PublishSpan trace = tracing.publish(r.trace());
        try {
            Event e = publish(r, via, trace.toStore());
            trace.published(e.id(), e.name(), e.accountId(), e.deliveries());
            return e;
        } catch (RuntimeException e) {
            trace.failed(e, e instanceof ServiceException refusal && refusal.kind().status < 500);
            throw e;
        }
    }

    private Event publish(Request r, FanOut via, TraceHeaders trace) {
        validate(r);
        if (r.idempotencyKey() != null) {
            Optional<Event> earlier = findByIdempotencyKey(r.accountId(), r.idempotencyKey());
            if (earlier.isPresent()) return sameOrConflict(earlier.get(), r);
        }
        Stored stored;
        try {
            stored = grouped ? commits.inTransaction(h -> store(h, r, via, trace)) : jdbi.inTransaction(h -> store(h, r, via, trace));
        } catch (RuntimeException e) {
            // Two publishes with one key raced: the other committed first, so this one is its retry.
            if (r.idempotencyKey() != null && Constraints.isUniqueViolation(e)) {
                return sameOrConflict(findByIdempotencyKey(r.accountId(), r.idempotencyKey()).orElseThrow(() -> e), r);
            }
            throw e;
        }
        stored.queued().afterCommit().run();
        return stored.event();
    }

    /**
     * Several events in one transaction, in the order given (their ids ascend in it), the i-th queued
     * by {@code via.get(i)}: all are stored or none. Without Idempotency-Key (a key names one event).
     */
    public List<Event> publishAll(List<Request> requests, List<FanOut> via) {
        if (requests.size() != via.size()) throw new IllegalArgumentException("one fan-out per event");
        for (Request r : requests) {
            if (r.idempotencyKey() != null) throw new IllegalArgumentException("an Idempotency-Key names one event");
            validate(r);
        }
        List<Stored> all = jdbi.inTransaction(h -> {
            List<Stored> out = new ArrayList<>();
            for (int i = 0; i < requests.size(); i++) out.add(store(h, requests.get(i), via.get(i), requests.get(i).trace()));
            return out;
        });
        all.forEach(s -> s.queued().afterCommit().run());
        return all.stream().map(Stored::event).toList();
    }

    private static void validate(Request r) {
        new Validation()
                .check(EventCatalog.isEvent(r.name()), "name", "must be an event of the catalog, noun.verb (for example invoice.create)")
                .check(r.accountId() != null && !r.accountId().isBlank(), "account_id", "is required")
                .check(r.objectId() != null && r.objectId() > 0, "object_id", "must be a positive integer")
                .check(r.userId() != null && r.userId() > 0, "user_id", "must be a positive integer")
                .check(r.idempotencyKey() == null || (!r.idempotencyKey().isBlank() && r.idempotencyKey().length() <= MAX_IDEMPOTENCY_KEY),
                        "Idempotency-Key", "must be 1 to " + MAX_IDEMPOTENCY_KEY + " characters")
                .throwIfInvalid();
    }

    private static final Named INSERT_EVENT = Named.sql("""
            insert into events (account_id, name, object_id, user_id, idempotency_key, created_at, trace_parent, trace_state)
            select :accountId, :name, :objectId, :userId, :idempotencyKey, :now, :traceParent, :traceState
            from accounts where account_id = :accountId""");

    private record Stored(Event event, FanOut.Queued queued) {}

    private Stored store(Handle h, Request r, FanOut via, TraceHeaders trace) {
        Instant now = DbTime.now(clock);
        // The account's existence is the insert's own condition: one statement, no row for an unknown account.
        // Plain JDBC (store/PlainJdbc): a publish is the hot path of every delivery.
        OptionalLong stored = PlainJdbc.insertIfAny(h, INSERT_EVENT, p -> p.set("accountId", r.accountId()).set("name", r.name())
                .set("objectId", r.objectId()).set("userId", r.userId()).set("idempotencyKey", r.idempotencyKey()).set("now", now)
                .set("traceParent", trace == null ? null : trace.traceparent()).set("traceState", trace == null ? null : trace.tracestate()));
        if (stored.isEmpty()) new Validation().add("account_id", "is not a known account").throwIfInvalid();
        long id = stored.getAsLong();
        FanOut.Queued queued = via.queue(h, id, r.accountId(), r.name(), EventCatalog.nounOf(r.name()), now);
        return new Stored(new Event(id, r.name(), r.accountId(), r.objectId(), r.userId(), now, queued.deliveries()), queued);
    }

    /** The earlier event when the retry carries the same payload; a 409 naming the key when it does not. */
    private static Event sameOrConflict(Event earlier, Request r) {
        boolean same = earlier.name().equals(r.name()) && earlier.objectId() == r.objectId() && earlier.userId() == r.userId();
        if (same) return earlier;
        throw ServiceException.of(ServiceException.Kind.CONFLICT, "Idempotency-Key '" + EchoedInput.printable(r.idempotencyKey(), 60)
                + "' was already used in this account for another event (id " + earlier.id() + ", " + earlier.name()
                + " of object " + earlier.objectId() + "); use a new key for a new event.");
    }

    public Optional<Event> findByIdempotencyKey(String accountId, String key) {
        return jdbi.withHandle(h -> h.createQuery("""
                        select e.id, e.name, e.account_id, e.object_id, e.user_id, e.created_at,
                               (select count(*) from deliveries d where d.event_id = e.id and d.kind = 'event') as deliveries
                        from events e where e.account_id = :accountId and e.idempotency_key = :key""")
                .bind("accountId", accountId).bind("key", key)
                .map((rs, ctx) -> new Event(rs.getLong("id"), rs.getString("name"), rs.getString("account_id"),
                        rs.getLong("object_id"), rs.getLong("user_id"),
                        TimeMapping.read(rs, "created_at"), rs.getInt("deliveries")))
                .findOne());
    }
}
