package dev.ledgerlink.bench.growth;

import dev.ledgerlink.secrets.Hashes;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;

/**
 * The filled database as a set of rules: which user, application, grant, token, callback and event each
 * row is, and when it was written, all derived from the row's number, the size, the instant the fill
 * stands at ({@code asOf}) and a random salt kept with the database. GrowthFill writes the rows with
 * these rules in SQL; the same rules here let the harness and its tests find a filled row and present
 * its secret (a client's secret, a chain's live refresh token, a callback's code) without storing one
 * per row.
 *
 * <p>Ids follow time, as they do when the service writes: refresh token {@code t} was minted before
 * token {@code t + 1}, event {@code e} published before {@code e + 1}, and so on.
 */
public record GrowthWorld(GrowthSize size, Instant asOf, byte[] salt) {
    /** Refresh and access tokens of the current grants' chains are minted over these 89 days, up to a minute before asOf. */
    public static final Duration CHAIN_WINDOW = Duration.ofDays(89);
    /** The superseded grants' last tokens were minted in the day before that. */
    public static final Duration SUPERSEDED_WINDOW = Duration.ofDays(1);
    /** Events are published over the 30 days retention.deliveries keeps; the last 44 hours hold the bursts. */
    public static final Duration EVENT_WINDOW = Duration.ofDays(30);
    public static final Duration TAIL_WINDOW = Duration.ofHours(44);
    /** A failing callback's outage began between half this and this long before asOf. */
    public static final Duration LONGEST_OUTAGE = Duration.ofHours(44);
    /** The access token lifetime the fill mints with (oauth.access-token-ttl's default). */
    public static final Duration ACCESS_TTL = Duration.ofHours(12);
    /** The callbacks' events by their place in the account (callback c is place (c - 1) mod 5). */
    public static final List<String> CALLBACK_EVENTS = List.of("invoice", "invoice.create", "client", "payment", "project");
    /** The scope every filled pair granted (and the chains and code exchanges ask for). */
    public static final String SCOPE = "user:profile:read";
    /** Every filled user's password (their Argon2id hash is the seed user's). */
    public static final String PASSWORD = "growth-password-of-every-filled-user";

    /** The kind of callback {@code c} is, by {@code c mod 100}. */
    public enum CallbackKind {
        HEALTHY, FAILING, HANGING, DISABLED, UNVERIFIED;

        public static CallbackKind of(long c) {
            long k = c % 100;
            if (k == 0) return HANGING;
            if (k < 10) return FAILING;
            if (k >= 98) return DISABLED;
            if (k >= 95) return UNVERIFIED;
            return HEALTHY;
        }

        /** The receiver path the callback's URI names. */
        public String path() {
            return switch (this) {
                case FAILING -> "fail";
                case HANGING -> "hang";
                default -> "hook";
            };
        }
    }

    /** The public id of account {@code n} (1-based): "g" and seven digits. */
    public static String accountId(long n) {
        return "g" + String.format("%07d", n);
    }

    /** The client id of application {@code p}. */
    public static String clientId(long p) {
        return "growth-app-" + p;
    }

    /** Application {@code p}'s client secret (only its SHA-256 is stored, as the service stores it). */
    public String clientSecret(long p) {
        return base64(Hashes.sha256(concat(salt, "app".getBytes(), longBytes(p))));
    }

    /** Callback {@code c}'s verification code (sealed with the kept secrets key; its SHA-256 beside it). */
    public String callbackCode(long c) {
        return base64(Hashes.sha256(concat(salt, "callback".getBytes(), longBytes(c))));
    }

    /** The user of pair {@code j} (0-based; pair j is current grant supersededGrants() + 1 + j). */
    public long userOfPair(long j) {
        return j % size.users() + 1;
    }

    /** The application of pair {@code j}: each user's four pairs are four different applications. */
    public long applicationOfPair(long j) {
        long user = userOfPair(j);
        return (user * 7 + (j / size.users()) * 499) % size.applications() + 1;
    }

    /** The id of grant {@code g}'s live refresh token: the last of its chain (a superseded grant's one token). */
    public long liveRefreshTokenId(long g) {
        long superseded = size.supersededGrants();
        if (g <= superseded) return g;
        long hot = size.hotGrants();
        long i = g - superseded - 1;
        if (i < hot) return superseded + 2 * ((GrowthSize.HOT_CHAIN - 1) * hot + i) + 1;
        long others = size.otherGrants();
        long b = (GrowthSize.OTHER_CHAIN - 1) * others + (i - hot);
        return superseded + 2 * b + 2;
    }

    /** The place of the live token in grant {@code g}'s chain (0 for the first). */
    public long liveChainPosition(long g) {
        long superseded = size.supersededGrants();
        if (g <= superseded) return 0;
        return g - superseded - 1 < size.hotGrants() ? GrowthSize.HOT_CHAIN - 1 : GrowthSize.OTHER_CHAIN - 1;
    }

    /** The 32-byte secret of the token at place {@code k} of grant {@code g}'s chain; the stored hash is its SHA-256. */
    public byte[] refreshSecret(long g, long k) {
        return Hashes.sha256(concat(salt, longBytes(g), longBytes(k)));
    }

    /** Failing (or hanging) callback number {@code f} (0-based) of all failing ones: the c with c mod 100 below 10. */
    public static long failingCallback(long f) {
        return f % 10 == 0 ? (f / 10 + 1) * 100 : (f / 10) * 100 + f % 10;
    }

    /** When callback {@code c}'s outage began, if it is failing: between 22 and 44 hours before asOf. */
    public Instant outageStart(long c) {
        long longest = LONGEST_OUTAGE.toNanos() / 1000;
        return asOf.minusNanos((longest / 2 + longest / 2 * ((c * 37) % 100) / 100) * 1000);
    }

    static byte[] longBytes(long v) {
        return ByteBuffer.allocate(8).putLong(v).array();
    }

    static byte[] concat(byte[]... parts) {
        int n = 0;
        for (byte[] p : parts) n += p.length;
        ByteBuffer b = ByteBuffer.allocate(n);
        for (byte[] p : parts) b.put(p);
        return b.array();
    }

    private static String base64(byte[] b) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(b);
    }
}
