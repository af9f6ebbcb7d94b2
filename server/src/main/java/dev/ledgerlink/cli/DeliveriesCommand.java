package dev.ledgerlink.cli;

import dev.ledgerlink.Services;
import dev.ledgerlink.delivery.DeliveryJson;
import dev.ledgerlink.delivery.DeliveryRecord;
import dev.ledgerlink.delivery.DeliveryService;
import dev.ledgerlink.delivery.Recovery;
import dev.ledgerlink.errors.Validation;
import dev.ledgerlink.paging.Paging;
import java.time.Instant;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(name = "deliveries", mixinStandardHelpOptions = true, description = "Webhook deliveries: history and redelivery (operators).",
        subcommands = {DeliveriesCommand.ListDeliveries.class, DeliveriesCommand.Redeliver.class, DeliveriesCommand.Recover.class})
final class DeliveriesCommand {

    @Command(name = "list", mixinStandardHelpOptions = true,
            description = "Deliveries, newest first, with every attempt: of one callback, in one state, queued in a time window.")
    static final class ListDeliveries extends ServiceCommand {
        @Option(names = "--callback", paramLabel = "ID", description = "Only the deliveries of this callback (its id; callbacks list shows it).")
        Long callbackId;

        @Option(names = "--state", description = "pending, held (waiting for verification of a resent code), delivered or dropped.")
        String state;

        @Option(names = "--since", paramLabel = "INSTANT", description = "Queued at or after (ISO-8601, e.g. 2026-11-20T08:00:00Z).")
        String since;

        @Option(names = "--until", paramLabel = "INSTANT", description = "Queued before (ISO-8601).")
        String until;

        @Mixin
        PageOptions pages;

        @Override
        void run(Services s) {
            Validation v = new Validation();
            Instant from = since == null ? null : Recovery.parseInstant(since, "since", v);
            Instant to = until == null ? null : Recovery.parseInstant(until, "until", v);
            v.throwIfInvalid();
            if (callbackId != null) s.operatorCallbacks().show(callbackId);   // an unknown callback is an error, not an empty list
            Paging.Page<DeliveryRecord> p = s.deliveryReads().search(callbackId, state, from, to, pages.paging());
            StringBuilder human = new StringBuilder();
            for (DeliveryRecord d : p.items()) {
                human.append("delivery ").append(d.id()).append("  ").append(d.name()).append("  ").append(d.state().description())
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
            human.append(PageOptions.footer(p, "deliveries"));
            print(p.json("deliveries", DeliveryJson::of), human.toString());
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
        @Option(names = "--callback", required = true, paramLabel = "ID", description = "The callback whose deliveries to re-queue (its id).")
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
