package dev.ledgerlink.sandbox;

import dev.ledgerlink.accounts.Account;
import dev.ledgerlink.accounts.AccountService;
import dev.ledgerlink.accounts.Application;
import dev.ledgerlink.accounts.ApplicationService;
import dev.ledgerlink.accounts.Membership;
import dev.ledgerlink.accounts.Scopes;
import dev.ledgerlink.accounts.User;
import dev.ledgerlink.accounts.UserService;
import dev.ledgerlink.callbacks.Callback;
import dev.ledgerlink.callbacks.CallbackSearch;
import dev.ledgerlink.callbacks.CallbackService;
import dev.ledgerlink.errors.ServiceException;
import dev.ledgerlink.oauth.TokenPrincipal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Applies a {@link SeedFile} through the same services the API and the CLI use, so every rule holds
 * (e-mail and password rules, redirect and callback URI rules, membership and scope for callbacks;
 * fixed client ids only in development mode). Idempotent: an entry already in place is left alone.
 * First every entry is compared with what exists, and any conflict (same key, different content) is
 * refused before anything is written, naming the entry; then what is missing is created in file order.
 */
public final class Seeder {
    /** What one run did: entries created and left alone, and the secrets generated for applications without a fixed one. */
    public record Result(List<String> created, List<String> unchanged, Map<String, String> generatedSecrets) {}

    private final UserService users;
    private final AccountService accounts;
    private final ApplicationService applications;
    private final CallbackService callbacks;

    public Seeder(UserService users, AccountService accounts, ApplicationService applications, CallbackService callbacks) {
        this.users = users;
        this.accounts = accounts;
        this.applications = applications;
        this.callbacks = callbacks;
    }

    public Result apply(SeedFile seed) {
        checkConflicts(seed);
        List<String> created = new ArrayList<>();
        List<String> unchanged = new ArrayList<>();
        Map<String, String> secrets = new LinkedHashMap<>();

        for (int i = 0; i < seed.users().size(); i++) {
            SeedFile.User u = seed.users().get(i);
            String entry = "users[" + i + "] " + u.email();
            if (users.findByEmail(u.email()).isPresent()) {
                unchanged.add(entry);
            } else {
                named(entry, () -> users.create(u.email(), u.password(), u.firstName(), u.lastName()));
                created.add(entry);
            }
        }
        for (int i = 0; i < seed.accounts().size(); i++) {
            SeedFile.Account a = seed.accounts().get(i);
            String entry = "accounts[" + i + "] " + a.accountId();
            if (accounts.find(a.accountId()).isPresent()) {
                unchanged.add(entry);
            } else {
                named(entry, () -> accounts.createWithId(a.accountId(), a.name(), a.timezone()));
                created.add(entry);
            }
            for (int j = 0; j < a.members().size(); j++) {
                SeedFile.Member m = a.members().get(j);
                String memberEntry = "accounts[" + i + "].members[" + j + "] " + m.user();
                User user = user(memberEntry, m.user());
                if (accounts.membership(user.id(), a.accountId()).isPresent()) {
                    unchanged.add(memberEntry);
                } else {
                    named(memberEntry, () -> accounts.addMember(a.accountId(), user.id(), role(m)));
                    created.add(memberEntry);
                }
            }
        }
        for (int i = 0; i < seed.applications().size(); i++) {
            SeedFile.Application a = seed.applications().get(i);
            String entry = "applications[" + i + "] " + a.name();
            if (existing(entry, a, new ArrayList<>()).isPresent()) {
                unchanged.add(entry);
                continue;
            }
            ApplicationService.Created c = named(entry, () -> a.clientId() == null
                    ? applications.create(a.name(), a.redirectUris(), a.scopes())
                    : applications.createFixed(a.name(), a.redirectUris(), a.scopes(), a.clientId(),
                            a.clientSecret() != null ? a.clientSecret() : dev.ledgerlink.secrets.RandomTokens.urlSafe(32)));
            if (a.clientSecret() == null) secrets.put(c.application().clientId(), c.clientSecret());
            created.add(entry + " (client_id " + c.application().clientId() + ")");
        }
        for (int i = 0; i < seed.callbacks().size(); i++) {
            SeedFile.Callback cb = seed.callbacks().get(i);
            String entry = "callbacks[" + i + "] " + cb.event() + " " + cb.uri();
            TokenPrincipal as = principal(entry, cb);
            if (existingCallback(entry, as, cb).isPresent()) {
                unchanged.add(entry);
            } else {
                Callback c = named(entry, () -> callbacks.register(as, cb.account(), cb.event(), cb.uri()));
                created.add(entry + " (callback " + c.id() + ", verification request sent)");
            }
        }
        return new Result(created, unchanged, secrets);
    }

    /** Same key, different content: refused before anything is written. */
    private void checkConflicts(SeedFile seed) {
        List<String> conflicts = new ArrayList<>();
        var seenEmails = new HashSet<String>();
        for (int i = 0; i < seed.users().size(); i++) {
            SeedFile.User u = seed.users().get(i);
            String entry = "users[" + i + "]";
            if (u.email() == null || u.email().isBlank()) throw ServiceException.invalid(entry, "email is required");
            if (!seenEmails.add(u.email().toLowerCase(Locale.ROOT))) conflicts.add(entry + " " + u.email() + " appears twice");
            Optional<User> existing = users.findByEmail(u.email());
            if (existing.isEmpty()) continue;
            if (!text(u.firstName()).equals(text(existing.get().firstName())) || !text(u.lastName()).equals(text(existing.get().lastName()))) {
                conflicts.add(entry + " " + u.email() + " exists with another name (" + existing.get().firstName() + " " + existing.get().lastName() + ")");
            } else if (users.authenticate(u.email(), u.password()).isEmpty()) {
                conflicts.add(entry + " " + u.email() + " exists with another password");
            }
        }
        for (int i = 0; i < seed.accounts().size(); i++) {
            SeedFile.Account a = seed.accounts().get(i);
            String entry = "accounts[" + i + "]";
            if (a.accountId() == null || a.accountId().isBlank()) throw ServiceException.invalid(entry, "account_id is required (seeded accounts keep their id)");
            Optional<Account> existing = accounts.find(a.accountId());
            if (existing.isPresent()) {
                String tz = a.timezone() == null || a.timezone().isBlank() ? "UTC" : a.timezone().trim();
                if (!existing.get().name().equals(text(a.name()).trim()) || !existing.get().timezone().equals(tz)) {
                    conflicts.add(entry + " " + a.accountId() + " exists as \"" + existing.get().name() + "\" (" + existing.get().timezone() + ")");
                }
            }
            for (int j = 0; j < a.members().size(); j++) {
                SeedFile.Member m = a.members().get(j);
                Optional<Membership> held = users.findByEmail(m.user()).flatMap(u -> accounts.membership(u.id(), a.accountId()));
                if (held.isPresent() && !held.get().role().equals(role(m))) {
                    conflicts.add(entry + ".members[" + j + "] " + m.user() + " is already " + held.get().role() + " of " + a.accountId());
                }
            }
        }
        for (int i = 0; i < seed.applications().size(); i++) {
            SeedFile.Application a = seed.applications().get(i);
            String entry = "applications[" + i + "] " + a.name();
            if (a.clientSecret() != null && a.clientId() == null) throw ServiceException.invalid("applications[" + i + "]", "client_secret needs a client_id");
            existing(entry, a, conflicts);
        }
        if (!conflicts.isEmpty()) {
            throw ServiceException.invalid(conflicts.stream().map(c -> new ServiceException.FieldViolation("seed", c)).toList());
        }
    }

    /** The application this entry names, if it exists; a difference in content is added to {@code conflicts}. */
    private Optional<Application> existing(String entry, SeedFile.Application a, List<String> conflicts) {
        Optional<Application> found;
        if (a.clientId() != null) {
            found = applications.findByClientId(a.clientId());
        } else {
            List<Application> named = applications.list().stream().filter(x -> x.name().equals(text(a.name()).trim())).toList();
            if (named.size() > 1) conflicts.add(entry + ": several applications have this name; give its client_id");
            found = named.stream().findFirst();
        }
        if (found.isEmpty()) return found;
        Application app = found.get();
        var uris = new HashSet<>(a.redirectUris() == null ? List.<String>of() : a.redirectUris().stream().map(String::trim).toList());
        var scopes = a.scopes() == null ? java.util.Set.<String>of() : Scopes.parse(String.join(" ", a.scopes()));
        if (!app.name().equals(text(a.name()).trim()) || !new HashSet<>(app.redirectUris()).equals(uris) || !app.scopes().equals(scopes)) {
            conflicts.add(entry + ": client_id " + app.clientId() + " exists with another name, redirect URIs or scopes");
        } else if (a.clientSecret() != null && applications.authenticate(app.clientId(), a.clientSecret()).isEmpty()) {
            conflicts.add(entry + ": client_id " + app.clientId() + " exists with another client_secret");
        }
        return found;
    }

    private Optional<Callback> existingCallback(String entry, TokenPrincipal as, SeedFile.Callback cb) {
        return named(entry, () -> callbacks.list(as, cb.account(), new CallbackSearch(1, CallbackSearch.MAX_PER_PAGE, null, null, cb.uri(), null)))
                .callbacks().stream().filter(c -> Objects.equals(c.event(), cb.event())).findFirst();
    }

    /** The callback's registrant, acting through the application with all of its scopes, as an API call would. */
    private TokenPrincipal principal(String entry, SeedFile.Callback cb) {
        User user = user(entry, cb.user());
        Application app = applications.findByClientId(cb.application())
                .or(() -> applications.list().stream().filter(a -> a.name().equals(cb.application())).findFirst())
                .orElseThrow(() -> ServiceException.invalid("seed", entry + ": no application " + cb.application()));
        return new TokenPrincipal(user.id(), app.id(), app.scopes(), Instant.MAX);
    }

    private User user(String entry, String email) {
        return users.findByEmail(email).orElseThrow(() -> ServiceException.invalid("seed", entry + ": no user " + email));
    }

    private static String role(SeedFile.Member m) {
        return m.role() == null || m.role().isBlank() ? "owner" : m.role().trim().toLowerCase(Locale.ROOT);
    }

    private static String text(String s) {
        return s == null ? "" : s;
    }

    /** Runs one creation; a refusal names the seed entry it came from. */
    private static <T> T named(String entry, java.util.function.Supplier<T> action) {
        try {
            return action.get();
        } catch (ServiceException e) {
            throw ServiceException.invalid("seed", entry + ": " + e.getMessage());
        }
    }
}
