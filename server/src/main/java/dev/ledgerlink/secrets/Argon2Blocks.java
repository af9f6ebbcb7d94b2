package dev.ledgerlink.secrets;

import java.lang.ref.SoftReference;
import org.bouncycastle.crypto.generators.Argon2BytesGenerator;

/**
 * The 1 KiB memory blocks of Argon2, kept between hashes while sign-ins keep coming. Each hash at
 * OWASP's cost fills 19 MiB of blocks; allocated anew every time, they outgrow the young generation
 * of the launcher's 96 MiB heap while the hash runs and force a full collection per sign-in
 * (measured: 48 full collections of 60-67 ms each for ~100 sign-ins in a flood, pausing every
 * request of the node). Blocks come back zeroed (Bouncy Castle clears each before handing it back).
 *
 * <p>At most {@code capacity} blocks are kept: the hashes running at once never hold more than the
 * memory budget. They are kept behind a soft reference, so when sign-ins stop the collector takes
 * them back under memory pressure (after about a second per free MiB of heap without a sign-in,
 * the JVM's default policy) instead of the memory staying taken for the life of the process, as
 * it did with the previous library.
 */
final class Argon2Blocks implements Argon2BytesGenerator.BlockPool {
    static final Argon2Blocks SHARED = new Argon2Blocks(PasswordHasher.BUDGET_KIB);

    private final int capacity;
    private SoftReference<Free> free = new SoftReference<>(null);

    /** A stack of free blocks, grown as blocks come back. */
    private static final class Free {
        Argon2BytesGenerator.Block[] blocks = new Argon2BytesGenerator.Block[1024];
        int size;
    }

    Argon2Blocks(int capacity) {
        this.capacity = capacity;
    }

    @Override
    public Argon2BytesGenerator.Block allocate() {
        synchronized (this) {
            Free f = free.get();
            if (f != null && f.size > 0) {
                Argon2BytesGenerator.Block b = f.blocks[--f.size];
                f.blocks[f.size] = null;
                return b;
            }
        }
        return new Argon2BytesGenerator.Block();
    }

    /** Called by Bouncy Castle with each block of a finished hash, already cleared. */
    @Override
    public void deallocate(Argon2BytesGenerator.Block block) {
        synchronized (this) {
            Free f = free.get();
            if (f == null) {
                f = new Free();
                free = new SoftReference<>(f);
            }
            if (f.size == capacity) return;
            if (f.size == f.blocks.length) f.blocks = java.util.Arrays.copyOf(f.blocks, Math.min(capacity, 2 * f.blocks.length));
            f.blocks[f.size++] = block;
        }
    }

    /** Free blocks kept now (tests). */
    synchronized int kept() {
        Free f = free.get();
        return f == null ? 0 : f.size;
    }
}
