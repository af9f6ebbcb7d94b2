package dev.ledgerlink.testing;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/**
 * A small file system of the test's own (a tmpfs of a given size, mounted on a temporary directory),
 * for a disk that fills up on demand: {@link #fill} takes every free byte with a file of its own,
 * {@link #free} gives them back. Mounting needs root, or sudo without a password; the suite's machines
 * (CI and the development machine) run the tests as root.
 */
public final class Tmpfs implements AutoCloseable {
    private static final String FILLER = "filler";
    private final Path dir;

    private Tmpfs(Path dir) {
        this.dir = dir;
    }

    /** Mounts a tmpfs of {@code size} (mount's notation: "32m") on a new temporary directory. */
    public static Tmpfs mount(String size) throws IOException {
        Path dir = Files.createTempDirectory("ledgerlink-disk-");
        try {
            privileged(List.of("mount", "-t", "tmpfs", "-o", "size=" + size + ",mode=0777", "tmpfs", dir.toString()));
        } catch (IOException e) {
            Files.deleteIfExists(dir);
            throw new IOException("this test mounts a small tmpfs of its own, which needs root or sudo without a password: " + e.getMessage(), e);
        }
        return new Tmpfs(dir);
    }

    public Path dir() {
        return dir;
    }

    /** Bytes still free for a new file. */
    public long usable() throws IOException {
        return Files.getFileStore(dir).getUsableSpace();
    }

    /** Writes a file that takes every byte still free (the last write fails with "No space left on device"). */
    public void fill() throws IOException {
        try (FileChannel ch = FileChannel.open(dir.resolve(FILLER), StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.APPEND)) {
            for (int chunk = 1 << 20; chunk >= 512; chunk /= 2) {
                ByteBuffer zeros = ByteBuffer.allocate(chunk);
                try {
                    while (true) {
                        zeros.clear();
                        while (zeros.hasRemaining()) ch.write(zeros);
                    }
                } catch (IOException full) {
                    // this chunk size no longer fits: try a smaller one
                }
            }
        }
    }

    /** Deletes the file {@link #fill} wrote: the disk has room again. */
    public void free() throws IOException {
        Files.deleteIfExists(dir.resolve(FILLER));
    }

    /** Unmounts (lazily, if a process still has a file open there) and removes the directory. */
    @Override
    public void close() throws IOException {
        try {
            privileged(List.of("umount", dir.toString()));
        } catch (IOException busy) {
            privileged(List.of("umount", "-l", dir.toString()));
        }
        Files.deleteIfExists(dir);
    }

    private static void privileged(List<String> command) throws IOException {
        List<String> cmd = new ArrayList<>();
        if (!"root".equals(System.getProperty("user.name"))) cmd.addAll(List.of("sudo", "-n"));
        cmd.addAll(command);
        Commands.run(cmd);
    }
}
