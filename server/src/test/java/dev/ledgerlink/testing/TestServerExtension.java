package dev.ledgerlink.testing;

import dev.ledgerlink.config.Settings;
import java.lang.reflect.AnnotatedElement;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.Optional;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * The test server of a test class, and what tests need around it, injected into fields of these
 * types (static fields once per class, instance fields before each test) and into parameters:
 * <ul>
 *   <li>{@link TestServer}: one per class by default (started on first use, stopped after the
 *       class), one per test with {@link FreshServer} or a method-level {@link ServerSettings};</li>
 *   <li>{@link Fixtures}: a new user, business and application per test (the same object in
 *       {@code @BeforeEach} and the test);</li>
 *   <li>{@link Receiver}: a webhook receiver per test, stopped after it;</li>
 *   <li>{@link TestHttp}: the server's HTTP client.</li>
 * </ul>
 * Everything is closed by JUnit's stores, innermost first; the server closes its HTTP clients
 * before it stops.
 */
public final class TestServerExtension implements ParameterResolver, BeforeAllCallback, BeforeEachCallback {
    private static final ExtensionContext.Namespace NS = ExtensionContext.Namespace.create(TestServerExtension.class);

    @Override
    public void beforeAll(ExtensionContext ctx) throws IllegalAccessException {
        inject(ctx, null, true);
    }

    @Override
    public void beforeEach(ExtensionContext ctx) throws IllegalAccessException {
        inject(ctx, ctx.getRequiredTestInstance(), false);
    }

    private static void inject(ExtensionContext ctx, Object instance, boolean statics) throws IllegalAccessException {
        for (Class<?> c = ctx.getRequiredTestClass(); c != Object.class; c = c.getSuperclass()) {
            for (Field field : c.getDeclaredFields()) {
                if (Modifier.isStatic(field.getModifiers()) != statics || Modifier.isFinal(field.getModifiers())
                        || !supports(field.getType())) continue;
                field.setAccessible(true);
                field.set(instance, resolve(field.getType(), ctx));
            }
        }
    }

    private static boolean supports(Class<?> type) {
        return type == TestServer.class || type == Fixtures.class || type == Receiver.class || type == TestHttp.class;
    }

    @Override
    public boolean supportsParameter(ParameterContext p, ExtensionContext ctx) {
        return supports(p.getParameter().getType());
    }

    @Override
    public Object resolveParameter(ParameterContext p, ExtensionContext ctx) {
        return resolve(p.getParameter().getType(), ctx);
    }

    private static Object resolve(Class<?> type, ExtensionContext ctx) {
        if (type == TestServer.class) return server(ctx);
        if (type == TestHttp.class) return server(ctx).http;
        if (type == Fixtures.class) return own(ctx, Fixtures.class, () -> Fixtures.create(server(ctx)));
        return own(ctx, Receiver.class, Receiver::new);
    }

    /** The server for this context: the test's own when it asks for one, else the class's. */
    static TestServer server(ExtensionContext ctx) {
        Optional<AnnotatedElement> method = ctx.getTestMethod().map(m -> m);
        boolean own = method.isPresent() && (method.get().isAnnotationPresent(FreshServer.class)
                || method.get().isAnnotationPresent(ServerSettings.class)
                || ctx.getRequiredTestClass().isAnnotationPresent(FreshServer.class));
        ExtensionContext owner = own ? ctx : classContext(ctx);
        return own(owner, TestServer.class, () -> start(owner));
    }

    /**
     * The value of {@code type} belonging to exactly this context. Keyed by the context's id because
     * a store lookup also sees the enclosing class's values: a test's own server or receiver must
     * not resolve to the class's.
     */
    private static <T> T own(ExtensionContext ctx, Class<T> type, java.util.function.Supplier<T> create) {
        return ctx.getStore(NS).computeIfAbsent(type.getName() + "@" + ctx.getUniqueId(), k -> create.get(), type);
    }

    private static ExtensionContext classContext(ExtensionContext ctx) {
        ExtensionContext c = ctx;
        while (c.getTestMethod().isPresent() && c.getParent().isPresent()) c = c.getParent().get();
        return c;
    }

    private static TestServer start(ExtensionContext owner) {
        return TestServer.start(b -> {
            apply(b, owner.getRequiredTestClass().getAnnotation(ServerSettings.class));
            owner.getTestMethod().ifPresent(m -> apply(b, m.getAnnotation(ServerSettings.class)));
            return b;
        });
    }

    private static void apply(Settings.Builder b, ServerSettings settings) {
        if (settings == null) return;
        for (String assignment : settings.value()) b.set(assignment);
    }
}
