package dev.ledgerlink.cli;

import dev.ledgerlink.Services;
import dev.ledgerlink.events.Event;
import dev.ledgerlink.events.EventJson;
import dev.ledgerlink.errors.ServiceException;
import dev.ledgerlink.events.EventPublisher;
import dev.ledgerlink.tracing.TraceHeaders;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "events", mixinStandardHelpOptions = true, description = "Publish events (the same operation as POST /internal/v1/events).",
        subcommands = {EventsCommand.Publish.class})
final class EventsCommand {

    @Command(name = "publish", mixinStandardHelpOptions = true,
            description = "Store an event and queue its deliveries; a running server sends them within a second.")
    static final class Publish extends ServiceCommand {
        @Option(names = "--account", required = true, description = "Account id, e.g. 6BApk.")
        String account;

        @Option(names = "--name", required = true, description = "Event, noun.verb, e.g. invoice.create.")
        String name;

        @Option(names = "--object-id", required = true, description = "The id of the object the event is about (e.g. the invoice).")
        long objectId;

        @Option(names = "--user-id", required = true, description = "The id of the user who caused the event.")
        long userId;

        @Option(names = "--idempotency-key", description = "Publishing again with the same key is a no-op returning the same event.")
        String idempotencyKey;

        @Option(names = "--traceparent", description = "A W3C traceparent (00-<32 hex>-<16 hex>-<2 hex>): every webhook of the event continues this trace.")
        String traceparent;

        @Override
        void run(Services s) {
            TraceHeaders trace = TraceHeaders.received(traceparent, null);
            if (traceparent != null && trace == null) {
                throw ServiceException.badRequest("--traceparent must be a W3C traceparent such as 00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01");
            }
            Event e = s.events().publish(new EventPublisher.Request(name, account, objectId, userId, idempotencyKey, trace));
            print(Map.of("event", EventJson.of(e)), "event " + e.id() + " " + e.name() + " stored; " + e.deliveries() + (e.deliveries() == 1 ? " delivery" : " deliveries") + " queued");
        }
    }
}
