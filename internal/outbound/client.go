// Package outbound decides where the service may connect on a tenant's
// behalf (webhook endpoints and webhook dispatch providers, both URLs a
// tenant configures) and builds the HTTP client that enforces it: public
// Internet addresses only (address.go), plus the host:port entries an
// operator names in AllowSetting. The check runs when each connection is
// dialled, on the resolved address, so a name that resolves to a refused
// address and every redirect are refused before a packet is sent.
package outbound

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// AllowSetting names the deployment setting that lets an operator allow
// named private addresses (tests, private networks): a comma-separated list
// of host:port ([v6 address]:port for IPv6).
const AllowSetting = "RETEN_OUTBOUND_ALLOW"

// MaxRedirects bounds the redirects an outbound call follows.
const MaxRedirects = 3

// CallTimeout bounds one outbound call, redirects and body included.
const CallTimeout = 10 * time.Second

// DialTimeout bounds connecting to a target.
const DialTimeout = 5 * time.Second

// ErrNotPublic refuses a target outside the public Internet that
// AllowSetting does not name.
var ErrNotPublic = errors.New("is not a public address")

// Allowlist is the parsed AllowSetting. The zero value allows nothing
// beyond public addresses.
type Allowlist struct{ entries map[string]bool }

// ParseAllowlist reads an AllowSetting value.
func ParseAllowlist(spec string) (Allowlist, error) {
	a := Allowlist{entries: map[string]bool{}}
	for _, raw := range strings.Split(spec, ",") {
		e := strings.TrimSpace(raw)
		if e == "" {
			continue
		}
		host, port, err := net.SplitHostPort(e)
		if n, perr := strconv.Atoi(port); err != nil || host == "" || perr != nil || n < 1 || n > 65535 {
			return Allowlist{}, fmt.Errorf("%s: %q is not host:port", AllowSetting, e)
		}
		a.entries[key(host, port)] = true
	}
	return a, nil
}

func key(host, port string) string {
	if a, err := netip.ParseAddr(host); err == nil {
		host = a.Unmap().String()
	}
	return net.JoinHostPort(strings.ToLower(host), port)
}

// Allows reports whether the operator named hostport (host:port, a name or
// an address) in AllowSetting.
func (a Allowlist) Allows(hostport string) bool {
	host, port, err := net.SplitHostPort(hostport)
	return err == nil && a.entries[key(host, port)]
}

// Permits reports whether a connection to hostport may be made: the
// operator allowed it, or its host is an address of the public Internet. A
// host name that is not allowed is judged once resolved (Client does it at
// dial time), so Permits answers true for it.
func (a Allowlist) Permits(hostport string) bool {
	if a.Allows(hostport) {
		return true
	}
	host, _, err := net.SplitHostPort(hostport)
	if err != nil {
		return false
	}
	if ip, err := netip.ParseAddr(host); err == nil {
		return PublicAddress(ip)
	}
	return true
}

// Client returns an HTTP client whose every request ends within timeout
// and which connects only where a permits: an allowed host:port as named,
// anything else once resolved to a public address. Redirects are followed
// up to MaxRedirects, each target checked the same way. There is no proxy:
// a proxy would dial the target itself, past the check.
func (a Allowlist) Client(timeout time.Duration) *http.Client {
	return newClient(timeout, a.Allows, PublicAddress)
}

// newClient builds the client over the two checks: named(host:port as
// requested) and public(the resolved address).
func newClient(timeout time.Duration, named func(string) bool, public func(netip.Addr) bool) *http.Client {
	plain := &net.Dialer{Timeout: DialTimeout}
	guarded := &net.Dialer{
		Timeout: DialTimeout,
		Control: func(_, address string, _ syscall.RawConn) error {
			return checkResolved(address, named, public)
		},
	}
	dial := func(ctx context.Context, network, addr string) (net.Conn, error) {
		if named(addr) {
			return plain.DialContext(ctx, network, addr)
		}
		return guarded.DialContext(ctx, network, addr)
	}
	return &http.Client{
		Timeout:   timeout,
		Transport: &http.Transport{Proxy: nil, DialContext: dial, MaxIdleConnsPerHost: 16, IdleConnTimeout: 90 * time.Second},
		CheckRedirect: func(req *http.Request, via []*http.Request) error {
			if len(via) > MaxRedirects {
				return fmt.Errorf("stopped after %d redirects", MaxRedirects)
			}
			// A literal address is refused here already; a host name is
			// checked once resolved, when its connection is dialled.
			if ip, err := netip.ParseAddr(req.URL.Hostname()); err == nil && !public(ip) && !named(hostPort(req)) {
				return fmt.Errorf("redirect to %s: address %w", req.URL.Hostname(), ErrNotPublic)
			}
			return nil
		},
	}
}

// hostPort is the host:port a request connects to.
func hostPort(req *http.Request) string {
	port := req.URL.Port()
	if port == "" {
		port = map[string]string{"https": "443"}[req.URL.Scheme]
		if port == "" {
			port = "80"
		}
	}
	return net.JoinHostPort(req.URL.Hostname(), port)
}

// checkResolved refuses a dial to address (an IP and port by then: the
// dialer has resolved it) unless the address is public or allowed by name.
func checkResolved(address string, named func(string) bool, public func(netip.Addr) bool) error {
	host, _, err := net.SplitHostPort(address)
	if err != nil {
		return fmt.Errorf("address %q: %w", address, err)
	}
	a, err := netip.ParseAddr(host)
	if err != nil || !public(a) && !named(address) {
		return fmt.Errorf("address %s %w", host, ErrNotPublic)
	}
	return nil
}
