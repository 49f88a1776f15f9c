package outbound

import (
	"net/netip"
)

// A webhook URL is configured by a tenant, so its target must be an address
// of the public Internet: never the service's own host or network, a
// cloud metadata endpoint, nor any range the IANA special-purpose registries
// set aside. This file is the one place that decides it.

// special lists the refused prefixes: the IANA IPv4 and IPv6 Special-Purpose
// Address Registries (names as the registries give them), the multicast
// ranges, and deprecated ranges that still route locally.
var special = prefixes(
	// IPv4 Special-Purpose Address Registry (RFC 6890 and updates).
	"0.0.0.0/8",          // "This network" (RFC 791); holds 0.0.0.0/32 "This host on this network"
	"10.0.0.0/8",         // Private-Use (RFC 1918)
	"100.64.0.0/10",      // Shared Address Space (RFC 6598, carrier-grade NAT)
	"127.0.0.0/8",        // Loopback (RFC 1122)
	"169.254.0.0/16",     // Link Local (RFC 3927); cloud metadata at 169.254.169.254
	"172.16.0.0/12",      // Private-Use (RFC 1918)
	"192.0.0.0/24",       // IETF Protocol Assignments (RFC 6890): DS-Lite, PCP/TURN anycast, NAT64 discovery...
	"192.0.2.0/24",       // Documentation (TEST-NET-1) (RFC 5737)
	"192.31.196.0/24",    // AS112-v4 (RFC 7535)
	"192.52.193.0/24",    // AMT (RFC 7450)
	"192.88.99.0/24",     // Deprecated (6to4 Relay Anycast) (RFC 7526)
	"192.168.0.0/16",     // Private-Use (RFC 1918)
	"192.175.48.0/24",    // Direct Delegation AS112 Service (RFC 7534)
	"198.18.0.0/15",      // Benchmarking (RFC 2544)
	"198.51.100.0/24",    // Documentation (TEST-NET-2) (RFC 5737)
	"203.0.113.0/24",     // Documentation (TEST-NET-3) (RFC 5737)
	"224.0.0.0/4",        // Multicast (IPv4 Multicast Address Space Registry)
	"240.0.0.0/4",        // Reserved (RFC 1112)
	"255.255.255.255/32", // Limited Broadcast (RFC 919); inside 240.0.0.0/4, listed for its name

	// IPv6 Special-Purpose Address Registry (RFC 6890 and updates).
	// ::ffff:0:0/96 (IPv4-mapped Address) and 2002::/16 (6to4) are not
	// listed: PublicAddress judges the IPv4 address they embed.
	"::/128",            // Unspecified Address (RFC 4291)
	"::1/128",           // Loopback Address (RFC 4291)
	"::/96",             // IPv4-Compatible IPv6 Address, deprecated (RFC 4291)
	"64:ff9b::/96",      // IPv4-IPv6 Translat. (RFC 6052, NAT64 well-known prefix)
	"64:ff9b:1::/48",    // IPv4-IPv6 Translat. (RFC 8215, local-use NAT64)
	"100::/64",          // Discard-Only Address Block (RFC 6666)
	"100:0:0:1::/64",    // Dummy IPv6 Prefix (RFC 9780)
	"2001::/23",         // IETF Protocol Assignments (RFC 2928): TEREDO 2001::/32, benchmarking 2001:2::/48, ORCHID...
	"2001:db8::/32",     // Documentation (RFC 3849)
	"2620:4f:8000::/48", // Direct Delegation AS112 Service (RFC 7534)
	"3fff::/20",         // Documentation (RFC 9637)
	"5f00::/16",         // Segment Routing (SRv6) SIDs (RFC 9602)
	"fc00::/7",          // Unique-Local (RFC 4193)
	"fe80::/10",         // Link-Local Unicast (RFC 4291)
	"fec0::/10",         // Site-local, deprecated (RFC 3879)
	"ff00::/8",          // Multicast (IPv6 Multicast Address Space Registry)
)

// Prefixes whose addresses embed an IPv4 address: the embedded address
// decides. IPv4-mapped addresses (::ffff:0:0/96) are unmapped first.
var (
	// sixToFour is 6to4 (RFC 3056): 2002:AABB:CCDD::/48 reaches AA.BB.CC.DD
	// through a relay.
	sixToFour = netip.MustParsePrefix("2002::/16")
	// globalUnicast is the only IPv6 block IANA allocates for global unicast
	// (RFC 4291); everything outside it is reserved or special.
	globalUnicast = netip.MustParsePrefix("2000::/3")
)

func prefixes(ss ...string) []netip.Prefix {
	out := make([]netip.Prefix, len(ss))
	for i, s := range ss {
		out[i] = netip.MustParsePrefix(s)
	}
	return out
}

// PublicAddress reports whether a webhook may connect to a: a unicast address
// of the public Internet, outside every special-purpose range. IPv4-mapped
// and 6to4 addresses are judged by the IPv4 address they carry.
func PublicAddress(a netip.Addr) bool {
	if !a.IsValid() {
		return false
	}
	a = a.WithZone("").Unmap()
	if a.Is6() && sixToFour.Contains(a) {
		b := a.As16()
		return PublicAddress(netip.AddrFrom4([4]byte{b[2], b[3], b[4], b[5]}))
	}
	for _, p := range special {
		if p.Contains(a) {
			return false
		}
	}
	return a.Is4() || globalUnicast.Contains(a)
}
