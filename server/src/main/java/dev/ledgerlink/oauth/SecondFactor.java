package dev.ledgerlink.oauth;

import dev.ledgerlink.accounts.User;
import dev.ledgerlink.audit.AuditLog;
import dev.ledgerlink.secrets.KeyRing;
import dev.ledgerlink.store.DbTime;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import org.jdbi.v3.core.Jdbi;

/**
 * A user's second factor at sign-in (decisions.md, "Users and their grants"): a TOTP authenticator
 * ({@link Totp}) with recovery codes ({@link RecoveryCodes}). The user enrols on the account page:
 * a new secret waits, sealed like every secret the server must read back (secrets.KeyRing, secrets.SealedColumns), until
 * its first code is typed; then the authenticator counts and ten recovery codes are shown once.
 * From then on every sign-in of that user (the authorization page, the account page, the console)
 * asks for a code after the password. Token issuing without a page (operators, the sandbox) is not
 * a sign-in and is unaffected.
 *
 * <p>Every code is checked under the same throttle as passwords ({@link LoginThrottle}: recorded
 * before it is checked, per user and per client address, the same limits), under the user's own
 * key, which a right password does not forgive. A TOTP code works once: the step it belongs to, and
 * every older one, is refused from then on (a conditional update decides, on any node); a recovery
 * code is spent by its use. Codes are checked against real time ({@code realClock}), never the
 * sandbox's moved clock: an authenticator app knows only real time.
 */
public final class SecondFactor {
    /** The issuer an authenticator app lists the account under. */
    static final String ISSUER = "ledgerlink";

    /** A new authenticator's secret, for the user to add to their app: Base32 text and the key URI its QR code holds. */
    public record Enrolment(String secret, String keyUri) {}

    /** What a typed code came to. */
    public sealed interface Check {}

    /** Right: {@code recoveryCode} when it was one (now spent), with how many are left. */
    public record Accepted(boolean recoveryCode, int recoveryCodesLeft) implements Check {}

    /** Wrong, or used before; {@code problem} says so in words for the form. */
    public record Refused(String problem) implements Check {}

    /** Too many wrong codes: none is checked until {@code retryAfter} has passed. */
    public record Throttled(String problem, Duration retryAfter) implements Check {}

    private final Jdbi jdbi;
    private final Clock clock;
    private final Clock realClock;
    private final KeyRing secrets;
    private final LoginThrottle throttle;
    private final AuditLog audit;

    SecondFactor(Jdbi jdbi, Clock clock, Clock realClock, KeyRing secrets, LoginThrottle throttle, AuditLog audit) {
        this.jdbi = jdbi;
        this.clock = clock;
        this.realClock = realClock;
        this.secrets = secrets;
        this.throttle = throttle;
        this.audit = audit;
    }

    /** Whether sign-ins of this user ask for a code. */
    public boolean enrolled(long userId) {
        return row(userId).map(r -> r.confirmedAt() != null).orElse(false);
    }

    /** A new secret for the user, waiting for its first code (an earlier one still waiting is replaced); empty when already enrolled. */
    public Optional<Enrolment> begin(User user) {
        byte[] secret = Totp.newSecret();
        String base32 = Totp.base32(secret);
        KeyRing.Sealed sealed = secrets.seal(base32);
        boolean started = jdbi.inTransaction(h -> {
            SecondFactorStore s = h.attach(SecondFactorStore.class);
            s.deletePending(user.id());
            if (s.find(user.id()).isPresent()) return false;
            s.insertPending(user.id(), sealed.value(), sealed.keyId(), now());
            return true;
        });
        return started ? Optional.of(enrolment(user, base32)) : Optional.empty();
    }

    /** The secret still waiting for its first code, to show again (a wrong code, a reload). */
    public Optional<Enrolment> pending(User user) {
        return row(user.id()).filter(r -> r.confirmedAt() == null).map(r -> enrolment(user, secrets.open(r.totpSecretSealed(), r.totpSecretKey())));
    }

    /** What confirming an enrolment came to: the recovery codes (shown once) when the code was right. */
    public record Confirmation(Check check, List<String> recoveryCodes) {}

    /** The first code of a waiting secret: right, the authenticator counts from now on and recovery codes are made. */
    public Confirmation confirm(long userId, String code, String address) {
        Optional<SecondFactorStore.Row> waiting = row(userId).filter(r -> r.confirmedAt() == null);
        if (waiting.isEmpty()) return new Confirmation(new Refused("Start again: no authenticator is waiting to be confirmed."), List.of());
        byte[] secret = Totp.fromBase32(secrets.open(waiting.get().totpSecretSealed(), waiting.get().totpSecretKey()));
        List<String> codes = RecoveryCodes.generate();
        Check check = throttled(userId, address, () -> {
            OptionalLong step = Totp.matchingStep(secret, code == null ? null : code.strip(), realClock.instant());
            if (step.isEmpty()) return new Refused("That code is not right. Type the 6-digit code your authenticator app shows now.");
            boolean confirmed = jdbi.inTransaction(h -> {
                SecondFactorStore s = h.attach(SecondFactorStore.class);
                if (s.confirm(userId, step.getAsLong(), now()) != 1) return false;
                s.deleteRecoveryCodes(userId);
                s.insertRecoveryCodes(userId, codes.stream().map(c -> RecoveryCodes.hashOf(c).orElseThrow()).toList(), now());
                return true;
            });
            return confirmed ? new Accepted(false, codes.size()) : new Refused("Start again: no authenticator is waiting to be confirmed.");
        });
        if (!(check instanceof Accepted)) return new Confirmation(check, List.of());
        audit.record(AuditLog.Event.SECOND_FACTOR_ENROLLED, "user_id", userId, "address", address);
        return new Confirmation(check, codes);
    }

    /**
     * A code typed at sign-in (or to confirm a change of the second factor): the authenticator's for
     * the current time, or an unused recovery code. A user with no second factor (an operator reset
     * it meanwhile) has nothing to check: accepted.
     */
    public Check verify(long userId, String code, String address) {
        Optional<SecondFactorStore.Row> factor = row(userId).filter(r -> r.confirmedAt() != null);
        if (factor.isEmpty()) return new Accepted(false, 0);
        String typed = code == null ? "" : code.strip();
        if (typed.isEmpty()) return new Refused("Type the 6-digit code your authenticator app shows, or one of your recovery codes.");
        Check check = throttled(userId, address, () -> {
            Optional<String> recovery = RecoveryCodes.hashOf(typed);
            if (recovery.isPresent()) {
                return jdbi.withExtension(SecondFactorStore.class, s -> {
                    if (s.useRecoveryCode(userId, recovery.get(), now()) != 1) {
                        return (Check) new Refused("That recovery code is not right, or it was used already.");
                    }
                    return new Accepted(true, s.recoveryCodesLeft(userId));
                });
            }
            byte[] secret = Totp.fromBase32(secrets.open(factor.get().totpSecretSealed(), factor.get().totpSecretKey()));
            OptionalLong step = Totp.matchingStep(secret, typed.replace(" ", ""), realClock.instant());
            if (step.isEmpty()) return new Refused("That code is not right. Type the 6-digit code your authenticator app shows now.");
            if (jdbi.withExtension(SecondFactorStore.class, s -> s.useStep(userId, step.getAsLong())) != 1) {
                return new Refused("That code was used already. Wait for the next one in your authenticator app.");
            }
            return new Accepted(false, -1);
        });
        if (check instanceof Accepted a && a.recoveryCode()) {
            audit.record(AuditLog.Event.RECOVERY_CODE_USED, "user_id", userId, "recovery_codes_left", a.recoveryCodesLeft(), "address", address);
        }
        return check;
    }

    /** The user turns their second factor off, with a code ({@link #verify}); sign-ins ask for the password alone again. */
    public Check remove(long userId, String code, String address) {
        Check check = verify(userId, code, address);
        if (check instanceof Accepted && deleteAll(userId)) {
            audit.record(AuditLog.Event.SECOND_FACTOR_REMOVED, "user_id", userId, "by", "user", "address", address);
        }
        return check;
    }

    /** New recovery codes for the user, with a code ({@link #verify}): the old ones stop working. */
    public Confirmation replaceRecoveryCodes(long userId, String code, String address) {
        Check check = verify(userId, code, address);
        if (!(check instanceof Accepted) || !enrolled(userId)) return new Confirmation(check, List.of());
        List<String> codes = RecoveryCodes.generate();
        jdbi.useTransaction(h -> {
            SecondFactorStore s = h.attach(SecondFactorStore.class);
            s.deleteRecoveryCodes(userId);
            s.insertRecoveryCodes(userId, codes.stream().map(c -> RecoveryCodes.hashOf(c).orElseThrow()).toList(), now());
        });
        audit.record(AuditLog.Event.RECOVERY_CODES_REPLACED, "user_id", userId, "address", address);
        return new Confirmation(check, codes);
    }

    /** How many unused recovery codes the user has. */
    public int recoveryCodesLeft(long userId) {
        return jdbi.withExtension(SecondFactorStore.class, s -> s.recoveryCodesLeft(userId));
    }

    /** An operator's reset (a lost phone and lost codes): the user signs in with the password alone, and may enrol anew. Audited. */
    public boolean reset(long userId) {
        boolean had = deleteAll(userId);
        audit.record(AuditLog.Event.SECOND_FACTOR_REMOVED, "user_id", userId, "by", "operator", "address", null);
        return had;
    }

    private boolean deleteAll(long userId) {
        return jdbi.inTransaction(h -> {
            SecondFactorStore s = h.attach(SecondFactorStore.class);
            s.deleteRecoveryCodes(userId);
            return s.deleteFactor(userId) > 0;
        });
    }

    /**
     * One code check under the throttle: recorded first (per user and per address, as passwords
     * are), then checked; a wrong code stays counted, a right one forgives the user's key.
     */
    private Check throttled(long userId, String address, java.util.function.Supplier<Check> check) {
        String account = LoginThrottle.secondFactorAccount(userId);
        LoginThrottle.Decision decision = throttle.admit(account, address);
        if (decision instanceof LoginThrottle.Throttled t) {
            audit.record(AuditLog.Event.LOGIN_THROTTLED, "subject", "second_factor", "user_id", userId, "limit", t.limit(),
                    "address", address, "retry_after_seconds", t.retryAfter().toSeconds());
            long minutes = Math.max(1, (t.retryAfter().toSeconds() + 59) / 60);
            return new Throttled("Too many wrong codes. Try again in " + minutes + (minutes == 1 ? " minute." : " minutes."), t.retryAfter());
        }
        LoginThrottle.Admitted admitted = (LoginThrottle.Admitted) decision;
        Check result = check.get();
        if (result instanceof Accepted) {
            throttle.succeeded(admitted, account);
        } else {
            throttle.failed(admitted);
        }
        return result;
    }

    private Enrolment enrolment(User user, String base32) {
        return new Enrolment(base32, Totp.keyUri(ISSUER, user.email(), base32));
    }

    private Optional<SecondFactorStore.Row> row(long userId) {
        return jdbi.withExtension(SecondFactorStore.class, s -> s.find(userId));
    }

    private Instant now() {
        return DbTime.now(clock);
    }
}
