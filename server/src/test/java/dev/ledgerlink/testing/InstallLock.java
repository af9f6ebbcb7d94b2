package dev.ledgerlink.testing;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * One install at a time into a directory the test JVMs share (npm packages under server/target): the
 * forks of a pass, and the two passes when scripts/test runs them side by side, would otherwise run
 * npm into the same directory at once. A file lock, so it holds across processes; the check for what
 * is already installed belongs inside it.
 */
public final class InstallLock {
    @FunctionalInterface
    public interface Install {
        void run() throws IOException;
    }

    private InstallLock() {}

    public static void holding(Path dir, Install install) throws IOException {
        Files.createDirectories(dir);
        try (FileChannel channel = FileChannel.open(dir.resolve(".install.lock"), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
             FileLock ignored = channel.lock()) {
            install.run();
        }
    }
}
