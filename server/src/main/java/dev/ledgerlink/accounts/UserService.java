package dev.ledgerlink.accounts;

import dev.ledgerlink.paging.Paging;
import dev.ledgerlink.store.DbTime;
import dev.ledgerlink.errors.ServiceException;
import dev.ledgerlink.errors.Validation;
import dev.ledgerlink.secrets.PasswordHasher;
import dev.ledgerlink.store.Constraints;
import java.time.Clock;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;
import org.jdbi.v3.core.Jdbi;

/** Users: creation with its validation rules, lookup, and password login. */
public final class UserService {
    private static final Pattern EMAIL = Pattern.compile("^[^@\\s]+@[^@\\s]+\\.[^@\\s]+$");
    public static final int MIN_PASSWORD_LENGTH = 8;
    public static final int MAX_PASSWORD_LENGTH = 1024;

    private final Jdbi jdbi;
    private final Clock clock;
    private final PasswordHasher hasher;

    public UserService(Jdbi jdbi, Clock clock, PasswordHasher hasher) {
        this.jdbi = jdbi;
        this.clock = clock;
        this.hasher = hasher;
    }

    public User create(String email, String password, String firstName, String lastName) {
        String e = email == null ? "" : email.trim();
        String first = firstName == null ? "" : firstName.trim();
        String last = lastName == null ? "" : lastName.trim();
        Validation v = new Validation()
                .check(e.length() <= 320 && EMAIL.matcher(e).matches(), "email", "must be an e-mail address such as ana@example.com");
        checkPassword(v, password)
                .check(Names.isValid(first), "first_name", Names.RULE)
                .check(Names.isValid(last), "last_name", Names.RULE);
        v.throwIfInvalid();
        String key = emailKey(e);
        String hash = hashOf(password);
        try {
            long id = jdbi.withExtension(UserStore.class, s -> s.insert(e, key, hash, first, last, DbTime.now(clock)));
            return find(id).orElseThrow();
        } catch (RuntimeException ex) {
            if (Constraints.isUniqueViolation(ex)) throw ServiceException.invalid("email", "is already registered");
            throw ex;
        }
    }

    /** A new password's hash; a 503 when the server is already hashing as many as its memory allows. */
    private String hashOf(String password) {
        try {
            return hasher.hash(password);
        } catch (PasswordHasher.Busy busy) {
            throw ServiceException.unavailable("Too many passwords are being hashed right now; try again in a few seconds.", busy.retryAfter());
        }
    }

    /** The password rule: between the minimum and maximum length. */
    private static Validation checkPassword(Validation v, String password) {
        return v.check(password != null && password.length() >= MIN_PASSWORD_LENGTH, "password", "must be at least " + MIN_PASSWORD_LENGTH + " characters")
                .check(password == null || password.length() <= MAX_PASSWORD_LENGTH, "password", "must be at most " + MAX_PASSWORD_LENGTH + " characters");
    }

    /** Every user, oldest first (operators; there is no paging at this scale). */
    public java.util.List<User> list() {
        return jdbi.withExtension(UserStore.class, UserStore::list);
    }

    /** A new password for the user with this e-mail (an operator's reset, e.g. a lost demo password). */
    public User setPassword(String email, String password) {
        checkPassword(new Validation(), password).throwIfInvalid();
        User user = findByEmail(email).orElseThrow(() -> ServiceException.notFound("No user has the e-mail " + email + "."));
        String hash = hashOf(password);
        jdbi.useExtension(UserStore.class, s -> s.setPasswordHash(user.id(), hash));
        return user;
    }

    public Optional<User> find(long id) {
        return jdbi.withExtension(UserStore.class, s -> s.find(id));
    }

    /** These users, by id, in one query (a page of a list names a few dozen). */
    public java.util.Map<Long, User> findAll(java.util.Collection<Long> ids) {
        if (ids.isEmpty()) return java.util.Map.of();
        java.util.Map<Long, User> out = new java.util.HashMap<>();
        jdbi.withExtension(UserStore.class, s -> s.findAll(java.util.Set.copyOf(ids))).forEach(u -> out.put(u.id(), u));
        return out;
    }

    public Optional<User> findByEmail(String email) {
        if (email == null) return Optional.empty();
        return jdbi.withExtension(UserStore.class, s -> s.findByEmailKey(emailKey(email.trim())));
    }

    /**
     * The user whose e-mail and password these are. Takes the same Argon2id time whether or not the
     * e-mail is known, so the answer's timing does not reveal registered addresses.
     *
     * @throws PasswordHasher.Busy when the password could not be checked in time (too many at once)
     */
    public Optional<User> authenticate(String email, String password) {
        if (password == null || password.length() > MAX_PASSWORD_LENGTH) return Optional.empty();
        Optional<User> user = findByEmail(email);
        String hash = user.flatMap(u -> jdbi.withExtension(UserStore.class, s -> s.passwordHash(u.id()))).orElse(null);
        return hasher.verify(password, hash) ? user : Optional.empty();
    }

    public long count() {
        return jdbi.withExtension(UserStore.class, UserStore::count);
    }

    static String emailKey(String email) {
        return email.toLowerCase(Locale.ROOT);
    }

    /** A page of users, in id order. */
    public Paging.Page<User> page(Paging paging) {
        return jdbi.withExtension(UserStore.class, s -> paging.page(s.count(), s.page(paging.perPage(), paging.offset())));
    }
}
