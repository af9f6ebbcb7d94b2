package dev.ledgerlink.secrets;

import java.lang.ref.SoftReference;
import java.util.Arrays;
import org.bouncycastle.crypto.generators.Argon2BytesGenerator;

/**
 * The 1 KiB memory blocks of Argon2, kept between hashes while sign-ins keep coming. Each hash at
 * OWASP's cost fills 19 MiB of blocks; allocated anew every time, they outgrow the young generation
 * of the launcher's 96 MiB heap while the hash runs and force a full collection per sign-in, which
 * pauses every request of the node (docs/benchmarks-history.md, "Sign-in flood"). Blocks come back zeroed (Bouncy Castle clears each before handing it back).
 *
 * <p>Blocks are kept only while hashes follow each other: when the last running hash ends with none
 * waiting, {@link PasswordHasher} lets them go ({@link #release}), so a lone sign-in keeps nothing
 * after it, and the memory is not taken for the life of the process as it was with the previous
 * library (kept blocks are live data the collector must work around: kept for a minute after each
 * sign-in, they slowed the benchmark's code exchanges, which sign in just before). At most
 * {@code capacity} blocks are kept (the hashes running at once never hold more than the budget),
 * behind a soft reference, which the collector may clear under memory pressure even mid-flood.
 */
final class Argon2Blocks implements Argon2BytesGenerator.BlockPool {
    static final Argon2Blocks SHARED = new Argon2Blocks(PasswordHasher.BUDGET_KIB);

    private final int capacity;
    private SoftReference<Free> free = new SoftReference<>(null);
    private long reused;

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
                reused++;
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
            if (f.size == f.blocks.length) f.blocks = Arrays.copyOf(f.blocks, Math.min(capacity, 2 * f.blocks.length));
            f.blocks[f.size++] = block;
        }
    }

    /** Lets every kept block go (no hash is running or waiting). */
    synchronized void release() {
        free = new SoftReference<>(null);
    }

    /** Blocks handed out again since the process started (tests). */
    synchronized long reused() {
        return reused;
    }

    /** Free blocks kept now (tests). */
    synchronized int kept() {
        Free f = free.get();
        return f == null ? 0 : f.size;
    }
}
