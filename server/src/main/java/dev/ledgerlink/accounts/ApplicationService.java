package dev.ledgerlink.accounts;

import dev.ledgerlink.store.DbTime;
import dev.ledgerlink.errors.ServiceException;
import dev.ledgerlink.errors.Validation;
import dev.ledgerlink.secrets.Hashes;
import dev.ledgerlink.secrets.RandomTokens;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.jdbi.v3.core.Jdbi;

/**
 * OAuth client applications: registration, secret rotation and client authentication.
 * Client secrets are 256 random bits, shown once, stored as SHA-256 and compared in constant time.
 */
public final class ApplicationService {
    public static final int MAX_REDIRECT_URIS = 20;
    private static final java.util.regex.Pattern FIXED_CLIENT_ID = java.util.regex.Pattern.compile("[A-Za-z0-9]{8,64}");
    private static final int MIN_FIXED_SECRET = 16;

    /** The application and its secret in plain text: the one moment the secret exists outside the client. */
    public record Created(Application application, String clientSecret) {}

    private final Jdbi jdbi;
    private final Clock clock;
    private final boolean devMode;

    public ApplicationService(Jdbi jdbi, Clock clock, boolean devMode) {
        this.jdbi = jdbi;
        this.clock = clock;
        this.devMode = devMode;
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
                .check(!uris.isEmpty(), "redirect_uri", "at least one redirect URI is required")
                .check(uris.size() <= MAX_REDIRECT_URIS, "redirect_uri", "at most " + MAX_REDIRECT_URIS + " redirect URIs")
                .check(!scopeSet.isEmpty(), "scope", "at least one scope is required")
                .check(ownerAccountId == null || jdbi.withExtension(AccountStore.class, s -> s.findByAccountId(ownerAccountId)).isPresent(),
                        "account", "no account has the id " + ownerAccountId);
        for (String uri : uris) {
            RedirectUriRule.problem(uri, devMode).ifPresent(p -> v.add("redirect_uri", uri + " " + p));
        }
        List<String> unknown = new ArrayList<>(scopeSet.stream().filter(s -> !Scopes.isKnown(s)).toList());
        if (!unknown.isEmpty()) v.add("scope", "unknown scope " + String.join(", ", unknown) + "; known: " + String.join(" ", Scopes.all()));
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

    /** A new secret replaces the old one at once; the old one stops authenticating. */
    public Created rotateSecret(String idOrClientId) {
        Application app = show(idOrClientId);
        String secret = RandomTokens.urlSafe(32);
        jdbi.useExtension(ApplicationStore.class, s -> s.rotateSecret(app.id(), Hashes.sha256Hex(secret), DbTime.now(clock)));
        return new Created(find(app.id()).orElseThrow(), secret);
    }

    /** The application these credentials belong to, or empty; constant-time on the secret. */
    public Optional<Application> authenticate(String clientId, String clientSecret) {
        if (clientId == null || clientSecret == null || clientId.length() > 64 || clientSecret.length() > 512) return Optional.empty();
        // One query on the token endpoint's hot path; the hash is computed even for an unknown client.
        String presented = Hashes.sha256Hex(clientSecret);
        Optional<ClientSecretStore.WithSecretHash> stored = jdbi.withHandle(h -> new ClientSecretStore(h).findWithSecretHash(clientId));
        if (stored.isEmpty() || !Hashes.constantTimeEquals(stored.get().secretHash(), presented)) return Optional.empty();
        return Optional.of(stored.get().application());
    }
}
