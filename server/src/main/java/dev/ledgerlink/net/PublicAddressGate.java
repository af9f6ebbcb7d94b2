package dev.ledgerlink.net;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * Whether a webhook may be sent to a host, and to which addresses: the one gate, asked when a
 * callback URI is registered (callbacks.CallbackUriRule) and by the sender's resolver whenever it
 * opens a connection (delivery.DeliverySender), so a name that comes to resolve elsewhere after
 * registration (DNS rebinding) is still refused.
 *
 * <p>Outside development mode plain http is refused, at registration and at send time alike, and
 * every address the host resolves to must be public ({@link PublicAddresses}). {@link #addressesToConnect}
 * resolves the host once and returns the addresses it checked: the sender connects to those and
 * never looks the name up again, so no answer that changes between a check and a connection can
 * lead it elsewhere, for http and https alike. Development mode's exemption is decided here and
 * nowhere else: http to loopback hosts ({@link LoopbackHost}, by name) and to the names containers
 * give their host ({@link ContainerHostNames}), and no address check at all. The one gate of a
 * process is made once, at start, from its mode (the wiring's {@code Services}).
 */
public final class PublicAddressGate {

    /** Name resolution, replaceable so tests decide what a host name resolves to, and when. */
    @FunctionalInterface
    public interface Resolver {
        InetAddress[] resolve(String host) throws UnknownHostException;
    }

    /** The system's resolver (the JDK's, with its cache). */
    public static final Resolver SYSTEM = InetAddress::getAllByName;

    /** What the gate says of a host. */
    public sealed interface Verdict permits Exempt, Public, Unchecked, Unresolved, NotPublic {}

    /** Development mode, at registration: not checked, not even resolved. */
    public record Exempt() implements Verdict {}

    /** Every address of the host is public: these, the ones checked, are where a connection may go. */
    public record Public(List<InetAddress> addresses) implements Verdict {}

    /** Development mode, at connection: the host's addresses as resolved, not checked. */
    public record Unchecked(List<InetAddress> addresses) implements Verdict {}

    /** The host does not resolve (or there is no host). */
    public record Unresolved(String host) implements Verdict {}

    /** An address of the host is not public: which one, and the special-purpose block that holds it. */
    public record NotPublic(String host, InetAddress address, String block) implements Verdict {}

    private final boolean development;
    private final Set<String> devHosts;
    private final Resolver resolver;

    private PublicAddressGate(boolean development, Set<String> devHosts, Resolver resolver) {
        this.development = development;
        this.devHosts = development ? devHosts.stream().map(h -> h.toLowerCase(Locale.ROOT)).collect(java.util.stream.Collectors.toUnmodifiableSet())
                : Set.of();
        this.resolver = resolver;
    }

    /** The gate of a process in development mode ({@code development} true) or not, resolving with {@code resolver}. */
    public static PublicAddressGate of(boolean development, Resolver resolver) {
        return new PublicAddressGate(development, Set.of(), resolver);
    }

    /**
     * As {@link #of(boolean, Resolver)}; in development mode http is also allowed to the hosts named
     * in {@code devHosts} (dev.callback-hosts: a compose file's service names), which are otherwise
     * ignored.
     */
    public static PublicAddressGate of(boolean development, Set<String> devHosts, Resolver resolver) {
        return new PublicAddressGate(development, devHosts, resolver);
    }

    /**
     * Why plain http to {@code host} is refused, or empty when it is allowed: only in development
     * mode, only to a loopback host, a container's name for its host, or a host of dev.callback-hosts
     * (each by name, no lookup). Asked at registration and again before every attempt: outside
     * development mode an http callback is never sent, whatever was registered before (a database a
     * development server used, served by a production one); in it, dev.callback-hosts may have changed since.
     */
    public Optional<String> httpRefusal(String host) {
        if (!development) return Optional.of("must use https");
        if (LoopbackHost.is(host) || ContainerHostNames.is(host) || (host != null && devHosts.contains(host.toLowerCase(Locale.ROOT)))) {
            return Optional.empty();
        }
        String containerHosts = String.join(", ", ContainerHostNames.ALL);
        return Optional.of(devHosts.isEmpty()
                ? "must use https (http is allowed only to loopback hosts and to " + containerHosts + " in development mode)"
                : "must use https (http is allowed only to loopback hosts, to " + containerHosts + " and to "
                        + String.join(", ", new java.util.TreeSet<>(devHosts)) + " (dev.callback-hosts) in development mode)");
    }

    /**
     * At registration: resolves {@code host} (a name or a literal address, IPv6 bracketed or not)
     * and checks every address it has; development mode neither resolves nor checks.
     */
    public Verdict check(String host) {
        return development ? new Exempt() : resolveAndCheck(host);
    }

    /**
     * When a delivery opens a connection: the addresses it may connect to, resolved once here. Outside
     * development mode every one is checked ({@link Public}, or why not); in development mode they are
     * as resolved ({@link Unchecked}). The caller connects to exactly these and resolves nothing itself.
     */
    public Verdict addressesToConnect(String host) {
        if (!development) return resolveAndCheck(host);
        Optional<List<InetAddress>> all = resolve(host);
        return all.isEmpty() ? new Unresolved(host) : new Unchecked(all.get());
    }

    private Verdict resolveAndCheck(String host) {
        Optional<List<InetAddress>> all = resolve(host);
        if (all.isEmpty()) return new Unresolved(host);
        for (InetAddress a : all.get()) {
            Optional<String> block = PublicAddresses.specialPurpose(a);
            if (block.isPresent()) return new NotPublic(host, a, block.get());
        }
        return new Public(all.get());
    }

    /** Every address of {@code host}, or empty when there is no host or it does not resolve. */
    private Optional<List<InetAddress>> resolve(String host) {
        if (host == null || host.isEmpty()) return Optional.empty();
        String bare = host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
        try {
            InetAddress[] all = resolver.resolve(bare);
            return all == null || all.length == 0 ? Optional.empty() : Optional.of(List.of(all));
        } catch (UnknownHostException e) {
            return Optional.empty();
        }
    }
}
