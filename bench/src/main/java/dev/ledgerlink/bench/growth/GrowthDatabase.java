package dev.ledgerlink.bench.growth;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import dev.ledgerlink.bench.BenchRun;
import dev.ledgerlink.bench.proc.BenchDatabase;
import dev.ledgerlink.bench.proc.PrivatePostgres;
import dev.ledgerlink.secrets.SecretBox;
import dev.ledgerlink.store.Database;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Base64;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Stream;
import org.jdbi.v3.core.Jdbi;

/**
 * The growth scenario's filled database, kept between runs: a database of the harness's own PostgreSQL
 * cluster, or an H2 file, under the growth directory ({@code LEDGERLINK_BENCH_GROWTH_DIR}, by default
 * {@code /var/tmp/ledgerlink-growth}, outside the build tree so that {@code mvn clean} keeps it), with a
 * record beside it ({@code <kind>-<size>.json}, readable by its owner only): the size, the instant the
 * fill stands at, the salt of its secrets, the secrets key its callback codes are sealed with, and what
 * runs changed since. A run reuses a database whose record says it is complete and of the size asked
 * for, and fills one otherwise (an interrupted fill leaves no complete record, so it is made again).
 *
 * <p>Each run prepares it the same way before measuring ({@link #prepareForRun}): time has passed since
 * the last run, so the backlog's retries and the failing callbacks' outages are moved forward by that
 * much (otherwise the whole backlog would fall due, and after five days the failing callbacks would be
 * disabled and their backlog dropped), and the filled callbacks' URIs are pointed at this run's receiver.
 */
public final class GrowthDatabase {
    private static final ObjectMapper JSON = new ObjectMapper().registerModule(new JavaTimeModule())
            .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS).enable(SerializationFeature.INDENT_OUTPUT);

    /** What is kept beside the database. */
    public record Record(String kind, double scale, boolean complete, Instant asOf, String salt, String secretsKey, String build,
                         Instant filledAt, double fillSeconds, int receiverPort, Instant rebasedTo, Instant deliveriesRemovedBefore,
                         Instant tokensRemovedBefore, Map<String, Long> counts) {
        Record with(int port, Instant rebased) {
            return new Record(kind, scale, complete, asOf, salt, secretsKey, build, filledAt, fillSeconds, port, rebased,
                    deliveriesRemovedBefore, tokensRemovedBefore, counts);
        }

        Record removedBefore(Instant deliveries, Instant tokens) {
            return new Record(kind, scale, complete, asOf, salt, secretsKey, build, filledAt, fillSeconds, receiverPort, rebasedTo,
                    deliveries, tokens, counts);
        }
    }

    private final BenchDatabase.Kind kind;
    private final GrowthSize size;
    private final Path dir;
    private final PrivatePostgres pg;
    private Record record;

    private GrowthDatabase(BenchDatabase.Kind kind, GrowthSize size, Path dir, PrivatePostgres pg, Record record) {
        this.kind = kind;
        this.size = size;
        this.dir = dir;
        this.pg = pg;
        this.record = record;
    }

    /** The growth directory: LEDGERLINK_BENCH_GROWTH_DIR, or /var/tmp/ledgerlink-growth. */
    public static Path defaultDir() {
        String given = System.getenv("LEDGERLINK_BENCH_GROWTH_DIR");
        return Path.of(given == null || given.isBlank() ? "/var/tmp/ledgerlink-growth" : given);
    }

    /**
     * The kept database of this kind and size, filled now when there is none (or its fill did not
     * finish). {@code pg} is the harness's PostgreSQL (null for H2). {@code seedTimeout} is the seed
     * server's delivery.timeout (the production default, 10 s, in a run).
     */
    public static GrowthDatabase ensure(BenchRun run, BenchDatabase.Kind kind, GrowthSize size, Path dir, PrivatePostgres pg,
                                        Duration seedTimeout, GrowthFill.Progress progress) throws Exception {
        Files.createDirectories(dir);
        Path recordFile = dir.resolve(kind.label() + "-" + size.label() + ".json");
        if (Files.exists(recordFile)) {
            Record r = JSON.readValue(recordFile.toFile(), Record.class);
            GrowthDatabase kept = new GrowthDatabase(kind, size, dir, pg, r);
            if (r.complete() && kept.present()) {
                progress.say("growth: reusing the " + kind.label() + " database filled at " + r.filledAt() + " (" + r.counts() + ")");
                return kept;
            }
        }
        GrowthDatabase fresh = new GrowthDatabase(kind, size, dir, pg, null);
        fresh.fill(run, seedTimeout, progress);
        return fresh;
    }

    public GrowthSize size() { return size; }

    public Record record() { return record; }

    public GrowthWorld world() {
        return new GrowthWorld(size, record.asOf(), Base64.getDecoder().decode(record.salt()));
    }

    public String secretsKey() { return record.secretsKey(); }

    /** The database, kept on close. */
    public BenchDatabase database() {
        return kind == BenchDatabase.Kind.POSTGRES
                ? BenchDatabase.kept(kind, pg.url(pgName()), "postgres", pg::cpuSeconds)
                : BenchDatabase.kept(kind, h2Url(), "", null);
    }

    String pgName() {
        return "growth_" + size.label().replace('.', '_');
    }

    Path h2Dir() {
        return dir.resolve("h2-" + size.label());
    }

    String h2Url() {
        return "jdbc:h2:file:" + h2Dir().resolve("ledgerlink").toAbsolutePath();
    }

    private Path recordFile() {
        return dir.resolve(kind.label() + "-" + size.label() + ".json");
    }

    private boolean present() throws Exception {
        return kind == BenchDatabase.Kind.POSTGRES ? pg.exists(pgName()) : Files.exists(h2Dir().resolve("ledgerlink.mv.db"));
    }

    private void fill(BenchRun run, Duration seedTimeout, GrowthFill.Progress progress) throws Exception {
        long t0 = System.nanoTime();
        Files.deleteIfExists(recordFile());
        if (kind == BenchDatabase.Kind.POSTGRES) {
            pg.drop(pgName());
            pg.create(pgName());
        } else {
            deleteTree(h2Dir());
            Files.createDirectories(h2Dir());
        }
        progress.say("growth: filling a " + kind.label() + " database of size " + size.label() + " (" + size + ")");
        GrowthFill.Templates templates;
        BenchDatabase seedDb = kind == BenchDatabase.Kind.POSTGRES ? BenchDatabase.freshIn(pg, "growth_seed") : BenchDatabase.fresh(kind);
        try (BenchRun.Stage seed = run.stage(seedDb, SecretBox.newKeyBase64())) {
            templates = GrowthFill.seed(seed, seedTimeout);
        }
        byte[] salt = new byte[16];
        new SecureRandom().nextBytes(salt);
        String secretsKey = SecretBox.newKeyBase64();
        Instant asOf = Instant.now().truncatedTo(java.time.temporal.ChronoUnit.SECONDS);
        GrowthWorld world = new GrowthWorld(size, asOf, salt);
        // The fill's own connection: on H2 a larger page cache than a server's (the fill writes whole tables).
        String url = kind == BenchDatabase.Kind.POSTGRES ? pg.url(pgName()) + "?reWriteBatchedInserts=true" : h2Url() + ";CACHE_SIZE=262144";
        try (Database db = Database.open(url, kind == BenchDatabase.Kind.POSTGRES ? "postgres" : "", "", 2, null)) {
            new GrowthFill(db, world, SecretBox.fromBase64(secretsKey), templates, progress).fill();
            Map<String, Long> counts = db.jdbi().withHandle(GrowthFill::counts);
            double seconds = (System.nanoTime() - t0) / 1e9;
            record = new Record(kind.label(), size.scale(), true, asOf, Base64.getEncoder().encodeToString(salt), secretsKey,
                    System.getenv().getOrDefault("LEDGERLINK_BENCH_BUILD", "unknown"), Instant.now(), seconds, 1, asOf,
                    asOf.minus(GrowthWorld.EVENT_WINDOW), asOf.minus(GrowthWorld.CHAIN_WINDOW).minus(GrowthWorld.SUPERSEDED_WINDOW), counts);
        }
        save();
        progress.say(String.format("growth: %s database filled in %.0f s: %s", kind.label(), record.fillSeconds(), record.counts()));
    }

    /**
     * Moves the backlog's retries and the failing callbacks' outages forward by the time since the last
     * run, so they stand where they stood at the fill; points the filled callbacks at {@code receiverPort}.
     */
    public void prepareForRun(int receiverPort) throws Exception {
        Instant now = Instant.now();
        long driftMicros = Duration.between(record.rebasedTo(), now).toNanos() / 1000;
        Jdbi jdbi = jdbi();
        jdbi.useHandle(h -> {
            OffsetDateTime at = OffsetDateTime.ofInstant(now, ZoneOffset.UTC);
            if (driftMicros > 60_000_000L) {
                h.createUpdate("update deliveries set next_attempt_at = next_attempt_at + cast(:d as bigint) * interval '0.000001' second"
                                + " where state = 'pending' and next_attempt_at <= :now")
                        .bind("d", driftMicros).bind("now", at).execute();
                h.createUpdate("update callbacks set failing_since = failing_since + cast(:d as bigint) * interval '0.000001' second"
                                + " where failing_since is not null and disabled = false")
                        .bind("d", driftMicros).execute();
            }
            if (receiverPort != record.receiverPort()) {
                String from = "http://127.0.0.1:" + record.receiverPort() + "/";
                h.createUpdate("update callbacks set uri = replace(uri, :from, :to) where uri like :prefix")
                        .bind("from", from).bind("to", "http://127.0.0.1:" + receiverPort + "/").bind("prefix", from + "%").execute();
            }
        });
        record = record.with(receiverPort, now);
        save();
    }

    /** A connection to the database beside a server that has it open (on H2 through its automatic server). */
    public Jdbi jdbi() {
        BenchDatabase db = database();
        return Jdbi.create(dev.ledgerlink.store.JdbcUrls.normalize(db.url()), db.user().isEmpty() ? "sa" : db.user(), "");
    }

    /** Notes that retention removed the history before these instants (the next retention phase starts after them). */
    public void removedBefore(Instant deliveries, Instant tokens) throws IOException {
        record = record.removedBefore(deliveries, tokens);
        save();
    }

    private void save() throws IOException {
        Path file = recordFile();
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        Files.deleteIfExists(tmp);
        Files.createFile(tmp, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        JSON.writeValue(tmp.toFile(), record);
        Files.move(tmp, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
    }

    static void deleteTree(Path p) throws IOException {
        if (!Files.exists(p)) return;
        try (Stream<Path> files = Files.walk(p)) {
            for (Path f : files.sorted(Comparator.reverseOrder()).toList()) Files.delete(f);
        }
    }

    /** The counts as a map for results.json. */
    public Map<String, Object> describe() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("size", size.label());
        m.put("filled_at", String.valueOf(record.filledAt()));
        m.put("fill_seconds", record.fillSeconds());
        m.put("rows_at_fill", record.counts());
        return m;
    }
}
