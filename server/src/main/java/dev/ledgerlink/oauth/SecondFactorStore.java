package dev.ledgerlink.oauth;

import java.time.Instant;
import java.util.Collection;
import java.util.Optional;
import org.jdbi.v3.sqlobject.config.RegisterConstructorMapper;
import org.jdbi.v3.sqlobject.customizer.Bind;
import org.jdbi.v3.sqlobject.statement.SqlBatch;
import org.jdbi.v3.sqlobject.statement.SqlQuery;
import org.jdbi.v3.sqlobject.statement.SqlUpdate;

/** Users' authenticators (sealed secrets, the last step used) and their recovery codes (hashes), V40. */
@RegisterConstructorMapper(SecondFactorStore.Row.class)
interface SecondFactorStore {
    /**
     * One user's authenticator; {@code confirmedAt} null while its enrolment waits for the first code;
     * its secret sealed with the key whose fingerprint is {@code totpSecretKey} (V41).
     */
    record Row(long userId, String totpSecretSealed, String totpSecretKey, Instant confirmedAt, long lastUsedStep) {}

    @SqlQuery("select user_id, totp_secret_sealed, totp_secret_key, confirmed_at, last_used_step from user_second_factors where user_id = :userId")
    Optional<Row> find(long userId);

    @SqlUpdate("delete from user_second_factors where user_id = :userId and confirmed_at is null")
    int deletePending(long userId);

    @SqlUpdate("""
            insert into user_second_factors (user_id, totp_secret_sealed, totp_secret_key, created_at)
            values (:userId, :sealedSecret, :sealedWith, :now)""")
    void insertPending(long userId, String sealedSecret, String sealedWith, Instant now);

    /** The enrolment's first code was right: the authenticator counts from now on, that code's step spent. */
    @SqlUpdate("""
            update user_second_factors set confirmed_at = :now, last_used_step = :step
            where user_id = :userId and confirmed_at is null""")
    int confirm(long userId, long step, Instant now);

    /** A code of {@code step} is used: exactly one caller sees 1, and only for a step newer than every one used before. */
    @SqlUpdate("""
            update user_second_factors set last_used_step = :step
            where user_id = :userId and confirmed_at is not null and last_used_step < :step""")
    int useStep(long userId, long step);

    @SqlUpdate("delete from user_second_factors where user_id = :userId")
    int deleteFactor(long userId);

    @SqlUpdate("delete from user_recovery_codes where user_id = :userId")
    int deleteRecoveryCodes(long userId);

    @SqlBatch("insert into user_recovery_codes (user_id, code_hash, created_at) values (:userId, :codeHash, :now)")
    void insertRecoveryCodes(long userId, @Bind("codeHash") Collection<String> codeHashes, Instant now);

    /** A recovery code is used: exactly one caller sees 1. */
    @SqlUpdate("""
            update user_recovery_codes set used_at = :now
            where user_id = :userId and code_hash = :codeHash and used_at is null""")
    int useRecoveryCode(long userId, String codeHash, Instant now);

    @SqlQuery("select count(*) from user_recovery_codes where user_id = :userId and used_at is null")
    int recoveryCodesLeft(long userId);
}
