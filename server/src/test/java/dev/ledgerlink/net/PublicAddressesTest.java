package dev.ledgerlink.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Classification only (literals, no lookup, no traffic): one case per special-purpose block and per IPv4-carrying form. */
class PublicAddressesTest {

    @ParameterizedTest(name = "{0} is {1}")
    @CsvSource(delimiter = '|', textBlock = """
            0.1.2.3          | this network
            10.1.2.3         | private-use
            100.64.0.1       | shared address space (carrier-grade NAT)
            100.127.255.254  | shared address space (carrier-grade NAT)
            127.0.0.1        | loopback
            169.254.169.254  | link-local
            172.16.0.1       | private-use
            172.31.255.255   | private-use
            192.0.0.9        | IETF protocol assignments
            192.0.2.10       | documentation (TEST-NET-1)
            192.31.196.1     | AS112-v4
            192.52.193.1     | AMT
            192.88.99.1      | deprecated 6to4 relay anycast
            192.168.1.1      | private-use
            192.175.48.1     | direct delegation AS112 service
            198.18.0.1       | benchmarking
            198.19.255.1     | benchmarking
            198.51.100.7     | documentation (TEST-NET-2)
            203.0.113.7      | documentation (TEST-NET-3)
            224.0.0.1        | multicast
            239.255.255.250  | multicast
            240.0.0.1        | reserved
            255.255.255.255  | limited broadcast
            ::1              | loopback
            ::               | unspecified
            64:ff9b:1::10.0.0.1 | IPv4-IPv6 translation, local use
            100::1           | discard-only
            2001::1          | IETF protocol assignments (Teredo included)
            2001:0:4136:e378:8000:63bf:3fff:fdd2 | IETF protocol assignments (Teredo included)
            2001:db8::1      | documentation
            2620:4f:8000::1  | direct delegation AS112 service
            3fff::1          | documentation
            5f00::1          | segment routing (SRv6) SIDs
            fc00::1          | unique-local
            fd12:3456::1     | unique-local
            fe80::1          | link-local
            fec0::1          | site-local (deprecated)
            ff02::1          | multicast
            """)
    void specialPurposeBlocksAreNotPublic(String address, String block) throws Exception {
        InetAddress a = InetAddress.getByName(address);
        assertEquals(block, PublicAddresses.specialPurpose(a).orElse("public"), address);
        assertFalse(PublicAddresses.isPublic(a), address);
    }

    @ParameterizedTest(name = "{0} carries {1}")
    @CsvSource(delimiter = '|', textBlock = """
            ::ffff:127.0.0.1      | loopback
            ::ffff:10.0.0.1       | private-use
            ::10.0.0.1            | private-use
            ::192.168.0.1         | private-use
            64:ff9b::10.0.0.1     | private-use
            64:ff9b::169.254.169.254 | link-local
            64:ff9b::127.0.0.1    | loopback
            2002:0a00:0001::1     | private-use
            2002:c0a8:0101::1     | private-use
            2002:7f00:0001::1     | loopback
            """)
    void ipv6FormsCarryingAPrivateIpv4AddressAreNotPublic(String address, String carried) throws Exception {
        InetAddress a = InetAddress.getByName(address);
        // (the JDK already reads ::ffff:a.b.c.d as the IPv4 address itself)
        assertTrue(PublicAddresses.specialPurpose(a).orElse("public").startsWith(carried), address);
    }

    @ParameterizedTest
    @ValueSource(strings = {"93.184.216.34", "8.8.8.8", "1.1.1.1", "172.32.0.1", "100.128.0.1", "192.169.0.1",
            "2606:4700:4700::1111", "2a00:1450:4001::1", "::ffff:8.8.8.8", "64:ff9b::8.8.8.8", "2002:0808:0808::1"})
    void ordinaryInternetAddressesArePublic(String address) throws Exception {
        assertTrue(PublicAddresses.isPublic(InetAddress.getByName(address)), address);
    }
}
