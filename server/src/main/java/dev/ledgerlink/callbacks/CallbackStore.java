package dev.ledgerlink.callbacks;

import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import org.jdbi.v3.sqlobject.config.RegisterRowMapper;
import org.jdbi.v3.sqlobject.customizer.BindList;
import org.jdbi.v3.sqlobject.statement.GetGeneratedKeys;
import org.jdbi.v3.sqlobject.statement.SqlQuery;
import org.jdbi.v3.sqlobject.statement.SqlUpdate;

/**
 * The callbacks table. Every read is keyed by account and application, so a callback of another
 * account or application is simply not found. The delivery engine reads this table on its own (the
 * subscribers of an event, a callback's uri and code when it sends) and writes nothing here: it
 * reports outcomes to {@link DeliveryFailures}, which keeps failing_since and disabled.
 */
@RegisterRowMapper(CallbackRows.class)
public interface CallbackStore {
    String COLUMNS = """
            id, account_id, application_id, user_id, event, event_noun, uri, verified, disabled,
            verifier_sealed, verifier_key, verifier_hash, failing_since, created_at, updated_at,
            verify_failures, verify_failures_since, rekeying_since, rate_limit, ordered""";

    // The search filters of the list call; a null parameter means "no filter". A noun matches the
    // noun and all its verbs (event_noun); noun.verb matches itself and its noun.
    String FILTERS = """
            where account_id = :accountId and application_id = :applicationId
              and event_noun in (<nouns>)
              and (cast(:noun as varchar(32)) is null or event_noun = :noun)
              and (cast(:name as varchar(64)) is null or event = :name or event = :noun)
              and (cast(:uri as varchar(2048)) is null or uri = :uri)
              and (cast(:verified as boolean) is null or verified = :verified)""";

    @SqlUpdate("""
            insert into callbacks (account_id, application_id, user_id, event, event_noun, uri, verified, disabled,
                                   verifier_sealed, verifier_key, verifier_hash, created_at, updated_at)
            values (:accountId, :applicationId, :userId, :event, :eventNoun, :uri, false, false,
                    :verifierSealed, :verifierKey, :verifierHash, :now, :now)""")
    @GetGeneratedKeys("id")
    long insert(String accountId, long applicationId, long userId, String event, String eventNoun, String uri,
                String verifierSealed, String verifierKey, String verifierHash, Instant now);

    @SqlQuery("select " + COLUMNS + " from callbacks where id = :id and account_id = :accountId and application_id = :applicationId")
    Optional<Callback> find(long id, String accountId, long applicationId);

    /** The same, locking the row until the transaction ends (verification and its throttle counters). */
    @SqlQuery("select " + COLUMNS + " from callbacks where id = :id and account_id = :accountId and application_id = :applicationId for update")
    Optional<Callback> findForUpdate(long id, String accountId, long applicationId);

    @SqlQuery("select " + COLUMNS + " from callbacks " + FILTERS + " order by id limit :limit offset :offset")
    List<Callback> search(String accountId, long applicationId, @BindList("nouns") Collection<String> nouns,
                          String noun, String name, String uri, Boolean verified, int limit, long offset);

    @SqlQuery("select count(*) from callbacks " + FILTERS)
    long count(String accountId, long applicationId, @BindList("nouns") Collection<String> nouns,
               String noun, String name, String uri, Boolean verified);

    // Reads for operators and the console, whose caller decides who may see which account.
    @SqlQuery("select " + COLUMNS + " from callbacks where (:all or account_id in (<accountIds>)) order by id limit :limit")
    List<Callback> ofAccounts(boolean all, @BindList("accountIds") Collection<String> accountIds, int limit);

    @SqlUpdate("""
            update callbacks set verified = true, rekeying_since = null, verify_failures = 0, verify_failures_since = null, updated_at = :now
            where id = :id and verifier_hash = :verifierHash""")
    int markVerified(long id, String verifierHash, Instant now);

    @SqlUpdate("update callbacks set verify_failures = :failures, verify_failures_since = :since where id = :id")
    int recordWrongTries(long id, int failures, Instant since);

    /**
     * A fresh code: unverified, re-enabled, the failure run forgotten (resend, or a new uri).
     * {@code rekeying}: the callback is re-keying from now on ({@link CallbackStateMachine.State#REKEYING}),
     * since the first resend of the re-keying (a second one does not extend it); else it is not.
     */
    @SqlUpdate("""
            update callbacks set event = :event, event_noun = :eventNoun, uri = :uri,
                   verifier_sealed = :verifierSealed, verifier_key = :verifierKey, verifier_hash = :verifierHash,
                   verified = false, disabled = false, failing_since = null, updated_at = :now,
                   rekeying_since = case when :rekeying then coalesce(rekeying_since, :now) else null end
            where id = :id""")
    int reissue(long id, String event, String eventNoun, String uri, String verifierSealed, String verifierKey, String verifierHash,
                boolean rekeying, Instant now);

    /** Re-keyings that began at the cutoff or earlier, oldest first (RekeyingLapses). */
    @SqlQuery("select " + COLUMNS + " from callbacks where rekeying_since <= :cutoff and " + StateColumns.REKEYING
            + " order by rekeying_since limit :limit")
    List<Callback> rekeyingSince(Instant cutoff, int limit);

    /** Ends a re-keying that lapsed, only if it still has (a verification meanwhile ends it too). */
    @SqlUpdate("update callbacks set rekeying_since = null, updated_at = :now where id = :id and rekeying_since <= :cutoff and "
            + StateColumns.REKEYING)
    int endLapsedRekeying(long id, Instant cutoff, Instant now);

    @SqlUpdate("update callbacks set event = :event, event_noun = :eventNoun, updated_at = :now where id = :id")
    int changeEvent(long id, String event, String eventNoun, Instant now);

    @SqlUpdate("delete from callbacks where id = :id")
    int delete(long id);

    // The run of failures (FailureRuns): started by the first failure, ended by any success.
    @SqlUpdate("update callbacks set failing_since = :now, updated_at = :now where id = :id and failing_since is null")
    int startFailureRun(long id, Instant now);

    /**
     * Ends the runs of failures of these callbacks (one statement for a whole batch of outcomes, run
     * without attaching this interface: it is on every recorded delivery's path).
     */
    String END_FAILURE_RUNS = "update callbacks set failing_since = null, updated_at = :now where id in (<ids>) and failing_since is not null";

    /** Disables only if the run of failures is still old enough (a success in between resets failing_since). */
    @SqlUpdate("""
            update callbacks set disabled = true, updated_at = :now
            where id = :id and disabled = false and failing_since is not null and failing_since <= :cutoff""")
    int disableIfFailingSince(long id, Instant cutoff, Instant now);

    /** Its endpoint is gone (410): disabled at once, whatever its run of failures. */
    @SqlUpdate("update callbacks set disabled = true, updated_at = :now where id = :id and disabled = false")
    int disable(long id, Instant now);

    // The operators' view, across accounts and applications. state: unverified (re-keying included, as the API
    // shows it), verified or disabled (null: all).
    String OPERATOR_FILTERS = """
            where (cast(:accountId as varchar(16)) is null or account_id = :accountId)
              and (cast(:state as varchar(16)) is null"""
            + " or (:state = 'disabled' and " + StateColumns.DISABLED + ")"
            + " or (:state = 'verified' and " + StateColumns.VERIFIED + ")"
            + " or (:state = 'unverified' and (" + StateColumns.UNVERIFIED + " or " + StateColumns.REKEYING + ")))";

    @SqlQuery("select " + COLUMNS + " from callbacks " + OPERATOR_FILTERS + " order by id limit :limit offset :offset")
    List<Callback> operatorSearch(String accountId, String state, int limit, long offset);

    @SqlQuery("select count(*) from callbacks " + OPERATOR_FILTERS)
    long operatorCount(String accountId, String state);

    @SqlQuery("select " + COLUMNS + " from callbacks where id = :id")
    Optional<Callback> findAny(long id);

    @SqlQuery("select " + COLUMNS + " from callbacks where id = :id for update")
    Optional<Callback> findAnyForUpdate(long id);

    /** An operator's pace for it (null: the setting's); not part of the public record, so updated_at stays. */
    @SqlUpdate("update callbacks set rate_limit = :rateLimit where id = :id")
    int setRateLimit(long id, Integer rateLimit);

    /** An operator's setting: deliveries one at a time, in order (the delivery queue lines them up in the same transaction). */
    @SqlUpdate("update callbacks set ordered = :ordered, updated_at = :now where id = :id")
    int setOrdered(long id, boolean ordered, Instant now);

    /** Enabling forgets the failure run, so the disable window starts afresh; disabling ends a re-keying (its held deliveries are dropped). */
    @SqlUpdate("update callbacks set disabled = :disabled, failing_since = null, rekeying_since = null, updated_at = :now where id = :id")
    int setDisabled(long id, boolean disabled, Instant now);
}
