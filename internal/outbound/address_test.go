package outbound

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// TestPublicAddress classifies addresses of every refused range and some
// public ones. Nothing is dialled.
func TestPublicAddress(t *testing.T) {
	refused := []string{
		// IPv4 special-purpose ranges.
		"0.0.0.0", "0.1.2.3", // this network
		"10.0.0.1", "10.255.255.255", // private-use
		"100.64.0.1", "100.127.255.254", // shared address space (CGN)
		"127.0.0.1", "127.8.9.10", // loopback
		"169.254.169.254", "169.254.0.1", // link local, cloud metadata
		"172.16.0.1", "172.31.255.255", // private-use
		"192.0.0.1", "192.0.0.170", "192.0.0.255", // IETF protocol assignments
		"192.0.2.1",                    // TEST-NET-1
		"192.31.196.1",                 // AS112-v4
		"192.52.193.1",                 // AMT
		"192.88.99.1",                  // 6to4 relay anycast
		"192.168.1.1",                  // private-use
		"192.175.48.1",                 // AS112 direct delegation
		"198.18.0.1", "198.19.255.255", // benchmarking
		"198.51.100.7",                 // TEST-NET-2
		"203.0.113.9",                  // TEST-NET-3
		"224.0.0.1", "239.255.255.250", // multicast
		"240.0.0.1", "255.255.255.254", // reserved
		"255.255.255.255", // limited broadcast
		// IPv6 special-purpose ranges.
		"::", "::1", // unspecified, loopback
		"::10.0.0.1",                                                    // IPv4-compatible (deprecated)
		"::ffff:127.0.0.1", "::ffff:10.1.2.3", "::ffff:169.254.169.254", // IPv4-mapped, private v4 inside
		"64:ff9b::8.8.8.8", "64:ff9b::a00:1", // NAT64 well-known prefix
		"64:ff9b:1::1",            // local-use NAT64
		"100::1",                  // discard-only
		"2001::1",                 // TEREDO
		"2001:2::1",               // benchmarking
		"2001:20::1",              // ORCHIDv2
		"2001:db8::1",             // documentation
		"2002:a00:1::1",           // 6to4 of 10.0.0.1
		"2002:7f00:1::1",          // 6to4 of 127.0.0.1
		"2002:a9fe:a9fe::1",       // 6to4 of 169.254.169.254
		"2620:4f:8000::1",         // AS112 direct delegation
		"3fff::1",                 // documentation
		"5f00::1",                 // SRv6 SIDs
		"fc00::1", "fd12:3456::1", // unique-local
		"fe80::1", "fe80::1%eth0", // link-local, with a zone
		"fec0::1",            // site-local (deprecated)
		"ff02::1", "ff05::2", // multicast
		"4000::1", "e000::1", // outside 2000::/3: not allocated for unicast
	}
	public := []string{
		"1.1.1.1", "8.8.8.8", "93.184.215.14", "100.63.255.255", "100.128.0.1", "172.15.255.255",
		"172.32.0.1", "192.0.1.255", "192.0.3.1", "192.169.0.1", "198.17.255.255", "198.20.0.1",
		"223.255.255.254",
		"::ffff:8.8.8.8",           // IPv4-mapped public address
		"2606:4700:4700::1111",     // public IPv6
		"2a00:1450:4001:80b::200e", // public IPv6
		"2002:808:808::1",          // 6to4 of 8.8.8.8
		"2001:200::1",              // just outside 2001::/23
	}
	for _, s := range refused {
		if PublicAddress(netip.MustParseAddr(s)) {
			t.Errorf("%s: public, want refused", s)
		}
	}
	for _, s := range public {
		if !PublicAddress(netip.MustParseAddr(s)) {
			t.Errorf("%s: refused, want public", s)
		}
	}
	if PublicAddress(netip.Addr{}) {
		t.Error("the zero Addr is public")
	}
}

// TestWebhookDialRefusesBeforeConnecting: the dialer checks the resolved
// address in its Control hook, which runs before connect(2), so a refused
// target never sees a packet. A host name is judged by what it resolves to
// (localhost: loopback, resolved locally).
func TestWebhookDialRefusesBeforeConnecting(t *testing.T) {
	dial := (Allowlist{}).Client(10 * time.Second).Transport.(*http.Transport).DialContext
	for _, addr := range []string{"169.254.169.254:80", "10.0.0.1:443", "100.64.0.1:80", "198.18.0.1:80",
		"[fd00::1]:80", "[64:ff9b::a00:1]:80", "[::ffff:10.0.0.1]:80", "localhost:80"} {
		conn, err := dial(context.Background(), "tcp", addr)
		if err == nil {
			conn.Close()
			t.Fatalf("dial %s: connected", addr)
		}
		if !errors.Is(err, ErrNotPublic) {
			t.Fatalf("dial %s: %v, want the public-address refusal", addr, err)
		}
	}

	// A local server is never reached, by literal address or by name.
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { hits.Add(1) }))
	defer srv.Close()
	_, port, _ := net.SplitHostPort(srv.Listener.Addr().String())
	for _, u := range []string{srv.URL, "http://localhost:" + port + "/"} {
		if res, err := (Allowlist{}).Client(10 * time.Second).Get(u); err == nil || !strings.Contains(err.Error(), "is not a public address") {
			if err == nil {
				res.Body.Close()
			}
			t.Fatalf("GET %s: %v, want the public-address refusal", u, err)
		}
	}
	if n := hits.Load(); n != 0 {
		t.Fatalf("the local server was reached %d times", n)
	}
}

// TestWebhookRedirectsAreCheckedAndBounded: a client allowed to reach one
// loopback address (as the default client is allowed public ones) follows a
// redirect only to an allowed address, and at most MaxRedirects of
// them. Every request stays on loopback.
func TestWebhookRedirectsAreCheckedAndBounded(t *testing.T) {
	var hits, elsewhere atomic.Int32
	other := httptest.NewUnstartedServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { elsewhere.Add(1) }))
	ln, err := net.Listen("tcp", "127.0.0.2:0")
	if err != nil {
		t.Fatalf("listen on 127.0.0.2: %v", err)
	}
	other.Listener = ln
	other.Start()
	defer other.Close()

	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		switch r.URL.Path {
		case "/to-metadata":
			http.Redirect(w, r, "http://169.254.169.254/latest/meta-data/", http.StatusFound)
		case "/to-other":
			http.Redirect(w, r, other.URL+"/", http.StatusTemporaryRedirect)
		case "/loop":
			http.Redirect(w, r, "/loop", http.StatusFound)
		case "/hop":
			http.Redirect(w, r, "/ok", http.StatusFound)
		default:
			w.WriteHeader(http.StatusNoContent)
		}
	}))
	defer srv.Close()
	one := netip.MustParseAddr("127.0.0.1")
	client := newClient(10*time.Second, func(string) bool { return false }, func(a netip.Addr) bool { return a == one })

	get := func(path string) error {
		res, err := client.Get(srv.URL + path)
		if err == nil {
			res.Body.Close()
		}
		return err
	}
	if err := get("/hop"); err != nil {
		t.Fatalf("allowed redirect: %v", err)
	}
	for _, path := range []string{"/to-metadata", "/to-other"} {
		if err := get(path); err == nil || !errors.Is(err, ErrNotPublic) {
			t.Fatalf("redirect %s: %v, want the public-address refusal", path, err)
		}
	}
	if n := elsewhere.Load(); n != 0 {
		t.Fatalf("the refused redirect target was reached %d times", n)
	}
	hits.Store(0)
	if err := get("/loop"); err == nil || !strings.Contains(err.Error(), "stopped after 3 redirects") {
		t.Fatalf("redirect loop: %v", err)
	}
	if n := hits.Load(); n != MaxRedirects+1 {
		t.Fatalf("redirect loop: %d requests, want %d", n, MaxRedirects+1)
	}

	// The dial check holds on its own: without CheckRedirect (Go's default
	// policy), the redirect is still refused when its connection is dialled.
	client.CheckRedirect = nil
	if err := get("/to-other"); err == nil || !errors.Is(err, ErrNotPublic) {
		t.Fatalf("redirect without CheckRedirect: %v, want the public-address refusal", err)
	}
	if n := elsewhere.Load(); n != 0 {
		t.Fatalf("the refused redirect target was reached %d times", n)
	}
}
