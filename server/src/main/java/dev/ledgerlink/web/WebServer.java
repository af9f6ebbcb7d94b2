package dev.ledgerlink.web;

import dev.ledgerlink.Services;
import dev.ledgerlink.errors.Causes;
import dev.ledgerlink.errors.ServiceException;
import dev.ledgerlink.events.OperatorKey;
import dev.ledgerlink.json.ErrorBodies;
import dev.ledgerlink.json.Json;
import dev.ledgerlink.store.DatabaseUnavailable;
import io.javalin.Javalin;
import io.javalin.http.Context;
import io.javalin.http.HttpResponseException;
import io.javalin.json.JavalinJackson;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/**
 * The Javalin server: virtual threads, the 1 MiB body limit, request ids, metrics, and one error
 * mapper that renders every failure in the documented body. The routes themselves are in {@link Routes}.
 */
public final class WebServer {
    public static final long MAX_BODY_BYTES = 1024 * 1024;
    /** What a client is told to wait when the database is unreachable (a restart or failover takes seconds). */
    static final Duration DATABASE_RETRY_AFTER = Duration.ofSeconds(5);
    /** ... and when its disk is full (freeing space takes an operator: minutes, not seconds). */
    static final Duration DISK_FULL_RETRY_AFTER = Duration.ofSeconds(30);
    /** How long stopping the server waits for the requests in progress before it closes their connections. */
    public static final Duration STOP_TIMEOUT = Duration.ofSeconds(5);
    /** A request attribute: the failure behind this response is already in the log, in a line of its own kind. */
    private static final String LOGGED = "ledgerlink.failure-logged";
    private static final Logger LOG = LoggerFactory.getLogger(WebServer.class);

    private WebServer() {}

    /**
     * @param operatorKey the key of POST /internal/v1/events, built by the wiring ({@link OperatorKey#forServer})
     * @param draining the process's stop, which /readyz and every answer follow once it has begun
     */
    public static Javalin create(Services services, OperatorKey operatorKey, Draining draining) {
        return Javalin.create(config -> {
            config.concurrency.useVirtualThreads = true;
            config.startup.showJavalinBanner = false;
            config.startup.showOldJavalinVersionWarning = false;
            config.http.maxRequestSize = MAX_BODY_BYTES;
            config.http.defaultContentType = "application/json";
            config.router.ignoreTrailingSlashes = true;
            config.router.treatMultipleSlashesAsSingleSlash = true;
            config.jsonMapper(new JavalinJackson(Json.MAPPER, true));
            config.jetty.modifyServer(server -> {
                server.setStopTimeout(STOP_TIMEOUT.toMillis());
                server.insertHandler(draining.handler());   // refuses in the documented shape while stopping, waits for requests in progress
                server.setErrorHandler(new JettyErrors.ServerLevel());
                AcceptQueue.widen(server);
                ConnectionLimits.apply(server, services.settings(), services.metrics());
            });
            config.jetty.modifyServletContextHandler(context -> context.setErrorHandler(new JettyErrors.ContextLevel()));
            config.requestLogger.http((ctx, ms) -> recordRequest(services, ctx, ms));

            config.routes.before(ctx -> RequestTracing.start(ctx, services.tracing()));   // first: the span covers the whole request
            config.routes.before(RequestIds::assign);
            config.routes.exception(ServiceException.class, WebServer::renderServiceException);
            config.routes.exception(HttpResponseException.class, (e, ctx) -> renderHttpException(e, ctx, services));
            config.routes.exception(Exception.class, (e, ctx) -> renderUnexpected(e, ctx, services));
            config.router.javaLangErrorHandler(WebServer::renderJvmError);
            config.routes.error(404, ctx -> {
                if (ctx.result() == null || ctx.result().isEmpty()) renderServiceException(ServiceException.notFound(), ctx);
            });
            config.routes.error(405, ctx -> {
                if (ctx.result() == null || ctx.result().isEmpty()) {
                    renderServiceException(ServiceException.of(ServiceException.Kind.METHOD_NOT_ALLOWED, "Method not allowed on this path."), ctx);
                }
            });
            Routes.register(config.routes, services, operatorKey, draining, stop -> config.events.serverStopping(stop::run));
        });
    }

    static void renderServiceException(ServiceException e, Context ctx) {
        ctx.status(e.kind().status);
        ErrorNote.note(ctx, e.error(), e.getMessage());
        if (e.kind() == ServiceException.Kind.UNAUTHORIZED) {
            ctx.header("WWW-Authenticate", "Bearer error=\"invalid_token\", error_description=\"" + e.getMessage().replace("\"", "'") + "\"");
        }
        if (e.kind() == ServiceException.Kind.FORBIDDEN && "insufficient_scope".equals(e.error())) {
            ctx.header("WWW-Authenticate", "Bearer error=\"insufficient_scope\"");
        }
        if (e.retryAfter() != null) RetryAfterHeader.set(ctx, e.retryAfter());
        ctx.json(ErrorBodies.of(e));
    }

    private static void renderHttpException(HttpResponseException e, Context ctx, Services services) {
        ServiceException mapped = switch (e.getStatus()) {
            case 413 -> ServiceException.of(ServiceException.Kind.PAYLOAD_TOO_LARGE,
                    "The request body is larger than " + MAX_BODY_BYTES + " bytes.");
            case 404 -> ServiceException.notFound();
            case 405 -> ServiceException.of(ServiceException.Kind.METHOD_NOT_ALLOWED, "Method not allowed on this path.");
            case 401 -> ServiceException.unauthorized("Authentication is required.");
            case 403 -> ServiceException.forbidden("Forbidden.");
            default -> e.getStatus() >= 500 ? null : ServiceException.badRequest(e.getMessage());
        };
        if (mapped == null) {
            renderUnexpected(e, ctx, services);
        } else {
            renderServiceException(mapped, ctx);
        }
    }

    private static void renderUnexpected(Exception e, Context ctx, Services services) {
        // Before the other database failures: on H2 a full disk closes the database, and what follows
        // (the database closed, no connection to be had) is the full disk too.
        if (services.database().diskFull().explains(e)) {
            services.database().diskFull().refused(e);   // one line when the disk fills, not one per request
            ctx.attribute(LOGGED, true);
            renderServiceException(ServiceException.unavailable(
                    "The service's database has no disk space left; try again later.", DISK_FULL_RETRY_AFTER), ctx);
            return;
        }
        // Then: a connection to the database cut mid-statement surfaces as an EOFException too
        if (DatabaseUnavailable.causedBy(e)) {
            LOG.warn("database unreachable: {} {}: {}", ctx.method(), ctx.path(), rootMessage(e));
            renderServiceException(ServiceException.unavailable(
                    "The service's database is unreachable; try again shortly.", DATABASE_RETRY_AFTER), ctx);
            return;
        }
        var clientMistake = ClientInputFailures.of(e);
        if (clientMistake.isPresent()) {
            renderServiceException(clientMistake.get(), ctx);
            return;
        }
        LOG.error("request failed: {} {}", ctx.method(), ctx.path(), e);
        ctx.status(500).json(ErrorBodies.internal(RequestIds.of(ctx)));
    }

    /**
     * A java.lang.Error out of a request (out of memory, a stack overflow, a failed assertion): the
     * documented 500 body instead of Javalin's text, and the error in the log with its trace, as any
     * failure the service did not foresee.
     */
    private static void renderJvmError(jakarta.servlet.http.HttpServletResponse res, Error error) {
        String requestId = RequestIds.current();
        LOG.error("request failed with an error of the JVM", error);
        if (res.isCommitted()) return;
        try {
            res.setStatus(500);
            res.setContentType("application/json");
            res.getOutputStream().write(Json.MAPPER.writeValueAsBytes(ErrorBodies.internal(requestId == null ? "-" : requestId)));
        } catch (java.io.IOException | RuntimeException unwritable) {
            LOG.debug("the 500 could not be written: {}", unwritable.toString());
        }
    }

    private static String rootMessage(Throwable e) {
        Throwable root = Causes.root(e);
        return root.getClass().getSimpleName() + ": " + root.getMessage();
    }

    private static void recordRequest(Services services, Context ctx, Float ms) {
        String route = routeOf(ctx);
        Timer.builder("http.server.requests")
                .tags("method", ctx.method().name(), "route", route, "status", Integer.toString(ctx.statusCode()))
                .publishPercentileHistogram(false)
                .register(services.metrics())
                .record((long) (ms * 1_000_000L), TimeUnit.NANOSECONDS);
        if (ctx.statusCode() >= 500 && ctx.attribute(LOGGED) == null) {
            LOG.warn("{} {} -> {} in {} ms", ctx.method(), ctx.path(), ctx.statusCode(), String.format("%.1f", ms));
        } else if (LOG.isDebugEnabled()) {
            LOG.debug("{} {} -> {} in {} ms", ctx.method(), ctx.path(), ctx.statusCode(), String.format("%.1f", ms));
        }
        RequestTracing.end(ctx, route.equals(UNMATCHED) ? null : route);   // after the request's own log line, which carries its trace id
        MDC.remove("request_id");
    }

    private static final String UNMATCHED = "unmatched";

    /** The route pattern (not the raw path, whose ids would explode the metric's cardinality). */
    private static String routeOf(Context ctx) {
        try {
            var endpoint = ctx.endpoints().matchedHttpEndpoint();
            return endpoint == null ? UNMATCHED : endpoint.path;
        } catch (RuntimeException e) {
            return UNMATCHED;
        }
    }

    /** Tags a list of paths with the API conventions (Api-Version) before they are handled. */
    static void apiConventions(io.javalin.config.RoutesConfig routes, List<String> pathPrefixes) {
        for (String prefix : pathPrefixes) routes.before(prefix, ApiVersion::check);
    }
}
