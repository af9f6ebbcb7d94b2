package dev.ledgerlink.cli;

import dev.ledgerlink.Services;
import dev.ledgerlink.errors.ServiceException;
import dev.ledgerlink.retention.RetentionSweeper;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "janitor", mixinStandardHelpOptions = true,
        description = "Run the retention sweeper once (retention.* settings) and report what it removed, per table.")
final class JanitorCommand extends ServiceCommand {
    @Option(names = "--dry-run", description = "Count what would be removed; remove nothing.")
    boolean dryRun;

    @Option(names = "--wait", defaultValue = "PT2M", paramLabel = "DURATION",
            description = "How long to wait when a server's sweeper is running (default ${DEFAULT-VALUE}).")
    Duration wait;

    @Override
    void run(Services s) {
        RetentionSweeper.Report report;
        try {
            report = dryRun ? s.retention().dryRun() : s.retention().sweep(wait);
        } catch (RetentionSweeper.Busy busy) {
            throw ServiceException.of(ServiceException.Kind.CONFLICT, busy.getMessage() + "; try again later");
        }
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("dry_run", report.dryRun());
        json.put("at", report.at().toString());
        json.put(report.dryRun() ? "would_remove" : "removed", report.removed());
        json.put("total", report.total());
        json.put("errors", report.errors());
        StringBuilder human = new StringBuilder(report.dryRun() ? "would remove (dry run):\n" : "removed:\n");
        report.removed().forEach((rule, n) -> human.append(String.format("  %-24s %d%n", rule, n)));
        human.append(String.format("  %-24s %d", "total", report.total()));
        report.errors().forEach((rule, e) -> human.append(String.format("%n  %-24s FAILED: %s", rule, e)));
        print(json, human.toString());
        if (!report.errors().isEmpty()) {
            throw new IllegalStateException("retention rules failed: " + report.errors().keySet());
        }
    }
}
