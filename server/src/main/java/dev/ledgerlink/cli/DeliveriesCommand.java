package dev.ledgerlink.cli;

import dev.ledgerlink.Services;
import dev.ledgerlink.delivery.DeliveryJson;
import dev.ledgerlink.delivery.DeliveryRecord;
import dev.ledgerlink.delivery.DeliveryService;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(name = "deliveries", mixinStandardHelpOptions = true, description = "Webhook deliveries: history and redelivery (operators).",
        subcommands = {DeliveriesCommand.ListDeliveries.class, DeliveriesCommand.Redeliver.class, DeliveriesCommand.Recover.class})
final class DeliveriesCommand {

    @Command(name = "list", mixinStandardHelpOptions = true, description = "A callback's deliveries, newest first, each attempt with its time, status, duration and error.")
    static final class ListDeliveries extends ServiceCommand {
        @Option(names = "--callback", required = true, paramLabel = "ID", description = "The callback's id (callbackid).")
        long callbackId;

        @Mixin
        PageOptions pages;

        @Override
        void run(Services s) {
            DeliveryService.DeliveryPage p = s.deliveries().history(null, callbackId, pages.page, pages.perPage);
            StringBuilder human = new StringBuilder();
            for (DeliveryRecord d : p.deliveries()) {
                human.append("delivery ").append(d.id()).append("  ").append(d.name()).append("  ").append(d.state())
                        .append("  created ").append(d.createdAt());
                if (d.dropReason() != null) human.append("  (").append(d.dropReason()).append(')');
                human.append('\n');
                // One line per attempt: when, what came back, how long it took, what went wrong.
                for (DeliveryRecord.Attempt a : d.attempts()) {
                    human.append("  attempt ").append(a.attempt()).append("  ").append(a.attemptedAt())
                            .append("  ").append(a.statusCode() == null ? "no answer" : "HTTP " + a.statusCode())
                            .append("  ").append(a.durationMs()).append(" ms");
                    if (a.error() != null) human.append("  ").append(a.error());
                    human.append('\n');
                }
            }
            human.append(PageOptions.footer(p.page(), p.pages(), p.total(), "deliveries"));
            print(DeliveryJson.page(p), human.toString());
        }
    }

    @Command(name = "redeliver", mixinStandardHelpOptions = true,
            description = "Queue a delivered or dropped delivery again from its first attempt (same message id).")
    static final class Redeliver extends ServiceCommand {
        @Parameters(paramLabel = "ID", description = "The delivery's id (deliveries list shows it).")
        long deliveryId;

        @Override
        void run(Services s) {
            DeliveryRecord d = s.deliveries().redeliver(deliveryId);
            print(Map.of("delivery", DeliveryJson.of(d)), "delivery " + d.id() + " queued again");
        }
    }

    @Command(name = "recover", mixinStandardHelpOptions = true,
            description = "Re-queue a callback's dropped deliveries queued between --since and --until (default now), paced "
                    + "by delivery.recover-spacing, each under its own message id. Prints how many.")
    static final class Recover extends ServiceCommand {
        @Option(names = "--callback", required = true, paramLabel = "ID")
        long callbackId;

        @Option(names = "--since", required = true, paramLabel = "INSTANT", description = "ISO-8601, e.g. 2026-11-20T08:00:00Z.")
        String since;

        @Option(names = "--until", paramLabel = "INSTANT", description = "ISO-8601; default: now.")
        String until;

        @Override
        void run(Services s) {
            DeliveryService.Recovered r = s.deliveries().recover(null, callbackId, since, until);
            print(Map.of("recover", DeliveryJson.recovered(r)), r.requeued() + " deliveries of callback " + callbackId
                    + " queued again" + (r.requeued() == 0 ? "" : ", due from " + r.firstDueAt() + " to " + r.lastDueAt()));
        }
    }
}
