package dev.ledgerlink.bench.growth;

/**
 * How many rows of each kind the growth scenario's filled database holds, from one scale (1: the
 * production-like size of issue 45 on PostgreSQL; H2 takes a tenth of it). Every count is derived from
 * the number of hot grants {@code h} so that the refresh chains' round robin comes out exact
 * (GrowthWorld): at scale 1,
 *
 * <ul>
 *   <li>200,000 users in 20,000 accounts (10 each), 2,000 applications, 800,000 (user, application)
 *       pairs, each with its current grant, and 200,000 older grants they superseded: 1,000,000 grants;
 *   <li>10,700,000 refresh tokens (the rotated history retention keeps for 90 days: 50,000 hot grants
 *       refreshed 105 times, 750,000 refreshed 7 times, the superseded grants' last tokens) and as many
 *       access tokens, one minted with each refresh token; 200,000 authorization codes;
 *   <li>100,000 callbacks (5 per account): a tenth failing since 22 to 44 hours, a tenth of those
 *       hanging (never answering), 2% disabled, 3% unverified;
 *   <li>about 9,000,000 finished deliveries of 30 days of events, with their attempts (about 20 million
 *       delivery and attempt rows), and at least 1,000,000 pending deliveries behind the failing
 *       callbacks (the backlog), each with the attempts its retry schedule has made so far.
 * </ul>
 */
public record GrowthSize(double scale, int hotGrants, int applications, long normalEvents, long burstEvents) {
    /** Refreshes of each hot grant kept by retention, and of each other current grant: hot * 105 = others * 7. */
    public static final int HOT_CHAIN = 105;
    public static final int OTHER_CHAIN = 7;
    /** Other current grants per hot grant (so that both rounds of the round robin hold the same number of tokens). */
    public static final int OTHERS_PER_HOT = HOT_CHAIN / OTHER_CHAIN;
    /** Older grants per hot grant, each superseded by one of the other current grants. */
    public static final int SUPERSEDED_PER_HOT = 4;
    public static final int PAIRS_PER_USER = 4;
    public static final int USERS_PER_ACCOUNT = 10;
    public static final int CALLBACKS_PER_ACCOUNT = 5;
    /** Enough applications for the widest refresh load (one chain per application of one user). */
    public static final int MIN_APPLICATIONS = 64;

    public static GrowthSize of(double scale) {
        if (!(scale > 0) || scale > 10) throw new IllegalArgumentException("the growth scale must be above 0 and at most 10, got " + scale);
        int hot = Math.max(50, (int) Math.round(50_000 * scale));
        int apps = Math.max(MIN_APPLICATIONS, (int) Math.round(2_000 * scale));
        return new GrowthSize(scale, hot, apps, Math.round(7_100_000 * scale), Math.round(1_400_000 * scale));
    }

    public int otherGrants() { return hotGrants * OTHERS_PER_HOT; }

    public int supersededGrants() { return hotGrants * SUPERSEDED_PER_HOT; }

    public int currentGrants() { return hotGrants + otherGrants(); }

    public int grants() { return currentGrants() + supersededGrants(); }

    public int users() { return currentGrants() / PAIRS_PER_USER; }

    public int accounts() { return users() / USERS_PER_ACCOUNT; }

    public int callbacks() { return accounts() * CALLBACKS_PER_ACCOUNT; }

    /** Tokens of each of the two interleaved rounds (hot grants, other current grants). */
    public long tokensPerRound() { return (long) hotGrants * HOT_CHAIN; }

    public long refreshTokens() { return supersededGrants() + 2 * tokensPerRound(); }

    /** Failing callbacks (a tenth of all, hanging ones included). */
    public int failingCallbacks() { return callbacks() / 10; }

    /** Events of the last 44 hours: a quarter of the normal rate's, three quarters bursts to failing callbacks. */
    public long tailEvents() { return burstEvents * 4 / 3; }

    /** Events before the last 44 hours. */
    public long headEvents() { return Math.max(1, normalEvents - tailEvents() / 4); }

    public long events() { return headEvents() + tailEvents(); }

    /** A label for names of the kept database: s1, s0.1, s0.001. */
    public String label() {
        return "s" + java.math.BigDecimal.valueOf(scale).stripTrailingZeros().toPlainString();
    }
}
