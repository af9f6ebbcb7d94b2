package dev.ledgerlink.bench.growth;

import dev.ledgerlink.callbacks.EventReceivers;
import java.time.Duration;

/**
 * The bulk statements of the fill: each writes a range of one table's rows ({@code :from} to
 * {@code :to}) with {@link GrowthWorld}'s rules, server-side, from {@code generate_series} (both
 * databases have it). The columns and values are those the service writes for such a row; what is
 * not the service's own is said beside it. The two databases differ only in how a SHA-256 and a
 * bigint's bytes are written ({@link Dialect}).
 */
final class FillSql {
    private FillSql() {}

    /** The two SQL functions the databases spell differently. */
    enum Dialect {
        POSTGRES("sha256(%s)", "int8send(%s)", "encode(sha256(%s), 'hex')", "bytea"),
        H2("hash('SHA-256', %s)", "cast(%s as varbinary)", "lower(rawtohex(hash('SHA-256', %s)))", "varbinary");

        private final String sha256;
        private final String bytesOf;
        private final String sha256Hex;
        private final String binaryType;

        Dialect(String sha256, String bytesOf, String sha256Hex, String binaryType) {
            this.sha256 = sha256;
            this.bytesOf = bytesOf;
            this.sha256Hex = sha256Hex;
            this.binaryType = binaryType;
        }

        /** A bytes parameter, typed: untyped, H2 concatenates it with bytes as text (and bytes that are no UTF-8 collide). */
        String bytesParam(String name) { return "cast(:" + name + " as " + binaryType + ")"; }

        String sha256(String bytes) { return sha256.formatted(bytes); }
        String bytesOf(String bigint) { return bytesOf.formatted("cast(" + bigint + " as bigint)"); }
        String sha256Hex(String bytes) { return sha256Hex.formatted(bytes); }
    }

    static long micros(Duration d) {
        return d.toNanos() / 1000;
    }

    /** asOf moved by an expression of microseconds (negative: before). */
    static String at(String micros) {
        return "(cast(:asOf as timestamp with time zone) + (" + micros + ") * interval '0.000001' second)";
    }

    /** The user and application of pair {@code j} (GrowthWorld.userOfPair, applicationOfPair). */
    static String userOfPair(String j) {
        return "(mod(" + j + ", :users) + 1)";
    }

    static String applicationOfPair(String j) {
        return "(mod((mod(" + j + ", :users) + 1) * 7 + (" + j + " / :users) * 499, :apps) + 1)";
    }

    static final String USERS = """
            insert into users (id, email, email_key, password_hash, first_name, last_name, created_at)
            select g, 'user' || g || '@growth.ledgerlink.test', 'user' || g || '@growth.ledgerlink.test', :passwordHash, 'Growth', 'User',
                   %s
            from generate_series(:from, :to) s(g)""".formatted(at("-" + micros(Duration.ofDays(400)) + " + g * :userStep"));

    static final String ACCOUNTS = """
            insert into accounts (id, account_id, name, timezone, created_at)
            select g, 'g' || lpad(cast(g as varchar(10)), 7, '0'), 'Growth Business ' || g, 'UTC', %s
            from generate_series(:from, :to) s(g)""".formatted(at("-" + micros(Duration.ofDays(400)) + " + g * :accountStep"));

    /** User u belongs to account ((u - 1) mod accounts) + 1; the first user of each account owns it. */
    static final String MEMBERSHIPS = """
            insert into memberships (id, account_id, user_id, role, created_at)
            select g, mod(g - 1, :accounts) + 1, g, case when g <= :accounts then 'owner' else 'employee' end,
                   %s
            from generate_series(:from, :to) s(g)""".formatted(at("-" + micros(Duration.ofDays(400)) + " + g * :userStep"));

    /**
     * A grant's columns from its id {@code g}: superseded grants first (1 .. superseded), then the hot
     * grants, then the other current grants; {@code j} is the grant's pair. A current grant that
     * superseded an older one was made by a code exchange (its code is code i + 1), just before the
     * first token of its chain.
     */
    static final String GRANT_ROWS = """
            select g,
                   case when g <= :superseded then :hot + g - 1 else g - :superseded - 1 end as j,
                   case when g > :superseded + :hot and g - :superseded - :hot - 1 < :superseded then g - :superseded - :hot else null end as code,
                   case when g <= :superseded then -%1$d + g * :oldStep
                        when g <= :superseded + :hot then -%1$d + (g - :superseded - 1) * :oldStep
                        when g - :superseded - :hot - 1 < :superseded then -%2$d + 2 * (g - :superseded - :hot) * :tokenStep - 1000000
                        else -%1$d + (g - :superseded - :hot - 1) * :oldStep end as created_us,
                   case when g <= :superseded then -%2$d + 2 * g * :tokenStep - 1000000 else null end as superseded_us
            from generate_series(:from, :to) s(g)""".formatted(micros(Duration.ofDays(365)), micros(GrowthWorld.CHAIN_WINDOW));

    static final String GRANTS = """
            insert into oauth_grants (id, user_id, application_id, code_id, scopes, created_at, superseded_at)
            select g, %s, %s, code, :scope, %s, case when superseded_us is null then null else %s end
            from (%s) x""".formatted(userOfPair("j"), applicationOfPair("j"), at("created_us"), at("superseded_us"), GRANT_ROWS);

    /** One slot per pair j (0-based, :from..:to), issued when its current grant was made; its consent when its first grant was. */
    static final String SLOTS = """
            insert into oauth_token_slots (user_id, application_id, issued_at)
            select %s, %s, g.created_at
            from generate_series(:from, :to) s(j) join oauth_grants g on g.id = :superseded + 1 + s.j""".formatted(
            userOfPair("s.j"), applicationOfPair("s.j"));

    static final String CONSENTS = """
            insert into oauth_consent_scopes (user_id, application_id, scope, granted_at)
            select %s, %s, :scope, coalesce(old.created_at, g.created_at)
            from generate_series(:from, :to) s(j) join oauth_grants g on g.id = :superseded + 1 + s.j
            left join oauth_grants old on s.j >= :hot and s.j - :hot < :superseded and old.id = s.j - :hot + 1""".formatted(
            userOfPair("s.j"), applicationOfPair("s.j"));

    /**
     * The code each re-authorizing grant was exchanged for (code i of other grant i - 1), used a second
     * after it was made; a PKCE S256 challenge of the usual 43 characters.
     */
    static String codes(Dialect d) {
        String hash = d.sha256Hex(d.bytesParam("codeSalt") + " || " + d.bytesOf("s.i"));
        return """
                insert into oauth_authorization_codes (id, code_hash, application_id, user_id, scopes, redirect_uri, code_challenge,
                                                       code_challenge_method, created_at, expires_at, used_at)
                select s.i, %s, g.application_id, g.user_id, :scope,
                       'https://app' || g.application_id || '.growth.example/callback', substring(%s from 1 for 43), 'S256',
                       g.created_at - interval '2' second, g.created_at + interval '598' second, g.created_at - interval '1' second
                from generate_series(:from, :to) s(i) join oauth_grants g on g.id = :superseded + :hot + s.i""".formatted(
                hash, d.sha256Hex(d.bytesParam("codeSalt") + " || " + d.bytesOf("-s.i")));
    }

    /**
     * Refresh token t's grant g, its place k in g's chain, the pair j, when it was minted and when the
     * next one of its chain was (when it was used; null for the chain's last, the live one). Tokens 1 ..
     * superseded are the superseded grants' last ones; after them the hot grants' and the other grants'
     * rounds alternate, odd and even.
     */
    static final String TOKEN_ROWS = """
            select t, g, k, case when g <= :superseded then :hot + g - 1 else g - :superseded - 1 end as j, created_us, next_us
            from (select s.t as t,
                         case when s.t <= :superseded then s.t
                              when mod(s.t - :superseded, 2) = 1 then :superseded + 1 + mod((s.t - :superseded - 1) / 2, :hot)
                              else :superseded + :hot + 1 + mod((s.t - :superseded) / 2 - 1, :others) end as g,
                         case when s.t <= :superseded then 0
                              when mod(s.t - :superseded, 2) = 1 then (s.t - :superseded - 1) / 2 / :hot
                              else ((s.t - :superseded) / 2 - 1) / :others end as k,
                         case when s.t <= :superseded then -%1$d + s.t * :supersededStep
                              else -%2$d + (s.t - :superseded) * :tokenStep end as created_us,
                         case when s.t <= :superseded then null
                              when mod(s.t - :superseded, 2) = 1 and (s.t - :superseded - 1) / 2 / :hot < %3$d
                                   then -%2$d + (s.t - :superseded + 2 * :hot) * :tokenStep
                              when mod(s.t - :superseded, 2) = 0 and ((s.t - :superseded) / 2 - 1) / :others < %4$d
                                   then -%2$d + (s.t - :superseded + 2 * :others) * :tokenStep
                              else null end as next_us
                  from generate_series(:from, :to) s(t)) x""".formatted(
            micros(GrowthWorld.CHAIN_WINDOW.plus(GrowthWorld.SUPERSEDED_WINDOW)), micros(GrowthWorld.CHAIN_WINDOW),
            GrowthSize.HOT_CHAIN - 1, GrowthSize.OTHER_CHAIN - 1);

    static String refreshTokens(Dialect d) {
        String secret = d.sha256(d.bytesParam("salt") + " || " + d.bytesOf("g") + " || " + d.bytesOf("k"));
        return """
                insert into oauth_refresh_tokens (id, token_hash, grant_id, user_id, application_id, scopes, created_at, used_at)
                select t, %s, g, %s, %s, :scope, %s, case when next_us is null then null else %s end
                from (%s) y""".formatted(d.sha256(secret), userOfPair("j"), applicationOfPair("j"), at("created_us"), at("next_us"), TOKEN_ROWS);
    }

    /** The access token minted with each refresh token: same id, grant and time, expiring after the access token lifetime. */
    static String accessTokens(Dialect d) {
        String hash = d.sha256(d.bytesParam("accessSalt") + " || " + d.bytesOf("t"));
        return """
                insert into oauth_access_tokens (id, token_hash, grant_id, user_id, application_id, scopes, created_at, expires_at)
                select t, %s, g, %s, %s, :scope, %s, %s
                from (%s) y""".formatted(hash, userOfPair("j"), applicationOfPair("j"), at("created_us"),
                at("created_us + " + micros(GrowthWorld.ACCESS_TTL)), TOKEN_ROWS);
    }

    /** The subscribed names of a callback's place in its account (GrowthWorld.CALLBACK_EVENTS) that only it receives. */
    private static final String BURST_NAME = """
            case mod(c - 1, 5) when 0 then 'invoice.update' when 1 then 'invoice.create' when 2 then 'client.update'
                               when 3 then 'payment.create' else 'project.create' end""";

    /** GrowthWorld.failingCallback in SQL. */
    private static final String FAILING_CALLBACK = "case when mod(f, 10) = 0 then (f / 10 + 1) * 100 else (f / 10) * 100 + mod(f, 10) end";

    /** Event e's time in microseconds from asOf: evenly over the head, then more densely over the last 44 hours. */
    static String eventMicros(String e) {
        return "case when " + e + " <= :headEvents then -" + micros(GrowthWorld.EVENT_WINDOW) + " + " + e + " * :headStep"
                + " else -" + micros(GrowthWorld.TAIL_WINDOW) + " + (" + e + " - :headEvents) * :tailStep end";
    }

    /**
     * Events: in the last 44 hours three of every four are bursts to a failing callback (its account,
     * a name only it or its 'invoice' sibling receives); the others go to an account spread by a
     * multiplicative hash, with one of six names (invoice.create fans out to two callbacks). Published
     * by the account's owner, without Idempotency-Key or trace context.
     */
    static final String EVENTS = """
            insert into events (id, account_id, name, object_id, user_id, created_at)
            select e, 'g' || lpad(cast(n as varchar(10)), 7, '0'), name, e, n, %s
            from (select e, case when burst then (c - 1) / 5 + 1 else mod(e * 7919, :accounts) + 1 end as n,
                         case when burst then %s
                              else case mod(e, 6) when 0 then 'invoice.create' when 1 then 'invoice.update' when 2 then 'client.update'
                                                  when 3 then 'payment.create' when 4 then 'project.create' else 'invoice.create' end end as name
                  from (select e, burst, %s as c
                        from (select s.e as e, s.e > :headEvents and mod(s.e - :headEvents - 1, 4) <> 0 as burst,
                                     mod((s.e - :headEvents - 1) * 7919, :failing) as f
                              from generate_series(:from, :to) s(e)) a) b) x""".formatted(at(eventMicros("e")), BURST_NAME, FAILING_CALLBACK);

    /**
     * The wait from a delivery's publish to its attempt n + 1 (n = 0 .. 7) on delivery.retry-schedule's
     * default (1 min, 5, 30, 2 h, 6, 12, 24 h), in minutes.
     */
    static final long[] CUMULATIVE_WAIT_MINUTES = {0, 1, 6, 36, 156, 516, 1236, 2676};

    /** That wait in microseconds, for attempt {@code n} + 1. */
    static String cumulativeWait(String n) {
        StringBuilder b = new StringBuilder("case " + n);
        for (int i = 0; i < CUMULATIVE_WAIT_MINUTES.length; i++) b.append(" when ").append(i).append(" then ").append(CUMULATIVE_WAIT_MINUTES[i] * 60_000_000L);
        return b.append(" end").toString();
    }

    /** Attempts a pending delivery of age {@code ageMicros} has had so far on that schedule (at most 7 within 44 hours). */
    static String attemptsSoFar(String ageMicros) {
        StringBuilder b = new StringBuilder("case");
        for (int n = 7; n >= 2; n--) b.append(" when ").append(ageMicros).append(" >= ").append(CUMULATIVE_WAIT_MINUTES[n - 1] * 60_000_000L).append(" then ").append(n);
        return b.append(" else 1 end").toString();
    }

    /** When callback c's outage began, in microseconds from asOf (GrowthWorld.outageStart). */
    static String outageMicros(String c) {
        long half = micros(GrowthWorld.LONGEST_OUTAGE) / 2;
        return "(-" + half + " - " + half + " * mod(" + c + " * 37, 100) / 100)";
    }

    /**
     * The fan-out of a range of events, by the rule the service publishes with (callbacks/EventReceivers: the account's callbacks
     * subscribed to the name or its noun that receive events). Each delivery's state follows its
     * callback: a failing callback's deliveries since its outage began are pending, with the attempts
     * the retry schedule has made and the next one due; every other one was delivered, at its first
     * attempt or (one healthy delivery in twenty, older than two minutes) at its second.
     */
    static final String DELIVERIES = """
            insert into deliveries (callback_id, event_id, kind, state, attempts, next_attempt_at, created_at, finished_at)
            select c_id, e_id, 'event', case when pending then 'pending' else 'delivered' end,
                   case when pending then n_pending when retried then 2 else 1 end,
                   case when pending then %s when retried then %s else %s end,
                   %s,
                   case when pending then null when retried then %s else %s end
            from (select c.id as c_id, e.id as e_id, e_us, n_pending,
                         mod(c.id, 100) < 10 and e_us >= %s as pending,
                         mod(c.id, 100) >= 10 and mod(e.id + c.id, 20) = 0 and e_us < -120000000 as retried
                  from (select id, name, account_id, %s as e_us, %s as n_pending from events where id between :from and :to) e
                  join callbacks c on c.account_id = e.account_id
                   and c.event_noun = substring(e.name from 1 for position('.' in e.name) - 1)
                   and (c.event = e.name or c.event = substring(e.name from 1 for position('.' in e.name) - 1))
                   and %s
                  ) x
            order by e_id, c_id""".formatted(
            at("e_us + " + cumulativeWait("n_pending")), at("e_us + 120000000"), at("e_us + 60000000"), at("e_us"),
            at("e_us + 60050000"), at("e_us + 50000"),
            outageMicros("c.id"), eventMicros("id"), attemptsSoFar("-(" + eventMicros("id") + ")"),
            EventReceivers.RECEIVING);

    /**
     * Every attempt of a range of deliveries, in order: a delivered one's last attempt answered (the
     * answered template), its earlier one failed; a pending one's all failed, or timed out when its
     * callback hangs. The request and response text is that of the seed's real attempts (Templates).
     */
    static final String ATTEMPTS = """
            insert into delivery_attempts (delivery_id, attempt, attempted_at, status_code, duration_ms, error,
                                           request_headers, request_body, response_headers, response_body)
            select id, i, created_at + (%s) * interval '0.000001' second,
                   case when answered then :okStatus when hangs then :hangStatus else :failStatus end,
                   case when answered then :okDuration when hangs then :hangDuration else :failDuration end,
                   case when answered then :okError when hangs then :hangError else :failError end,
                   case when answered then :okRequestHeaders when hangs then :hangRequestHeaders else :failRequestHeaders end,
                   case when answered then :okRequestBody when hangs then :hangRequestBody else :failRequestBody end,
                   case when answered then :okResponseHeaders when hangs then :hangResponseHeaders else :failResponseHeaders end,
                   case when answered then :okResponseBody when hangs then :hangResponseBody else :failResponseBody end
            from (select d.id, d.created_at, s.i, d.state = 'delivered' and s.i = d.attempts as answered, mod(d.callback_id, 100) = 0 as hangs
                  from deliveries d join generate_series(1, 7) s(i) on s.i <= d.attempts
                  where d.id between :from and :to) x
            order by id, i""".formatted(cumulativeWait("i - 1"));

    /** Each callback's latest attempt, as the recorder keeps it (the statement of migration V25), then a row for each callback without one (V27). */
    static final String LAST_ATTEMPTS = """
            insert into callback_last_attempts (callback_id, delivery_id, attempt, attempted_at, status_code, duration_ms, error)
            select d.callback_id, a.delivery_id, a.attempt, a.attempted_at, a.status_code, a.duration_ms, a.error
            from delivery_attempts a join deliveries d on d.id = a.delivery_id
            where a.id in (select max(a2.id) from delivery_attempts a2 join deliveries d2 on d2.id = a2.delivery_id group by d2.callback_id)""";

    static final String EMPTY_LAST_ATTEMPTS = """
            insert into callback_last_attempts (callback_id)
            select c.id from callbacks c where not exists (select 1 from callback_last_attempts l where l.callback_id = c.id)""";
}
