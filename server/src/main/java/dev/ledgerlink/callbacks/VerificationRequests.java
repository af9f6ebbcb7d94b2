package dev.ledgerlink.callbacks;

/**
 * Sends the verification request of a callback (decisions.md: name=callback.verify, object_id,
 * verifier, account_id, user_id, signed with the code). The delivery engine implements it: it reads
 * the callback's row (uri, sealed code) when it sends, so a resend that replaced the code in the
 * meantime is what goes out.
 */
public interface VerificationRequests {
    /**
     * Queues the request in the caller's transaction: the callback's row and its verification request
     * commit together, so a crash between them cannot leave a callback that never gets its code.
     */
    void enqueue(org.jdbi.v3.core.Handle transaction, long callbackId);

    /** After the commit: lets the sender know there is work. */
    void queued();
}
