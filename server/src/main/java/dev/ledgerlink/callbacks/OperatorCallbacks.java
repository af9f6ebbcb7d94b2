package dev.ledgerlink.callbacks;

import dev.ledgerlink.audit.AuditLog;
import dev.ledgerlink.callbacks.CallbackStateMachine.Effect;
import dev.ledgerlink.callbacks.CallbackStateMachine.State;
import dev.ledgerlink.callbacks.CallbackStateMachine.Transition;
import dev.ledgerlink.callbacks.CallbackStateMachine.Trigger;
import dev.ledgerlink.config.RateLimit;
import dev.ledgerlink.errors.ServiceException;
import dev.ledgerlink.errors.Validation;
import dev.ledgerlink.paging.Paging;
import dev.ledgerlink.store.DbTime;
import dev.ledgerlink.store.Deadlocks;
import java.time.Clock;
import java.time.Instant;
import java.util.Locale;
import java.util.Set;
import org.jdbi.v3.core.Jdbi;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Callbacks as operators see them (admin API and CLI): across accounts and applications, by state;
 * disable and enable through {@link CallbackStateMachine}. No OAuth principal here: the caller
 * holds the operator key or runs the CLI on the database.
 */
public final class OperatorCallbacks {
    public static final Set<String> STATES = Set.of("unverified", "verified", "disabled");
    /** accounts.account_id is varchar(16): a longer filter names no account and must not reach the cast. */
    private static final int MAX_ACCOUNT_ID = 16;
    private static final Logger LOG = LoggerFactory.getLogger(OperatorCallbacks.class);

    private final Jdbi jdbi;
    private final Clock clock;
    private final CallbackQueue queue;
    private final CallbackEffects effects;
    private final AuditLog audit;

    public OperatorCallbacks(Jdbi jdbi, Clock clock, CallbackQueue queue, AuditLog audit) {
        this.jdbi = jdbi;
        this.clock = clock;
        this.queue = queue;
        this.effects = new CallbackEffects(queue);
        this.audit = audit;
    }

    /** @param state unverified, verified, disabled, or null for all; @param accountId null for all accounts */
    public Paging.Page<Callback> list(String state, String accountId, Paging paging) {
        String s = state == null || state.isBlank() ? null : state.trim().toLowerCase(Locale.ROOT);
        String account = accountId == null || accountId.isBlank() ? null : accountId.trim();
        new Validation().check(s == null || STATES.contains(s), "state", "must be unverified, verified or disabled")
                .check(account == null || account.length() <= MAX_ACCOUNT_ID, "account_id", "is not an account id (at most 16 characters)")
                .throwIfInvalid();
        return jdbi.withExtension(CallbackStore.class, st -> paging.page(st.operatorCount(account, s),
                st.operatorSearch(account, s, paging.perPage(), paging.offset())));
    }

    /** At most this many callbacks are listed by {@link #ofAccounts}. */
    public static final int MAX_LISTED = 500;

    /** The callbacks of these accounts ({@code null}: of every account), by id (the console's list). */
    public java.util.List<Callback> ofAccounts(java.util.Collection<String> accountIds) {
        if (accountIds != null && accountIds.isEmpty()) return java.util.List.of();
        java.util.List<String> ids = accountIds == null ? java.util.List.of("") : java.util.List.copyOf(accountIds);
        return jdbi.withExtension(CallbackStore.class, s -> s.ofAccounts(accountIds == null, ids, MAX_LISTED));
    }

    public Callback show(long id) {
        return jdbi.withExtension(CallbackStore.class, s -> s.findAny(id)).orElseThrow(() -> ServiceException.notFound("No callback " + id + "."));
    }

    /** Stops notifications and drops what was queued, in one transaction; disabling a disabled callback changes nothing. */
    public Callback disable(long id) {
        record Disabled(Callback callback, CallbackEffects.Applied applied) {}
        // Its row, then its deliveries: the order opposite to the engine's recorder, so a deadlock is retried.
        Disabled d = Deadlocks.retry(() -> jdbi.inTransaction(h -> {
            CallbackStore s = h.attach(CallbackStore.class);
            Callback c = s.findAnyForUpdate(id).orElseThrow(() -> ServiceException.notFound("No callback " + id + "."));
            Transition next = CallbackStateMachine.apply(c.state(), Trigger.OPERATOR_DISABLE);
            if (c.state() == next.next()) return new Disabled(c, null);
            Instant now = now();
            s.setDisabled(id, true, now);
            return new Disabled(c, effects.apply(h, id, next, "callback disabled by an operator", now));
        }));
        if (d.applied() != null) {
            audit.record(AuditLog.Event.CALLBACK_DISABLED, "callback_id", id, "account_id", d.callback().accountId(),
                    "by", "operator", "cause", "operator", "deliveries_dropped", d.applied().dropped(), "reason", "disabled by an operator");
        }
        return show(id);
    }

    /** Back to verified, failure run forgotten; a callback never verified needs a resend instead (409). */
    public Callback enable(long id) {
        jdbi.useTransaction(h -> {
            CallbackStore s = h.attach(CallbackStore.class);
            Callback c = s.findAnyForUpdate(id).orElseThrow(() -> ServiceException.notFound("No callback " + id + "."));
            if (c.state() == State.DISABLED && !c.verified()) {
                throw ServiceException.of(ServiceException.Kind.CONFLICT, "Callback " + id
                        + " was never verified: it cannot be enabled without a verification; resend its verification code instead.");
            }
            Transition t = CallbackStateMachine.apply(c.state(), Trigger.OPERATOR_ENABLE);
            if (t.has(Effect.START_NOTIFICATIONS)) {
                s.setDisabled(id, false, now());
                LOG.info("callback {} enabled by an operator", id);
            }
        });
        return show(id);
    }

    /**
     * The operator's settings of a callback (PATCH /internal/v1/admin/callbacks/{id}, {@code callbacks
     * set}), each already checked by the front that parsed it; what is not given stays. A new rate
     * limit holds from the next delivery on, and the deliveries waiting for their first attempt are
     * paced anew by it (their turns were given at the old one), in the same transaction.
     */
    public Callback change(long id, OperatorSettings settings) {
        new Validation().check(settings.any(), "body", "must name at least one setting to change: rate_limit").throwIfInvalid();
        Integer rate = settings.rateLimit().value();
        new Validation().check(rate == null || RateLimit.valid(rate), "rate_limit", RateLimit.RULE + ", or null").throwIfInvalid();
        jdbi.useTransaction(h -> {
            CallbackStore s = h.attach(CallbackStore.class);
            s.findAnyForUpdate(id).orElseThrow(() -> ServiceException.notFound("No callback " + id + "."));
            if (settings.rateLimit().given()) {
                s.setRateLimit(id, rate);
                int waiting = queue.repace(h, id, now());
                LOG.info("callback {}: rate limit set to {} by an operator; {} waiting deliveries paced anew", id, RateLimit.text(rate), waiting);
            }
        });
        return show(id);
    }

    private Instant now() {
        return DbTime.now(clock);
    }
}
