/*
 * ledgerlink: this file is H2 2.5.252's org.h2.mvstore.tx.CommitDecisionMaker (H2's source, the same
 * bytecode as the class in h2-2.5.252.jar) with one change, marked "ledgerlink:" below. Its compiled
 * class is kept under META-INF/ledgerlink/h2-fix/2.5.252/ of the ledgerlink-h2-fix jar (h2-fix/pom.xml),
 * where no class loader finds it by name: the server defines it into H2's package at start, before H2
 * loads its own, and only when the H2 in use is 2.5.252 (dev.ledgerlink.store.H2CommitFix).
 *
 * Why: when a commit removes every row of a B-tree leaf whose parent has one key, H2 2.5.252 puts a
 * copy of the leaf's sibling in the parent's place and never accounts the original sibling as
 * removed. The original page then counts as live forever, and the chunk it is in (typically a few
 * hundred KiB) can neither be rewritten (H2's rewrite finds the page in no tree and gives up) nor
 * freed, so an H2 file grows without bound under range deletes (the development journal's trim, the
 * retention sweeper, deliveries leaving their due index; docs/benchmarks-history.md, "A page leak in
 * H2's commit"). MVMap's own REMOVE path (MVMap.DecisionMaker.decide) puts the sibling itself in the
 * parent's place; so does this. Test: dev.ledgerlink.store.H2CommitLeakTest; the report to H2:
 * docs/h2-commit-leak.md. Remove this module when H2 ships the fix.
 *
 * H2 is dual licensed under the MPL 2.0 and the EPL 1.0 (https://h2database.com/html/license.html);
 * this modified file stays under those licenses, with H2's copyright notice below.
 */
/*
 * Copyright 2004-2025 H2 Group. Multiple-Licensed under the MPL 2.0,
 * and the EPL 1.0 (https://h2database.com/html/license.html).
 * Initial Developer: H2 Group
 */
package org.h2.mvstore.tx;

import org.h2.mvstore.CursorPos;
import org.h2.mvstore.MVMap;
import org.h2.mvstore.Page;
import org.h2.value.VersionedValue;

import java.util.BitSet;

import static org.h2.value.VersionedValue.NO_ENTRY_ID;
import static org.h2.value.VersionedValue.NO_OPERATION_ID;

/**
 * Class CommitDecisionMaker makes a decision during post-commit processing
 * about how to transform uncommitted map entry into committed one,
 * based on undo log information.
 *
 * @author <a href='mailto:andrei.tokar@gmail.com'>Andrei Tokar</a>
 */
final class CommitDecisionMaker<V> extends MVMap.DecisionMaker<VersionedValue<V>> {
    /** ledgerlink: present only in ledgerlink's copy, so that ledgerlink can tell which class was loaded (store/H2CommitFix). */
    static final boolean LEDGERLINK_FIX = true;

    private final int transactionId;
    private long undoKey;
    private MVMap.Decision decision;

    private final BitSet entryIds;
    private final int pageEntryIds[];
    private int entryIdsCount;

    public CommitDecisionMaker(Transaction transaction, int maxKeysPerPage) {
        transactionId = transaction.getId();
        pageEntryIds = new int[maxKeysPerPage];
        entryIds = new BitSet((int)transaction.getLogId());
    }

    void setUndoKey(long undoKey) {
        this.undoKey = undoKey;
        reset();
    }

    @Override
    public void onPageReplaced() {
        for (int i = 0; i < entryIdsCount; i++) {
            entryIds.set(pageEntryIds[i]);
        }
        reset();
    }

    public boolean haveSeenEntry(int entryId) {
        return entryIds.get(entryId);
    }

    @Override
    public <K> CursorPos<K, VersionedValue<V>> decide(CursorPos<K, VersionedValue<V>> tip,
                                                        K key, VersionedValue<V> providedValue) {
        Page<K,VersionedValue<V>> p = tip.page;
        assert p.isLeaf();
        boolean update = false;
        long toRemove = 0L;
        for (int src = 0; src < p.getKeyCount(); src++) {
            VersionedValue<V> value = p.getValue(src);
            long operationId = value.getOperationId();
            if (operationId != NO_OPERATION_ID && TransactionStore.getTransactionId(operationId) == transactionId) {
                long entryId = value.getEntryId();
                assert entryId != NO_ENTRY_ID;
                assert !entryIds.get((int)entryId);
                pageEntryIds[entryIdsCount++] = (int)entryId;

                V currentValue = value.getCurrentValue();
                if (currentValue == null) {
                    toRemove |= 1L << src;
                } else {
                    update = true;
                }
            }
        }
        if (toRemove != 0L) {
            p = p.remove(toRemove);
            if (p.getKeyCount() == 0) {
                CursorPos<K, VersionedValue<V>> pos = tip.parent;
                if (pos != null) {
                    int keyCount;
                    int index;
                    do {
                        p = pos.page;
                        index = pos.index;
                        pos = pos.parent;
                        keyCount = p.getKeyCount();
                        // condition below should always be false, but older
                        // versions (up to 1.4.197) may create
                        // single-childed (with no keys) internal nodes,
                        // which we skip here
                    } while (keyCount == 0 && pos != null);

                    if (keyCount <= 1) {
                        if (keyCount == 1) {
                            assert index <= 1;
                            // ledgerlink: the sibling as it is, as MVMap's own REMOVE does. H2 2.5.252
                            // copied it here, and the original, replaced in the tree by the copy, was never
                            // accounted as removed: its chunk stayed live for good (see the note above).
                            p = p.getChildPage(1 - index);
                        } else {
                            // if root happens to be such single-childed
                            // (with no keys) internal node, then just
                            // replace it with empty leaf
                            p = Page.createEmptyLeaf(p.map);
                        }
                        return new CursorPos<>(p, 0, pos);
                    }
                    p = p.copy();
                    p.remove(index);
                }
                return new CursorPos<>(p, 0, pos);
            }
        } else if (update) {
            p = p.copy();
        } else {
            return tip;
        }
        if (update) {
            for (int i = 0; i < p.getKeyCount(); i++) {
                VersionedValue<V> value = p.getValue(i);
                long operationId = value.getOperationId();
                if (operationId != NO_OPERATION_ID && TransactionStore.getTransactionId(operationId) == transactionId) {
                    V currentValue = value.getCurrentValue();
                    assert currentValue != null;
                    p.setValue(i, VersionedValueCommitted.getInstance(currentValue));
                }
            }
        }
        return new CursorPos<>(p, p.getMemory(), tip.parent);
    }

    @Override
    public MVMap.Decision decide(VersionedValue<V> existingValue, VersionedValue<V> providedValue) {
        assert decision == null;
        if (existingValue == null ||
            // map entry was treated as already committed, and then
            // it has been removed by another transaction (committed and closed by now)
            existingValue.getOperationId() != undoKey) {
            // this is not a final undo log entry for this key,
            // or map entry was treated as already committed and then
            // overwritten by another transaction
            // see TxDecisionMaker.decide()

            decision = MVMap.Decision.ABORT;
        } else /* this is final undo log entry for this key */ if (existingValue.getCurrentValue() == null) {
            decision = MVMap.Decision.REMOVE;
        } else {
            decision = MVMap.Decision.PUT;
        }
        return decision;
    }

    @SuppressWarnings("unchecked")
    @Override
    public <T extends VersionedValue<V>> T selectValue(T existingValue, T providedValue) {
        assert decision == MVMap.Decision.PUT;
        assert existingValue != null;
        return (T) VersionedValueCommitted.getInstance(existingValue.getCurrentValue());
    }

    @Override
    public void reset() {
        decision = null;
        entryIdsCount = 0;
    }

    @Override
    public String toString() {
        return "commit " + TransactionStore.getTransactionId(undoKey);
    }
}
