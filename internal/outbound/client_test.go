package outbound

import (
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"
)

func TestParseAllowlist(t *testing.T) {
	a, err := ParseAllowlist(" 127.0.0.1:9000, Receiver.Internal:8443 ,[::1]:81,")
	if err != nil {
		t.Fatal(err)
	}
	for addr, want := range map[string]bool{
		"127.0.0.1:9000": true, "receiver.internal:8443": true, "RECEIVER.INTERNAL:8443": true, "[::1]:81": true,
		"[::ffff:127.0.0.1]:9000": true, "127.0.0.1:9001": false, "127.0.0.2:9000": false, "receiver.internal:443": false, "nonsense": false,
	} {
		if got := a.Allows(addr); got != want {
			t.Errorf("Allows(%s) = %v, want %v", addr, got, want)
		}
	}
	for _, bad := range []string{"127.0.0.1", "host:0", "host:70000", ":80", "a:b"} {
		if _, err := ParseAllowlist(bad); err == nil || err.Error() != AllowSetting+`: "`+bad+`" is not host:port` {
			t.Errorf("ParseAllowlist(%q) = %v", bad, err)
		}
	}
	for hp, want := range map[string]bool{"127.0.0.1:9000": true, "10.0.0.1:443": false, "8.8.8.8:443": true, "example.com:443": true, "x": false} {
		if got := a.Permits(hp); got != want {
			t.Errorf("Permits(%s) = %v, want %v", hp, got, want)
		}
	}
}

// TestAllowlistedTargets: a client with an allowlist reaches the named
// loopback host:port, by address or by a name resolving to it, and nothing else on loopback: not another
// port, and not the allowed server through a redirect from it to a port
// that is not named.
func TestAllowlistedTargets(t *testing.T) {
	var other atomic.Int32
	refused := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { other.Add(1) }))
	defer refused.Close()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/away" {
			http.Redirect(w, r, refused.URL+"/", http.StatusTemporaryRedirect)
			return
		}
		w.WriteHeader(http.StatusNoContent)
	}))
	defer srv.Close()
	allow, err := ParseAllowlist(srv.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	c := allow.Client(5 * time.Second)
	res, err := c.Get(srv.URL + "/")
	if err != nil {
		t.Fatalf("allowed target: %v", err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusNoContent {
		t.Fatalf("status %d", res.StatusCode)
	}
	for _, u := range []string{refused.URL + "/", srv.URL + "/away"} {
		if res, err := c.Get(u); err == nil || !errors.Is(err, ErrNotPublic) {
			if err == nil {
				res.Body.Close()
			}
			t.Fatalf("GET %s: %v, want the public-address refusal", u, err)
		}
	}
	if n := other.Load(); n != 0 {
		t.Fatalf("the server that is not allowed was reached %d times", n)
	}
	// By name: localhost resolves to the allowed address and port.
	_, port, _ := net.SplitHostPort(srv.Listener.Addr().String())
	res, err = c.Get("http://localhost:" + port + "/")
	if err != nil {
		t.Fatalf("by name: %v", err)
	}
	res.Body.Close()
}
