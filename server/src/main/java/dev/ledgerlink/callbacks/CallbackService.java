package dev.ledgerlink.callbacks;

import dev.ledgerlink.store.DbTime;
import dev.ledgerlink.accounts.AccountService;
import dev.ledgerlink.audit.AuditLog;
import dev.ledgerlink.callbacks.CallbackStateMachine.Effect;
import dev.ledgerlink.callbacks.CallbackStateMachine.Transition;
import dev.ledgerlink.callbacks.CallbackStateMachine.Trigger;
import dev.ledgerlink.errors.ServiceException;
import dev.ledgerlink.errors.Validation;
import dev.ledgerlink.events.EventCatalog;
import dev.ledgerlink.oauth.TokenPrincipal;
import dev.ledgerlink.secrets.Hashes;
import dev.ledgerlink.secrets.RandomTokens;
import dev.ledgerlink.secrets.KeyRing;
import dev.ledgerlink.store.Deadlocks;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import org.jdbi.v3.core.Jdbi;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The callbacks API: register, read, list, verify, resend, update, delete. Every change goes
 * through {@link CallbackStateMachine}: this class writes the callback's row (a new code, its state)
 * and applies the access rules of {@link CallbackAccess}; the effects on the delivery queue are
 * {@link CallbackEffects}', in the same transaction.
 */
public final class CallbackService {
    /** 256 random bits; the code keys the signatures of every notification to the callback. */
    static final int CODE_BYTES = 32;
    private static final Logger LOG = LoggerFactory.getLogger(CallbackService.class);

    private final Jdbi jdbi;
    private final Clock clock;
    private final CallbackAccess access;
    private final KeyRing keys;
    private final CallbackUriRule uriRule;
    private final CallbackEffects effects;
    private final Runnable queued;
    private final AuditLog audit;

    /**
     * @param queue the delivery queue, acted on in this service's transactions
     * @param queued run after the commit of a change that queued a verification request: this
     *               process's delivery engine claims it at once instead of at its next poll
     */
    public CallbackService(Jdbi jdbi, Clock clock, AccountService accounts, KeyRing keys,
                           CallbackUriRule uriRule, AuditLog audit, CallbackQueue queue, Runnable queued) {
        this.jdbi = jdbi;
        this.clock = clock;
        this.access = new CallbackAccess(accounts);
        this.keys = keys;
        this.uriRule = uriRule;
        this.effects = new CallbackEffects(queue);
        this.queued = queued;
        this.audit = audit;
    }

    public Callback register(TokenPrincipal principal, String accountId, String event, String uri) {
        access.requireMember(principal, accountId);
        validate(event, uri, true);
        CallbackAccess.requireScopeFor(principal, event);
        Transition t = CallbackStateMachine.apply(null, Trigger.REGISTER);
        String code = RandomTokens.urlSafe(CODE_BYTES);
        Instant now = now();
        record Registered(long id, CallbackEffects.Applied applied) {}
        KeyRing.Sealed sealed = keys.seal(code);
        Registered r = jdbi.inTransaction(h -> {
            long created = h.attach(CallbackStore.class).insert(accountId, principal.applicationId(), principal.userId(),
                    event, EventCatalog.nounOf(event), uri, sealed.value(), sealed.keyId(), Hashes.sha256Hex(code), now);
            return new Registered(created, effects.apply(h, created, t, null, now));
        });
        LOG.info("callback {} registered for {} in account {}", r.id(), event, accountId);
        if (r.applied().queued()) queued.run();
        return load(principal, accountId, r.id());
    }

    public Callback get(TokenPrincipal principal, String accountId, long id) {
        access.requireMember(principal, accountId);
        Callback c = load(principal, accountId, id);
        CallbackAccess.requireScopeFor(principal, c.event());
        return c;
    }

    public CallbackPage list(TokenPrincipal principal, String accountId, CallbackSearch search) {
        access.requireMember(principal, accountId);
        Set<String> nouns = CallbackAccess.visibleNouns(principal);
        if (nouns.isEmpty()) return new CallbackPage(List.of(), search.page(), 1, search.perPage(), 0);
        return jdbi.withExtension(CallbackStore.class, s -> {
            long total = s.count(accountId, principal.applicationId(), nouns, search.noun(), search.name(), search.uri(), search.verified());
            List<Callback> page = s.search(accountId, principal.applicationId(), nouns, search.noun(), search.name(),
                    search.uri(), search.verified(), search.perPage(), search.offset());
            int pages = (int) Math.max(1, (total + search.perPage() - 1) / search.perPage());
            return new CallbackPage(page, search.page(), pages, search.perPage(), total);
        });
    }

    private enum VerifyOutcome { ACCEPTED, WRONG, THROTTLED }

    /** {@code released}: the verification released held deliveries (re-keying), so the engine is woken after the commit. */
    private record VerifyResult(VerifyOutcome outcome, Duration retryAfter, boolean released) {
        VerifyResult(VerifyOutcome outcome, Duration retryAfter) {
            this(outcome, retryAfter, false);
        }
    }

    /** The verifier sent back: 422 if wrong (nothing but the throttle count changes), 429 when throttled. */
    public Callback verify(TokenPrincipal principal, String accountId, long id, String verifier) {
        access.requireMember(principal, accountId);
        CallbackAccess.requireScopeFor(principal, load(principal, accountId, id).event());
        Instant now = now();
        String hash = Hashes.sha256Hex(verifier);
        VerifyResult result = jdbi.inTransaction(h -> {
            CallbackStore s = h.attach(CallbackStore.class);
            Callback c = s.findForUpdate(id, accountId, principal.applicationId()).orElseThrow(ServiceException::notFound);
            Duration wait = VerifierThrottle.waitBeforeNextTry(c.wrongTries(), now);
            if (wait != null) return new VerifyResult(VerifyOutcome.THROTTLED, wait);
            boolean right = Hashes.constantTimeEquals(hash, c.verifierHash());
            Transition t = CallbackStateMachine.apply(c.state(), right ? Trigger.VERIFY_WITH_RIGHT_CODE : Trigger.VERIFY_WITH_WRONG_CODE);
            if (t.has(Effect.COUNT_WRONG_TRY)) {
                VerifierThrottle.Count next = VerifierThrottle.afterWrongTry(c.wrongTries(), now);
                s.recordWrongTries(id, next.failures(), next.since());
                return new VerifyResult(VerifyOutcome.WRONG, null);
            }
            if (t.has(Effect.START_NOTIFICATIONS) || c.verifyFailures() > 0) s.markVerified(id, c.verifierHash(), now);
            // A re-keying ends here: what was held is due at once, sent with the code just verified.
            return new VerifyResult(VerifyOutcome.ACCEPTED, null, effects.apply(h, id, t, null, now).queued());
        });
        if (result.released()) queued.run();
        return switch (result.outcome()) {
            case THROTTLED -> throw ServiceException.throttled(
                    "Too many wrong verification codes for this callback; try again later.", result.retryAfter());
            case WRONG -> throw ServiceException.invalid("callback.verifier",
                    "is not the verification code last sent to this callback's uri");
            case ACCEPTED -> {
                LOG.info("callback {} verified", id);
                yield load(principal, accountId, id);
            }
        };
    }

    /**
     * A fresh code (the old one stops working): unverified, re-enabled, verification request sent
     * again. A verified callback re-keys: it stays subscribed, what it receives held until the new
     * code is verified (CallbackStateMachine.State#REKEYING).
     */
    public Callback resend(TokenPrincipal principal, String accountId, long id) {
        access.requireMember(principal, accountId);
        Callback c = load(principal, accountId, id);
        CallbackAccess.requireScopeFor(principal, c.event());
        reissue(c, CallbackStateMachine.apply(c.state(), Trigger.RESEND), c.event(), c.uri(), "resend");
        return load(principal, accountId, id);
    }

    /** New event and/or uri; a uri that differs from the current one must be verified anew. */
    public Callback update(TokenPrincipal principal, String accountId, long id, String event, String uri) {
        access.requireMember(principal, accountId);
        Callback c = load(principal, accountId, id);
        CallbackAccess.requireScopeFor(principal, c.event());
        validate(event, uri, false);
        String newEvent = event == null ? c.event() : event;
        String newUri = uri == null ? c.uri() : uri;
        if (!newEvent.equals(c.event())) CallbackAccess.requireScopeFor(principal, newEvent);
        if (!newUri.equals(c.uri())) {
            reissue(c, CallbackStateMachine.apply(c.state(), Trigger.CHANGE_URI), newEvent, newUri, "uri_changed");
        } else if (!newEvent.equals(c.event())) {
            CallbackStateMachine.apply(c.state(), Trigger.CHANGE_EVENT);
            jdbi.useExtension(CallbackStore.class, s -> s.changeEvent(id, newEvent, EventCatalog.nounOf(newEvent), now()));
        }
        return load(principal, accountId, id);
    }

    public void delete(TokenPrincipal principal, String accountId, long id) {
        access.requireMember(principal, accountId);
        Callback c = load(principal, accountId, id);
        CallbackAccess.requireScopeFor(principal, c.event());
        Transition t = CallbackStateMachine.apply(c.state(), Trigger.DELETE);
        // The row goes, and its deliveries with it (on delete cascade): nothing is fanned out to it
        // again, and nothing it had queued is sent.
        Deadlocks.retry(() -> jdbi.useTransaction(h -> {
            h.attach(CallbackStore.class).delete(id);
            effects.apply(h, id, t, null, now());
        }));
        LOG.info("callback {} deleted from account {}", id, accountId);
    }

    /**
     * Resend as an operator (or the console, which has checked the account) would: a fresh code,
     * unverified, re-enabled, the verification request sent again; no OAuth principal involved.
     */
    public Callback resendCode(long id) {
        Callback c = jdbi.withExtension(CallbackStore.class, s -> s.findAny(id)).orElseThrow(ServiceException::notFound);
        reissue(c, CallbackStateMachine.apply(c.state(), Trigger.RESEND), c.event(), c.uri(), "operator_resend");
        return jdbi.withExtension(CallbackStore.class, s -> s.findAny(id)).orElseThrow(ServiceException::notFound);
    }

    /** A fresh code replaces the old one (the key of the callback's signatures): an audit event once committed. */
    private void reissue(Callback c, Transition t, String event, String uri, String reason) {
        if (!t.has(Effect.ISSUE_NEW_CODE)) throw new IllegalStateException("a reissue must issue a new code");
        String code = RandomTokens.urlSafe(CODE_BYTES);
        Instant now = now();
        KeyRing.Sealed sealed = keys.seal(code);
        CallbackEffects.Applied applied = jdbi.inTransaction(h -> {
            h.attach(CallbackStore.class).reissue(c.id(), event, EventCatalog.nounOf(event), uri,
                    sealed.value(), sealed.keyId(), Hashes.sha256Hex(code), t.next() == CallbackStateMachine.State.REKEYING, now);
            return effects.apply(h, c.id(), t, "callback uri changed before its new verification code was verified", now);
        });
        audit.record(AuditLog.Event.CALLBACK_CODE_ROTATED, "callback_id", c.id(), "account_id", c.accountId(), "reason", reason);
        if (t.next() == CallbackStateMachine.State.REKEYING) {
            LOG.info("callback {} re-keying: {} pending deliveries held until the new code is verified", c.id(), applied.held());
        }
        if (applied.queued()) queued.run();
    }

    private Instant now() {
        return DbTime.now(clock);
    }

    private Callback load(TokenPrincipal principal, String accountId, long id) {
        return jdbi.withExtension(CallbackStore.class, s -> s.find(id, accountId, principal.applicationId()))
                .orElseThrow(ServiceException::notFound);
    }

    private void validate(String event, String uri, boolean required) {
        Validation v = new Validation();
        if (event != null || required) {
            v.check(event != null && EventCatalog.subscription(event).isPresent(), "callback.event",
                    event == null ? "is required" : "must be a noun or noun.verb from the events table (for example invoice or invoice.create)");
        }
        if (uri != null || required) {
            String refusal = uriRule.refusal(uri);
            if (refusal != null) v.add("callback.uri", refusal);
        }
        v.throwIfInvalid();
    }
}
