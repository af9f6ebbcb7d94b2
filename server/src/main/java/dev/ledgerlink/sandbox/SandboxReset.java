package dev.ledgerlink.sandbox;

import dev.ledgerlink.accounts.AccountService;
import dev.ledgerlink.accounts.ApplicationService;
import dev.ledgerlink.accounts.DemoData;
import dev.ledgerlink.accounts.UserService;
import dev.ledgerlink.callbacks.CallbackService;
import dev.ledgerlink.errors.ServiceException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.jdbi.v3.core.Jdbi;

/**
 * Development mode's reset (docs/sandbox.md, "Reset"): the sandbox goes back to the state of its
 * seed files, or when it was given none, to an empty database with fresh demo data, without a
 * restart. Every table of the sandbox's data is emptied in one transaction (users, accounts,
 * applications, grants and tokens, callbacks, events, deliveries and their attempts, and the
 * sandbox's own controls), then the kept seed files are applied again through the {@link Seeder}.
 *
 * <p>The seed files are kept in the database (sandbox_seed) when they are applied, so a reset from
 * any process of the sandbox, the server's API, the CLI beside it, or the JUnit extension, finds
 * them. Ids are not reused: whatever a delivery engine was sending when the reset came finds its rows
 * gone, records nothing and sends nothing again, and a new row never takes an old one's id (message
 * ids stay unique for receivers that de-duplicate).
 */
public final class SandboxReset {
    /** What a reset restored: the seed files applied (by source) and what they created, or the demo data made instead. */
    public record Result(List<String> seeds, List<Seeder.Result> seeded, Optional<DemoData.Created> demo) {}

    private final SandboxStore store;
    private final UserService users;
    private final AccountService accounts;
    private final ApplicationService applications;
    private final CallbackService callbacks;

    public SandboxReset(Jdbi jdbi, Clock clock, UserService users, AccountService accounts, ApplicationService applications,
                        CallbackService callbacks) {
        this.store = new SandboxStore(jdbi, clock);
        this.users = users;
        this.accounts = accounts;
        this.applications = applications;
        this.callbacks = callbacks;
    }

    /** Keeps a seed file just applied, so that a reset applies it again. */
    public void keep(Path file) {
        String text;
        try {
            text = Files.readString(file);
        } catch (NoSuchFileException e) {
            throw ServiceException.badRequest("seed file " + file + " does not exist");
        } catch (IOException e) {
            throw ServiceException.badRequest("seed file " + file + " cannot be read: " + e.getMessage());
        }
        keep(file.toString(), file.getFileName().toString().toLowerCase(Locale.ROOT).endsWith(".json"), text);
    }

    /** Keeps a seed given as text ({@code source} names it: a resource, a file). */
    public void keep(String source, boolean json, String text) {
        SeedFile.parse(text, json, source);   // a broken file is refused now, not at the next reset
        store.keepSeed(source, json, text);
    }

    /** Empties the sandbox and applies its kept seed files again (or makes demo data when there are none). */
    public Result reset() {
        synchronized (SandboxReset.class) {   // two resets of one process at once would both make the demo data
            return resetNow();
        }
    }

    private Result resetNow() {
        if (!store.lastServerInDevelopmentMode()) {
            throw ServiceException.of(ServiceException.Kind.CONFLICT, "The last server over this database did not run in development mode: "
                    + "a reset would empty it. Reset only a sandbox's database (serve --dev).");
        }
        List<SandboxStore.KeptSeed> seeds = store.keptSeeds();
        List<SeedFile> parsed = seeds.stream().map(s -> SeedFile.parse(s.content(), s.json(), s.source())).toList();
        store.wipe();
        applications.forgetCachedClients();
        var seeder = new Seeder(users, accounts, applications, callbacks);
        List<Seeder.Result> seeded = new ArrayList<>();
        for (SeedFile f : parsed) seeded.add(seeder.apply(f));
        Optional<DemoData.Created> demo = seeds.isEmpty() ? DemoData.ensure(users, accounts, applications) : Optional.empty();
        return new Result(seeds.stream().map(SandboxStore.KeptSeed::source).toList(), seeded, demo);
    }
}
