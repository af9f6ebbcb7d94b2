package dev.ledgerlink.accounts;

import dev.ledgerlink.audit.AuditLog;
import dev.ledgerlink.store.DbTime;
import dev.ledgerlink.errors.ServiceException;
import dev.ledgerlink.errors.Validation;
import dev.ledgerlink.secrets.Hashes;
import dev.ledgerlink.secrets.RandomTokens;
import dev.ledgerlink.paging.Paging;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.jdbi.v3.core.Jdbi;

/**
 * OAuth client applications: registration, secret rotation (with an optional overlap) and client
 * authentication. Client secrets are 256 random bits, shown once, stored as SHA-256 and compared in constant time.
 */
public final class ApplicationService {
    public static final int MAX_REDIRECT_URIS = 20;
    /** The longest a replaced secret may keep working after a rotation. */
    public static final Duration MAX_OVERLAP = Duration.ofDays(30);
    /** Compared against when no previous secret is kept: a hex SHA-256 no secret hashes to in practice. */
    private static final String NO_SECRET = "0".repeat(64);
    private static final java.util.regex.Pattern FIXED_CLIENT_ID = java.util.regex.Pattern.compile("[A-Za-z0-9]{8,64}");
    private static final int MIN_FIXED_SECRET = 16;

    /** The application and its secret in plain text: the one moment the secret exists outside the client. */
    public record Created(Application application, String clientSecret) {}

    private final Jdbi jdbi;
    private final Clock clock;
    private final boolean devMode;
    private final AuditLog audit;
    private final ClientSecretCache secrets;

    /** @param clientCacheTtl how long a client's stored secrets are kept in memory (ClientSecretCache); zero keeps none */
    public ApplicationService(Jdbi jdbi, Clock clock, boolean devMode, AuditLog audit, Duration clientCacheTtl) {
        this.jdbi = jdbi;
        this.clock = clock;
        this.devMode = devMode;
        this.audit = audit;
        this.secrets = new ClientSecretCache(clientCacheTtl);
    }

    public Created create(String name, List<String> redirectUris, List<String> scopes) {
        return create(name, redirectUris, scopes, null);
    }

    /** An application that belongs to {@code ownerAccountId} (null: to no account); its members see it in the console. */
    public Created create(String name, List<String> redirectUris, List<String> scopes, String ownerAccountId) {
        // Letters and digits only: a client id starting with "-" would read as an option on a command line.
        return create(name, redirectUris, scopes, ownerAccountId, RandomTokens.alphanumeric(32), RandomTokens.urlSafe(32));
    }

    /**
     * An application with a client id and secret chosen by the caller, so test suites are reproducible
     * (seed files). Development mode only: outside it secrets are random and shown once.
     */
    public Created createFixed(String name, List<String> redirectUris, List<String> scopes, String clientId, String clientSecret) {
        if (!devMode) throw ServiceException.invalid("client_id", "a fixed client_id and client_secret are allowed in development mode only");
        new Validation()
                .check(clientId != null && FIXED_CLIENT_ID.matcher(clientId).matches(), "client_id", "must be 8 to 64 letters and digits")
                .check(clientSecret != null && clientSecret.length() >= MIN_FIXED_SECRET && clientSecret.length() <= 512,
                        "client_secret", "must be " + MIN_FIXED_SECRET + " to 512 characters")
                .throwIfInvalid();
        if (findByClientId(clientId).isPresent()) throw ServiceException.invalid("client_id", clientId + " is already taken");
        return create(name, redirectUris, scopes, null, clientId, clientSecret);
    }

    private Created create(String name, List<String> redirectUris, List<String> scopes, String ownerAccountId, String clientId, String secret) {
        String n = name == null ? "" : name.trim();
        List<String> uris = redirectUris == null ? List.of() : redirectUris.stream().map(String::trim).distinct().toList();
        Set<String> scopeSet = new LinkedHashSet<>();
        if (scopes != null) scopes.forEach(s -> scopeSet.addAll(Scopes.parse(s)));
        Validation v = new Validation()
                .check(Names.isValidRequired(n), "name", "must not be empty; " + Names.RULE)
                .check(!uris.isEmpty(), "redirect_uri", "is required (at least one redirect URI)")
                .check(uris.size() <= MAX_REDIRECT_URIS, "redirect_uri", "must be at most " + MAX_REDIRECT_URIS + " redirect URIs")
                .check(!scopeSet.isEmpty(), "scope", "is required (at least one scope)")
                .check(ownerAccountId == null || jdbi.withExtension(AccountStore.class, s -> s.findByAccountId(ownerAccountId)).isPresent(),
                        "account", "no account has the id " + ownerAccountId);
        for (String uri : uris) {
            RedirectUriRule.problem(uri, devMode).ifPresent(p -> v.add("redirect_uri", uri + " " + p));
        }
        List<String> unknown = new ArrayList<>(scopeSet.stream().filter(s -> !Scopes.isKnown(s)).toList());
        if (!unknown.isEmpty()) v.add("scope", "must be scopes of the catalog; not known: " + String.join(", ", unknown) + " (known: " + String.join(" ", Scopes.all()) + ")");
        v.throwIfInvalid();

        long id = jdbi.withExtension(ApplicationStore.class, s -> s.insert(clientId, Hashes.sha256Hex(secret), n,
                String.join("\n", uris), Scopes.join(scopeSet), DbTime.now(clock), ownerAccountId));
        return new Created(find(id).orElseThrow(), secret);
    }

    public List<Application> list() {
        return jdbi.withExtension(ApplicationStore.class, ApplicationStore::list);
    }

    /** The applications that belong to these accounts. */
    public List<Application> ownedBy(java.util.Collection<String> accountIds) {
        if (accountIds.isEmpty()) return List.of();
        return jdbi.withExtension(ApplicationStore.class, s -> s.ownedBy(accountIds));
    }

    public Optional<Application> find(long id) {
        return jdbi.withExtension(ApplicationStore.class, s -> s.find(id));
    }

    /** These applications, by id, in one query (a page of a list names a few dozen). */
    public java.util.Map<Long, Application> findAll(java.util.Collection<Long> ids) {
        if (ids.isEmpty()) return java.util.Map.of();
        java.util.Map<Long, Application> out = new java.util.HashMap<>();
        jdbi.withExtension(ApplicationStore.class, s -> s.findAll(java.util.Set.copyOf(ids))).forEach(a -> out.put(a.id(), a));
        return out;
    }

    public Optional<Application> findByClientId(String clientId) {
        if (clientId == null) return Optional.empty();
        return jdbi.withExtension(ApplicationStore.class, s -> s.findByClientId(clientId));
    }

    /** By numeric id or by client_id, as operators type either. */
    public Application show(String idOrClientId) {
        Optional<Application> byClientId = findByClientId(idOrClientId);
        if (byClientId.isPresent()) return byClientId.get();
        if (idOrClientId != null && idOrClientId.matches("\\d{1,18}")) {
            return find(Long.parseLong(idOrClientId)).orElseThrow(() -> ServiceException.notFound("no application " + idOrClientId));
        }
        throw ServiceException.notFound("no application " + idOrClientId);
    }

    /**
     * A new secret. With an overlap ({@code keepOld}, an ISO-8601 duration such as P7D, at most
     * {@link #MAX_OVERLAP}) the secret it replaces keeps authenticating until now + keepOld, so the
     * client can roll the new one out; without one (null, blank or PT0S) the old one stops at once.
     * A secret kept from an earlier rotation is forgotten either way: at most two are ever valid.
     */
    public Created rotateSecret(String idOrClientId, String keepOld) {
        Duration overlap = overlap(keepOld);
        Application app = show(idOrClientId);
        String secret = RandomTokens.urlSafe(32);
        Instant now = DbTime.now(clock);
        Instant keepUntil = overlap.isZero() ? null : now.plus(overlap);
        jdbi.useExtension(ApplicationStore.class, s -> s.rotateSecret(app.id(), Hashes.sha256Hex(secret), now, keepUntil));
        secrets.forget(app.clientId());
        audit.record(AuditLog.Event.CLIENT_SECRET_ROTATED, "application_id", app.id(), "client_id", app.clientId(),
                "previous_valid_until", keepUntil == null ? null : keepUntil.toString());
        return new Created(find(app.id()).orElseThrow(), secret);
    }

    /** Ends the overlap of the last rotation now: only the current secret authenticates from here on. */
    public Application retireSecret(String idOrClientId) {
        Application app = show(idOrClientId);
        int retired = jdbi.withExtension(ApplicationStore.class, s -> s.retirePreviousSecret(app.id()));
        secrets.forget(app.clientId());
        if (retired > 0) audit.record(AuditLog.Event.CLIENT_SECRET_RETIRED, "application_id", app.id(), "client_id", app.clientId());
        return find(app.id()).orElseThrow();
    }

    /** The overlap of a rotation: empty means none; a 422 on anything but a duration from zero to {@link #MAX_OVERLAP}. */
    static Duration overlap(String keepOld) {
        if (keepOld == null || keepOld.isBlank()) return Duration.ZERO;
        Duration d;
        try {
            d = Duration.parse(keepOld.trim());
        } catch (java.time.format.DateTimeParseException e) {
            throw ServiceException.invalid("keep_old", "must be an ISO-8601 duration such as P7D or PT12H");
        }
        if (d.isNegative() || d.compareTo(MAX_OVERLAP) > 0) {
            throw ServiceException.invalid("keep_old", "must be between PT0S and " + MAX_OVERLAP.toDays() + " days (P" + MAX_OVERLAP.toDays() + "D)");
        }
        return d;
    }

    /** A page of applications, in id order. */
    public Paging.Page<Application> page(Paging paging) {
        return jdbi.withExtension(ApplicationStore.class, s -> paging.page(s.count(), s.page(paging.perPage(), paging.offset())));
    }

    /** The application these credentials belong to, or empty; constant-time on the secret. */
    public Optional<Application> authenticate(String clientId, String clientSecret) {
        if (clientId == null || clientSecret == null || clientId.length() > 64 || clientSecret.length() > 512) return Optional.empty();
        // At most one query on the token endpoint's hot path (none while the client's row is cached);
        // the hash is computed even for an unknown client.
        String presented = Hashes.sha256Hex(clientSecret);
        Optional<ClientSecretStore.WithSecretHash> stored = secrets.find(clientId,
                () -> jdbi.withHandle(h -> new ClientSecretStore(h).findWithSecretHash(clientId)));
        if (stored.isEmpty()) return Optional.empty();
        // Both comparisons always run, so the time taken says nothing about which secret matched.
        ClientSecretStore.WithSecretHash row = stored.get();
        boolean current = Hashes.constantTimeEquals(row.secretHash(), presented);
        String previousHash = row.previousSecretHash();
        boolean previous = Hashes.constantTimeEquals(previousHash == null ? NO_SECRET : previousHash, presented);
        Instant until = row.application().previousSecretExpiresAt();
        boolean previousValid = previous && previousHash != null && until != null && clock.instant().isBefore(until);
        return current || previousValid ? Optional.of(row.application()) : Optional.empty();
    }

    /** Development mode's reset emptied the database: no client's secrets are kept in memory any more. */
    public void forgetCachedClients() {
        secrets.forgetAll();
    }
}
