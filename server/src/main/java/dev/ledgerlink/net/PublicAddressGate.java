package dev.ledgerlink.net;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * Whether a webhook may be sent to a host: the one gate, asked when a callback URI is registered
 * (callbacks.CallbackUriRule) and again right before every attempt (delivery.DeliverySender), so a
 * name that comes to resolve elsewhere after registration (DNS rebinding) is still refused.
 *
 * <p>Outside development mode plain http is refused, and every address the host resolves to must be
 * public ({@link PublicAddresses}); the attempt then goes to the address checked here. Development
 * mode's exemption is decided here and nowhere else: http to loopback hosts ({@link LoopbackHost},
 * by name) and to the names containers give their host ({@link ContainerHostNames}), and no address
 * check at all (the target is called by name). The one gate of a process is
 * made once, at start, from its mode (the wiring's {@code Services}).
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
    public sealed interface Verdict permits Exempt, Public, Unresolved, NotPublic {}

    /** Development mode: not checked; the target is called by its name. */
    public record Exempt() implements Verdict {}

    /** Every address of the host is public: the attempt goes to {@code address}, the one checked. */
    public record Public(InetAddress address) implements Verdict {}

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
     * (each by name, no lookup).
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
     * At send time: development mode applies its http rule again, since dev.callback-hosts may have
     * changed since the callback was registered; outside it the address check decides ({@link #check}).
     */
    public Optional<String> httpRefusalAtSend(String host) {
        return development ? httpRefusal(host) : Optional.empty();
    }

    /** Resolves {@code host} (a name or a literal address, IPv6 bracketed or not) and checks every address it has. */
    public Verdict check(String host) {
        if (development) return new Exempt();
        if (host == null || host.isEmpty()) return new Unresolved(host);
        String bare = host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
        InetAddress[] all;
        try {
            all = resolver.resolve(bare);
        } catch (UnknownHostException e) {
            return new Unresolved(host);
        }
        if (all == null || all.length == 0) return new Unresolved(host);
        for (InetAddress a : all) {
            Optional<String> block = PublicAddresses.specialPurpose(a);
            if (block.isPresent()) return new NotPublic(host, a, block.get());
        }
        return new Public(all[0]);
    }
}
