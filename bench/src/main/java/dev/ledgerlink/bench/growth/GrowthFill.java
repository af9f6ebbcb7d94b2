package dev.ledgerlink.bench.growth;

import dev.ledgerlink.accounts.Scopes;
import dev.ledgerlink.bench.BenchRun;
import dev.ledgerlink.bench.delivery.DeliveryRig;
import dev.ledgerlink.bench.proc.ServerProcess;
import dev.ledgerlink.secrets.Hashes;
import dev.ledgerlink.secrets.SecretBox;
import dev.ledgerlink.store.Database;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.core.statement.Update;

/**
 * Fills a migrated, empty database to a {@link GrowthSize} by the rules of {@link GrowthWorld}: the
 * rows the service would have written over a year of use, written in bulk.
 *
 * <p>How it stays what the service writes: every text the service makes and the fill cannot derive
 * is taken from the service itself, in a seed database first ({@link #seed}): a user signed up through
 * the accounts service (its Argon2id hash is every filled user's), and three real attempts the engine
 * made to callbacks registered and verified through the API (answered, failing with a 500, timing
 * out), whose recorded request and response every filled attempt of that outcome carries. The rest
 * (ids, keys, times, states, counts) follows the service's rules: the fan-out is the publish's own
 * condition, states and attempt counts follow the retry schedule, token hashes are SHA-256 of 32-byte
 * secrets, client secrets and callback codes are sealed and hashed with the service's own classes.
 * GrowthFillTest shows that the service then reads the filled rows as its own: a filled refresh chain
 * continues, filled backlog deliveries are claimed, signed with their callback's code and sent.
 */
public final class GrowthFill {
    /** A real attempt's recorded columns. */
    public record Attempt(Integer status, long durationMs, String error, String requestHeaders, String requestBody,
                          String responseHeaders, String responseBody) {}

    /** What the seed took from the service: the password hash and one attempt of each outcome. */
    public record Templates(String passwordHash, Attempt answered, Attempt failing, Attempt hanging) {}

    /** Progress lines go here (stdout in a run). */
    public interface Progress {
        void say(String line);
    }

    private final Jdbi jdbi;
    private final FillSql.Dialect dialect;
    private final GrowthWorld world;
    private final SecretBox secrets;
    private final Templates templates;
    private final Progress progress;
    private final int chunk;

    public GrowthFill(Database db, GrowthWorld world, SecretBox secrets, Templates templates, Progress progress) {
        this.jdbi = db.jdbi();
        this.dialect = db.dialect() == Database.Dialect.POSTGRESQL ? FillSql.Dialect.POSTGRES : FillSql.Dialect.H2;
        this.world = world;
        this.secrets = secrets;
        this.templates = templates;
        this.progress = progress;
        // Rows per statement: each range is one statement and one transaction.
        this.chunk = dialect == FillSql.Dialect.POSTGRES ? 1_000_000 : 100_000;
    }

    /**
     * Registers three callbacks of a seed server (development mode, loopback receiver) through the API,
     * verifies them with the codes the receiver got, publishes one event to all three and waits for the
     * engine's attempts; signs a user up with {@link GrowthWorld#PASSWORD}. The seed stage's database is
     * thrown away after.
     */
    public static Templates seed(BenchRun.Stage stage, Duration deliveryTimeout) throws Exception {
        String email = "seed@growth.ledgerlink.test";
        stage.setup(s -> s.users().create(email, GrowthWorld.PASSWORD, "Growth", "Seed"));
        stage.settings.put("delivery.timeout", deliveryTimeout.toString());
        try (DeliveryRig rig = DeliveryRig.prepare(stage)) {
            ServerProcess server = stage.start();
            String missing = rig.connect(server);
            if (missing != null) throw new IllegalStateException("the seed cannot run on this build: " + missing);
            for (String path : List.of("/hook/seed", "/fail/seed", "/hang/seed")) rig.register("invoice", path);
            try (DeliveryRig.Publisher p = rig.publisher()) {
                p.publish("invoice.create", 1);
            }
            Jdbi jdbi = Jdbi.create(dev.ledgerlink.store.JdbcUrls.normalize(stage.db.url()), stage.db.user().isEmpty() ? "sa" : stage.db.user(), "");
            String attempts = """
                    select c.uri, a.status_code, a.duration_ms, a.error, a.request_headers, a.request_body, a.response_headers, a.response_body
                    from delivery_attempts a join deliveries d on d.id = a.delivery_id join callbacks c on c.id = d.callback_id
                    where d.kind = 'event'""";
            long deadline = System.nanoTime() + deliveryTimeout.plusSeconds(60).toNanos();
            Map<String, Attempt> byPath = new LinkedHashMap<>();
            while (byPath.size() < 3 && System.nanoTime() < deadline) {
                Thread.sleep(200);
                byPath.clear();
                jdbi.useHandle(h -> h.createQuery(attempts).map((rs, ctx) -> {
                    int status = rs.getInt("status_code");
                    return Map.entry(rs.getString("uri"), new Attempt(rs.wasNull() ? null : status, rs.getLong("duration_ms"), rs.getString("error"),
                            rs.getString("request_headers"), rs.getString("request_body"), rs.getString("response_headers"), rs.getString("response_body")));
                }).forEach(e -> byPath.put(e.getKey().replaceAll(".*/(hook|fail|hang)/.*", "$1"), e.getValue())));
            }
            if (byPath.size() < 3) throw new IllegalStateException("the seed server made " + byPath.size() + " of its 3 attempts: " + byPath.keySet());
            String hash = jdbi.withHandle(h -> h.createQuery("select password_hash from users where email_key = :e").bind("e", email)
                    .mapTo(String.class).one());
            stage.stopServer();
            return new Templates(hash, byPath.get("hook"), byPath.get("fail"), byPath.get("hang"));
        }
    }

    /** Writes every table's rows, restarts the identities after them and brings the planner's statistics up to date. */
    public void fill() {
        GrowthSize z = world.size();
        long t0 = System.nanoTime();
        bulk("users", FillSql.USERS, 1, z.users());
        bulk("accounts", FillSql.ACCOUNTS, 1, z.accounts());
        bulk("memberships", FillSql.MEMBERSHIPS, 1, z.users());
        applications();
        bulk("grants", FillSql.GRANTS, 1, z.grants());
        bulk("token slots", FillSql.SLOTS, 0, z.currentGrants() - 1);
        bulk("consents", FillSql.CONSENTS, 0, z.currentGrants() - 1);
        bulk("authorization codes", FillSql.codes(dialect), 1, z.supersededGrants());
        bulk("refresh tokens", FillSql.refreshTokens(dialect), 1, z.refreshTokens());
        bulk("access tokens", FillSql.accessTokens(dialect), 1, z.refreshTokens());
        callbacks();
        bulk("events", FillSql.EVENTS, 1, z.events());
        fanOut(z.events());
        long deliveries = max("deliveries");
        bulk("delivery attempts", FillSql.ATTEMPTS, 1, deliveries);
        jdbi.useHandle(h -> {
            h.execute(FillSql.LAST_ATTEMPTS);
            h.execute(FillSql.EMPTY_LAST_ATTEMPTS);
        });
        for (String table : FILLED) restartIdentity(table);
        progress.say(String.format("growth fill: rows written in %.0f s; statistics next", (System.nanoTime() - t0) / 1e9));
        jdbi.useHandle(h -> {
            if (dialect == FillSql.Dialect.POSTGRES) {
                // What autovacuum would have done to a database that grew over a year: visibility map and statistics.
                for (String table : FILLED) h.execute("vacuum (analyze) " + table);
                h.execute("vacuum (analyze) delivery_attempts");
                h.execute("vacuum (analyze) callback_last_attempts");
                h.execute("vacuum (analyze) oauth_token_slots");
                h.execute("vacuum (analyze) oauth_consent_scopes");
            } else {
                h.execute("analyze");
            }
        });
        progress.say(String.format("growth fill: done in %.0f s", (System.nanoTime() - t0) / 1e9));
    }

    /** Tables whose ids the fill chose (or, for deliveries and attempts, took from the identity in order). */
    static final List<String> FILLED = List.of("users", "accounts", "memberships", "applications", "oauth_grants", "oauth_authorization_codes",
            "oauth_refresh_tokens", "oauth_access_tokens", "callbacks", "events", "deliveries", "delivery_attempts");

    /**
     * A statement with the world's numbers written into it as literals, so that both databases type
     * them as bigint (H2 types a parameter in a CASE of a derived table as a decimal, and then divides
     * with a fraction), and its other parameters bound.
     */
    private Update statement(Handle h, String template) {
        GrowthSize z = world.size();
        Map<String, Long> numbers = new LinkedHashMap<>();
        numbers.put("users", (long) z.users());
        numbers.put("accounts", (long) z.accounts());
        numbers.put("apps", (long) z.applications());
        numbers.put("hot", (long) z.hotGrants());
        numbers.put("others", (long) z.otherGrants());
        numbers.put("superseded", (long) z.supersededGrants());
        numbers.put("failing", (long) z.failingCallbacks());
        numbers.put("headEvents", z.headEvents());
        numbers.put("userStep", FillSql.micros(Duration.ofDays(300)) / z.users());
        numbers.put("accountStep", FillSql.micros(Duration.ofDays(300)) / z.accounts());
        numbers.put("oldStep", FillSql.micros(Duration.ofDays(200)) / Math.max(z.otherGrants(), z.supersededGrants()));
        numbers.put("tokenStep", FillSql.micros(GrowthWorld.CHAIN_WINDOW.minusMinutes(1)) / (2 * z.tokensPerRound() + 1));
        numbers.put("supersededStep", FillSql.micros(GrowthWorld.SUPERSEDED_WINDOW) / (z.supersededGrants() + 1));
        numbers.put("headStep", FillSql.micros(GrowthWorld.EVENT_WINDOW.minus(GrowthWorld.TAIL_WINDOW)) / z.headEvents());
        numbers.put("tailStep", FillSql.micros(GrowthWorld.TAIL_WINDOW.minusMinutes(1)) / (z.tailEvents() + 1));
        String sql = template;
        for (var n : numbers.entrySet()) sql = sql.replaceAll(":" + n.getKey() + "\\b", "cast(" + n.getValue() + " as bigint)");
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("asOf", OffsetDateTime.ofInstant(world.asOf(), ZoneOffset.UTC));
        p.put("scope", GrowthWorld.SCOPE);
        p.put("passwordHash", templates.passwordHash());
        p.put("salt", world.salt());
        p.put("accessSalt", GrowthWorld.concat(world.salt(), "access".getBytes()));
        p.put("codeSalt", GrowthWorld.concat(world.salt(), "code".getBytes()));
        bindAttempt(p, "ok", templates.answered());
        bindAttempt(p, "fail", templates.failing());
        bindAttempt(p, "hang", templates.hanging());
        Update u = h.createUpdate(sql);
        String text = sql;
        p.forEach((k, v) -> {
            if (text.matches("(?s).*:" + k + "\\b.*")) u.bind(k, v);
        });
        return u;
    }

    private static void bindAttempt(Map<String, Object> p, String prefix, Attempt a) {
        p.put(prefix + "Status", a.status());
        p.put(prefix + "Duration", a.durationMs());
        p.put(prefix + "Error", a.error());
        p.put(prefix + "RequestHeaders", a.requestHeaders());
        p.put(prefix + "RequestBody", a.requestBody());
        p.put(prefix + "ResponseHeaders", a.responseHeaders());
        p.put(prefix + "ResponseBody", a.responseBody());
    }

    private void bulk(String what, String sql, long from, long to) {
        long t0 = System.nanoTime();
        long rows = 0;
        for (long lo = from; lo <= to; lo += chunk) {
            long hi = Math.min(to, lo + chunk - 1);
            long l = lo;
            rows += jdbi.withHandle(h -> statement(h, sql).bind("from", l).bind("to", hi).execute());
        }
        say(what, rows, t0);
    }

    /** Deliveries by ranges of events; the fan-out is what makes the count, so ranges are of events, not of rows. */
    private void fanOut(long events) {
        long t0 = System.nanoTime();
        long rows = 0;
        long step = Math.max(1, chunk / 2);
        for (long lo = 1; lo <= events; lo += step) {
            long hi = Math.min(events, lo + step - 1);
            long l = lo;
            rows += jdbi.withHandle(h -> statement(h, FillSql.DELIVERIES).bind("from", l).bind("to", hi).execute());
        }
        say("deliveries", rows, t0);
    }

    private void say(String what, long rows, long t0) {
        double s = (System.nanoTime() - t0) / 1e9;
        progress.say(String.format("growth fill: %,d %s in %.0f s (%,.0f rows/s)", rows, what, s, rows / Math.max(s, 1e-3)));
    }

    /** Applications: their secrets' SHA-256 (hex, as the accounts service stores it) is made here, a batch of rows at a time. */
    private void applications() {
        GrowthSize z = world.size();
        long t0 = System.nanoTime();
        String redirects = "https://app%d.growth.example/callback\nhttp://127.0.0.1:9/bench/callback";
        String scopes = Scopes.join(Scopes.all());
        jdbi.useHandle(h -> {
            var batch = h.prepareBatch("""
                    insert into applications (id, client_id, client_secret_hash, name, redirect_uris, scopes, created_at, secret_rotated_at, owner_account_id)
                    values (:id, :clientId, :hash, :name, :redirects, :scopes, :at, :at, :owner)""");
            for (long p = 1; p <= z.applications(); p++) {
                OffsetDateTime at = OffsetDateTime.ofInstant(world.asOf().minus(Duration.ofDays(380)).plusSeconds(p), ZoneOffset.UTC);
                batch.bind("id", p).bind("clientId", GrowthWorld.clientId(p)).bind("hash", Hashes.sha256Hex(world.clientSecret(p)))
                        .bind("name", "Growth App " + p).bind("redirects", redirects.formatted(p)).bind("scopes", scopes).bind("at", at)
                        .bind("owner", p <= z.accounts() ? GrowthWorld.accountId(p) : null).add();
            }
            batch.execute();
        });
        say("applications", z.applications(), t0);
    }

    /**
     * Callbacks, five per account, each with its code sealed under the kept secrets key and hashed as
     * the callbacks service does; failing ones failing since their outage began, disabled ones since
     * ten days, unverified ones never verified. URIs point at the loopback receiver's paths by kind
     * (the port is set again for each run: GrowthScenario).
     */
    private void callbacks() {
        GrowthSize z = world.size();
        long t0 = System.nanoTime();
        String sql = """
                insert into callbacks (id, account_id, application_id, user_id, event, event_noun, uri, verified, disabled,
                                       verifier_sealed, verifier_hash, failing_since, created_at, updated_at)
                values (:id, :account, :app, :user, :event, :noun, :uri, :verified, :disabled, :sealed, :hash, :failingSince, :at, :at)""";
        int perBatch = 2_000;
        for (long lo = 1; lo <= z.callbacks(); lo += perBatch) {
            long hi = Math.min(z.callbacks(), lo + perBatch - 1);
            long l = lo;
            jdbi.useHandle(h -> {
                var batch = h.prepareBatch(sql);
                for (long c = l; c <= hi; c++) {
                    long n = (c - 1) / GrowthSize.CALLBACKS_PER_ACCOUNT + 1;
                    String event = GrowthWorld.CALLBACK_EVENTS.get((int) ((c - 1) % GrowthSize.CALLBACKS_PER_ACCOUNT));
                    GrowthWorld.CallbackKind kind = GrowthWorld.CallbackKind.of(c);
                    String code = world.callbackCode(c);
                    Instant failingSince = switch (kind) {
                        case FAILING, HANGING -> world.outageStart(c);
                        case DISABLED -> world.asOf().minus(Duration.ofDays(10));
                        default -> null;
                    };
                    batch.bind("id", c).bind("account", GrowthWorld.accountId(n)).bind("app", (n - 1) % z.applications() + 1).bind("user", n)
                            .bind("event", event).bind("noun", event.replaceAll("\\..*", ""))
                            .bind("uri", "http://127.0.0.1:1/" + kind.path() + "/" + c)
                            .bind("verified", kind != GrowthWorld.CallbackKind.UNVERIFIED).bind("disabled", kind == GrowthWorld.CallbackKind.DISABLED)
                            .bind("sealed", secrets.seal(code)).bind("hash", Hashes.sha256Hex(code))
                            .bind("failingSince", failingSince == null ? null : OffsetDateTime.ofInstant(failingSince, ZoneOffset.UTC))
                            .bind("at", OffsetDateTime.ofInstant(world.asOf().minus(Duration.ofDays(200)).plusSeconds(c), ZoneOffset.UTC)).add();
                }
                batch.execute();
            });
        }
        say("callbacks", z.callbacks(), t0);
    }

    private long max(String table) {
        return jdbi.withHandle(h -> h.createQuery("select coalesce(max(id), 0) from " + table).mapTo(Long.class).one());
    }

    /** The next id the service takes is after the fill's last. */
    private void restartIdentity(String table) {
        long next = max(table) + 1;
        jdbi.useHandle(h -> {
            if (dialect == FillSql.Dialect.POSTGRES) {
                h.createQuery("select setval(pg_get_serial_sequence('" + table + "', 'id'), :n, false)").bind("n", next).mapTo(Long.class).one();
            } else {
                h.execute("alter table " + table + " alter column id restart with " + next);
            }
        });
    }

    /** Rows of each filled table, for the record kept with the database. */
    public static Map<String, Long> counts(Handle h) {
        Map<String, Long> out = new LinkedHashMap<>();
        for (String table : List.of("users", "accounts", "applications", "oauth_grants", "oauth_refresh_tokens", "oauth_access_tokens",
                "oauth_authorization_codes", "callbacks", "events", "deliveries", "delivery_attempts")) {
            out.put(table, h.createQuery("select count(*) from " + table).mapTo(Long.class).one());
        }
        out.put("deliveries_pending", h.createQuery("select count(*) from deliveries where state = 'pending'").mapTo(Long.class).one());
        return out;
    }
}
