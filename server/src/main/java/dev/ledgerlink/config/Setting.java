package dev.ledgerlink.config;

import java.util.Arrays;
import java.util.Optional;

/**
 * Every setting ledgerlink reads, with its default and meaning: the one documented list.
 * docs/configuration.md mirrors this enum (a test keeps the two in step).
 *
 * <p>Each setting can be given, later sources winning: as its default, in the config file
 * ({@code key=value} lines), as the environment variable {@link #envName()}, and as a flag.
 */
public enum Setting {
    HTTP_HOST("http.host", "127.0.0.1", "Address the HTTP server binds to (0.0.0.0 for all interfaces)."),
    HTTP_PORT("http.port", "8080", "HTTP port; 0 picks a free one."),
    HTTP_IDLE_TIMEOUT("http.idle-timeout", "PT30S", "A connection to the API port that sends nothing for this long, between requests or in the middle of one, is closed."),
    HTTP_HEADER_TIMEOUT("http.header-timeout", "PT10S", "A request's line and headers must arrive in full within this once their first byte has: a client that trickles them in (slowloris) is disconnected, however often it sends a byte."),
    HTTP_BODY_TIMEOUT("http.body-timeout", "PT30S", "The longest the server waits, in all, for the rest of a request's body (time it spends handling the request does not count): a client that sends it a byte at a time, or stops half way, is disconnected."),
    HTTP_MAX_CONNECTIONS("http.max-connections", "4000", "Open connections to the API port at most: at the cap the server accepts no new connection until one closes (new ones wait in the kernel's accept queue) and closes connections idle for 2 s meanwhile. A held connection costs the server about 4 KiB, so the default keeps a flood within the launcher's memory footprint (docs/operations.md, \"Connection floods\")."),
    BASE_URL("base-url", "", "Public address of the API ({base_url}); empty means http://<host>:<port>."),
    AUTH_URL("auth-url", "", "Public address of the authorization page ({auth_url}); empty means the base URL."),
    DEV("dev", "false", "Development mode: http redirect and callback URIs on loopback hosts are allowed, demo data is created on first start."),
    DEV_CALLBACK_HOSTS("dev.callback-hosts", "", "Development mode only: comma-separated host names (e.g. app,receiver, a compose file's service names) whose http:// callback URIs are accepted besides loopback hosts, at registration and when sending; every other host keeps the usual rules. Ignored outside development mode."),
    DB_URL("db.url", "jdbc:h2:file:./data/ledgerlink", "JDBC URL: an H2 file (shared between processes automatically; an 8 MiB page cache unless the URL sets CACHE_SIZE, in KiB) or jdbc:postgresql://host:port/db."),
    DB_USER("db.user", "", "Database user (H2 default: sa; PostgreSQL default: the OS user)."),
    DB_PASSWORD("db.password", "", "Database password."),
    DB_POOL_SIZE("db.pool-size", "16", "Maximum connections in the pool, at least 2 (migrating holds two). Every node may hold this many: db.pool-size times the nodes (plus the CLI and the migrate step) must fit in PostgreSQL's max_connections, and a node warns at start when it can tell they do not (docs/operations.md, \"Connections\")."),
    DB_MIGRATE("db.migrate", "at-start", "at-start: serve applies the schema's pending migrations before it serves (several nodes may start at once). never: serve applies none (run ledgerlink db migrate as its own step, with a user allowed to change the schema); a node that finds migrations pending is not ready (/readyz names them) and waits db.migrate-wait for them. docs/operations.md, \"Upgrading\"."),
    DB_MIGRATE_WAIT("db.migrate-wait", "PT10M", "With db.migrate=never: how long serve waits for pending migrations to be applied by the migrate step before it exits with code 4, naming them."),
    SECRETS_KEY("secrets.key", "", "Base64 AES-256 key that seals verification codes (and every other secret that must be read back) at rest; every node sharing a database needs the same one, and a node whose key is not the database's refuses to start (exit code 5). Empty: read secrets.key-file. On PostgreSQL the key must be given (this setting or an existing key file). docs/operations.md, \"Keys\"."),
    SECRETS_KEY_FILE("secrets.key-file", "./data/ledgerlink.key", "File holding secrets.key when that setting is empty. On H2 it is created (mode 600) when a new database is made; on PostgreSQL never."),
    SECRETS_PREVIOUS_KEY("secrets.previous-key", "", "During a key rotation only: the key being replaced (base64), so values still sealed with it can be read until ledgerlink secrets rotate-key has re-sealed them all with secrets.key. docs/operations.md, \"Keys\"."),
    PASSWORD_HASH_MEMORY_KIB("secrets.argon2-memory-kib", "19456", "Argon2id memory cost of user password hashes, in KiB; below 19456 (OWASP's minimum) only in development mode (the test suite uses 64)."),
    PASSWORD_HASH_ITERATIONS("secrets.argon2-iterations", "2", "Argon2id iterations of user password hashes; below 2 (OWASP's minimum) only in development mode."),
    PASSWORD_HASH_MAX_WAIT("secrets.argon2-max-wait", "PT5S", "How long a sign-in waits for its turn when the password checks already running fill their memory (a third of the heap); beyond it the sign-in form answers 503 with Retry-After, and the try does not count as a failed login."),
    ACCESS_TOKEN_TTL("oauth.access-token-ttl", "PT12H", "Lifetime of access tokens (ISO-8601 duration)."),
    AUTHORIZATION_CODE_TTL("oauth.code-ttl", "PT10M", "Lifetime of authorization codes."),
    CLIENT_CACHE_TTL("oauth.client-cache-ttl", "PT1S", "How long a client's stored secrets stay in memory after a lookup (the token endpoint authenticates its client on every request); a secret changed on another node or by the CLI can authenticate here that long; PT0S reads the database every time. Each request still hashes the secret it presents and compares it in constant time; a rotation or retirement through this node takes effect at once."),
    REFRESH_REPLAY_WINDOW("oauth.refresh-replay-window", "PT30S", "A used refresh token presented again later than this is treated as stolen (RFC 9700 4.14.2)."),
    LOGIN_MAX_FAILURES("login.max-failures", "5", "Failed logins per account (and, times four, per address) before login is throttled."),
    LOGIN_THROTTLE_WINDOW("login.throttle-window", "PT15M", "Window over which failed logins are counted."),
    OPERATOR_KEY("events.operator-key", "", "Bearer key of the internal endpoints: event publishing, the admin API, token introspection by the platform's services; empty disables them (dev mode generates one)."),
    DELIVERY_RETRY_SCHEDULE("delivery.retry-schedule", "PT1M,PT5M,PT30M,PT2H,PT6H,PT12H,PT24H", "Delays before each retry of a failed delivery; after the last one the message is dropped."),
    DELIVERY_TIMEOUT("delivery.timeout", "PT10S", "Time allowed for one delivery attempt, connection included."),
    DELIVERY_DISABLE_AFTER("delivery.disable-after", "P5D", "A callback whose every attempt failed for this long, with no success in between, is disabled. Also how long a re-keying lasts: deliveries held for a callback whose resent code is not verified within this long are dropped (not re-verified)."),
    DELIVERY_CONCURRENCY("delivery.concurrency", "512", "Deliveries in flight at once per process (each waits on a virtual thread)."),
    DELIVERY_PER_CALLBACK_CONCURRENCY("delivery.per-callback-concurrency", "32", "Deliveries in flight at once to one callback: what a hanging endpoint can tie up, so it never starves the others."),
    DELIVERY_POLL_INTERVAL("delivery.poll-interval", "PT0.5S", "How often the queue is polled for work stored by other processes."),
    DELIVERY_LEASE("delivery.lease", "PT60S", "How long a claimed or just-published delivery stays with the process sending it before another may take it over."),
    DELIVERY_STALL_MARGIN("delivery.stall-margin", "PT30S", "How much longer than delivery.lease one claim pass of the delivery dispatcher may run before it counts as stuck: an error is logged and /healthz answers 503 so that a supervisor restarts the process. delivery.lease plus this must exceed 10 s, the longest a claim waits for a database connection."),
    DELIVERY_RATE_LIMIT("delivery.rate-limit", "", "Deliveries per second at most to each callback (1 to 10000), unless an operator gave the callback a limit of its own (ledgerlink callbacks set --rate-limit); empty: no limit. Deliveries beyond it wait for their turn: they are never dropped for it and count as no failed attempt. Every node sharing the database spends one budget per callback."),
    DELIVERY_RECOVER_SPACING("delivery.recover-spacing", "PT0.2S", "Recover: the n-th re-queued delivery of a callback falls due n times this after the recover, so the endpoint is not flooded."),
    DELIVERY_RECOVER_MAX_WINDOW("delivery.recover-max-window", "P30D", "Recover: the longest since..until window one recover may name."),
    SHUTDOWN_DRAIN("shutdown.drain", "PT5S", "On SIGTERM, how long the API keeps answering (each answer with Connection: close) after /readyz turned 503 and before the port closes: the time a load balancer needs to stop sending this node requests (its health check interval times the failures it waits for; PT0S when nothing is in front). docs/operations.md, \"Stopping and rolling restarts\"."),
    SHUTDOWN_GRACE("shutdown.grace", "PT20S", "On SIGTERM, how long delivery attempts already in flight may run to finish (counted from the signal; no new delivery is claimed from it on); an attempt still waiting for its answer then is recorded as cut short and handed back to the queue, due at once, for another node. A supervisor's stop timeout (Kubernetes' terminationGracePeriodSeconds) should exceed shutdown.drain plus this plus 10 s."),
    RETENTION_DELIVERIES("retention.deliveries", "P30D", "Delivered and dropped deliveries, with their attempts, are removed this long after they finished."),
    RETENTION_EVENTS("retention.events", "P30D", "Events are removed this long after they were published, once no delivery of theirs is left (none pending, the finished ones removed); their Idempotency-Key is forgotten with them."),
    RETENTION_TOKENS("retention.tokens", "P90D", "Expired or revoked access tokens, used, superseded or revoked refresh tokens and expired authorization codes are removed this long after; a used refresh token presented after that is unknown rather than detected as a replay. The live refresh token is never removed."),
    RETENTION_INTERVAL("retention.interval", "PT1H", "How often each server runs the retention sweeper; PT0S turns the background sweeper off (ledgerlink janitor still runs it)."),
    RETENTION_BATCH_SIZE("retention.batch-size", "500", "Rows the sweeper deletes per statement: each batch is its own short transaction."),
    NOTIFICATIONS_URL("notifications.url", "", "Operator notifications (callback disabled, deliveries dropped, refresh token replay) are POSTed here as signed JSON; empty turns them off."),
    NOTIFICATIONS_SECRET("notifications.secret", "", "Standard Webhooks secret (whsec_ followed by base64 of 24 to 64 random bytes) that signs operator notifications; required with notifications.url."),
    LOG_FORMAT("log.format", "text", "Log lines on stderr: text (one readable line each) or json (one JSON object per line, with the request id; for log collectors)."),
    MANAGEMENT_PORT("management.port", "", "Port serving /metrics, /healthz and /readyz apart from the API (they then leave the API port); empty: off, served on the API port; 0 picks a free one."),
    MANAGEMENT_HOST("management.host", "127.0.0.1", "Address the management port binds to."),
    TRUSTED_PROXIES("http.trusted-proxies", "", "Comma-separated addresses or CIDR ranges of reverse proxies whose X-Forwarded-For is believed: the client address (login throttling) is then the last address in it that is not a trusted proxy. Empty: the peer address, X-Forwarded-For ignored."),
    TRACING_OTLP_ENDPOINT("tracing.otlp-endpoint", "", "OpenTelemetry traces are sent to this OTLP/HTTP collector (protobuf, POST <endpoint>/v1/traces; for example http://127.0.0.1:4318): spans of HTTP requests, token grants, publishes and webhook attempts, resource service.name=ledgerlink (docs/operations.md, \"How to trace a delivery\"). Empty: no traces are recorded or sent; webhooks still carry a W3C traceparent."),
    TRACING_EXPORT_INTERVAL("tracing.export-interval", "PT5S", "With tracing.otlp-endpoint: finished spans are sent in a batch at least this often (sooner when 512 are waiting)."),
    SANDBOX_JOURNAL_SIZE("sandbox.journal-size", "10000", "Development mode: how many of the applications' newest calls the request journal keeps (docs/sandbox.md, \"Journal\"); older ones are deleted each time a tenth of that more has been written."),
    CONSOLE_ENABLED("console.enabled", "false", "Serve the developer console at /console outside development mode (operators sign in with events.operator-key); development mode always serves it.");

    private final String key;
    private final String defaultValue;
    private final String description;

    Setting(String key, String defaultValue, String description) {
        this.key = key;
        this.defaultValue = defaultValue;
        this.description = description;
    }

    public String key() { return key; }
    public String defaultValue() { return defaultValue; }
    public String description() { return description; }

    /** LEDGERLINK_ followed by the key in upper case, dots and dashes as underscores. */
    public String envName() {
        return "LEDGERLINK_" + key.toUpperCase().replace('.', '_').replace('-', '_');
    }

    public static Optional<Setting> byKey(String key) {
        return Arrays.stream(values()).filter(s -> s.key.equals(key)).findFirst();
    }
}
