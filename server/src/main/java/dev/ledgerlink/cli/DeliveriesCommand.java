package dev.ledgerlink.cli;

import dev.ledgerlink.Services;
import dev.ledgerlink.delivery.DeliveryJson;
import dev.ledgerlink.delivery.DeliveryRecord;
import dev.ledgerlink.delivery.DeliveryService;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(name = "deliveries", mixinStandardHelpOptions = true, description = "Webhook deliveries: history and redelivery (operators).",
        subcommands = {DeliveriesCommand.ListDeliveries.class, DeliveriesCommand.Redeliver.class})
final class DeliveriesCommand {

    @Command(name = "list", mixinStandardHelpOptions = true, description = "A callback's deliveries, newest first, with every attempt.")
    static final class ListDeliveries extends ServiceCommand {
        @Option(names = "--callback", required = true, paramLabel = "ID")
        long callbackId;

        @Option(names = "--page", defaultValue = "1")
        int page;

        @Option(names = "--per-page", defaultValue = "15")
        int perPage;

        @Override
        void run(Services s) {
            DeliveryService.DeliveryPage p = s.deliveries().history(null, callbackId, page, perPage);
            StringBuilder human = new StringBuilder();
            for (DeliveryRecord d : p.deliveries()) {
                human.append(d.id()).append('\t').append(d.name()).append('\t').append(d.state())
                        .append("\tattempts=").append(d.attemptCount());
                if (!d.attempts().isEmpty()) {
                    var last = d.attempts().getLast();
                    human.append("\tlast=").append(last.statusCode() == null ? last.error() : "HTTP " + last.statusCode());
                }
                if (d.dropReason() != null) human.append("\t(").append(d.dropReason()).append(')');
                human.append('\n');
            }
            human.append("page ").append(p.page()).append('/').append(p.pages()).append(", ").append(p.total()).append(" deliveries");
            print(DeliveryJson.page(p), human.toString());
        }
    }

    @Command(name = "redeliver", mixinStandardHelpOptions = true,
            description = "Queue a delivered or dropped delivery again from its first attempt (same message id).")
    static final class Redeliver extends ServiceCommand {
        @Parameters(paramLabel = "ID")
        long deliveryId;

        @Override
        void run(Services s) {
            DeliveryRecord d = s.deliveries().redeliver(deliveryId);
            print(Map.of("delivery", DeliveryJson.of(d)), "delivery " + d.id() + " queued again");
        }
    }
}
