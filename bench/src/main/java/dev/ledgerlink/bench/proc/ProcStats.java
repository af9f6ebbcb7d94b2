package dev.ledgerlink.bench.proc;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** Linux /proc readings: resident memory and CPU time of a process, and the machine's busy share. */
public final class ProcStats {
    /** Clock ticks per second of /proc/<pid>/stat (USER_HZ); 100 on every Linux this runs on. */
    private static final double TICKS = 100.0;

    private ProcStats() {}

    /** VmRSS of the process in MiB, or -1 when /proc does not tell (not Linux, process gone). */
    public static double rssMib(long pid) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/" + pid + "/status"))) {
                if (line.startsWith("VmRSS:")) {
                    String kb = line.substring(6).trim().split("\\s+")[0];
                    return Long.parseLong(kb) / 1024.0;
                }
            }
        } catch (IOException | RuntimeException e) {
            return -1;
        }
        return -1;
    }

    /** User plus system CPU seconds the process has used so far, or -1. */
    public static double cpuSeconds(long pid) {
        return cpuSecondsOf(Path.of("/proc/" + pid + "/stat"));
    }

    /**
     * The same plus the CPU of its children that have ended and been waited for (cutime, cstime): a
     * PostgreSQL postmaster's, whose ended backends' CPU is counted there.
     */
    public static double cpuSecondsWithEndedChildren(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
            String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return (Long.parseLong(f[11]) + Long.parseLong(f[12]) + Long.parseLong(f[13]) + Long.parseLong(f[14])) / TICKS;
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    /** User plus system CPU seconds from a stat file of /proc (a process's, or one thread's under task/), or -1. */
    static double cpuSecondsOf(Path statFile) {
        try {
            String stat = Files.readString(statFile);
            String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return (Long.parseLong(f[11]) + Long.parseLong(f[12])) / TICKS;
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    /** Busy and total jiffies of all CPUs (first line of /proc/stat), or null. */
    public static long[] machineJiffies() {
        try {
            String[] f = Files.readAllLines(Path.of("/proc/stat")).getFirst().trim().split("\\s+");
            long total = 0;
            for (int i = 1; i < f.length; i++) total += Long.parseLong(f[i]);
            long idle = Long.parseLong(f[4]) + (f.length > 5 ? Long.parseLong(f[5]) : 0);
            return new long[] {total - idle, total};
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /** The processes whose parent is {@code pid} (read from each process's stat), empty when none or not Linux. */
    public static List<Long> children(long pid) {
        List<Long> out = new java.util.ArrayList<>();
        try (var dirs = Files.list(Path.of("/proc"))) {
            for (Path p : dirs.filter(d -> d.getFileName().toString().chars().allMatch(Character::isDigit)).toList()) {
                try {
                    String stat = Files.readString(p.resolve("stat"));
                    String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                    if (Long.parseLong(f[1]) == pid) out.add(Long.parseLong(p.getFileName().toString()));
                } catch (IOException | RuntimeException gone) {
                    // the process ended while we looked
                }
            }
        } catch (IOException e) {
            return out;
        }
        return out;
    }

    /** CPU seconds used by all PostgreSQL server processes (the postgres cluster's children), or -1. */
    public static double postgresCpuSeconds() {
        try (var dirs = Files.list(Path.of("/proc"))) {
            List<Path> pids = dirs.filter(p -> p.getFileName().toString().chars().allMatch(Character::isDigit)).toList();
            double sum = 0;
            for (Path p : pids) {
                try {
                    String comm = Files.readString(p.resolve("comm")).trim();
                    if (comm.startsWith("postgres")) sum += Math.max(0, cpuSeconds(Long.parseLong(p.getFileName().toString())));
                } catch (IOException | RuntimeException gone) {
                    // the process ended while we looked
                }
            }
            return sum;
        } catch (IOException e) {
            return -1;
        }
    }
}
