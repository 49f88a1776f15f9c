package app

import (
	"io"
	"net"
	"net/url"
	"sync"
	"testing"
	"time"
)

// HangGuard only stops a test that hangs; it is no speed target.
const HangGuard = 10 * time.Second

// Within runs call and fails the test if it has not returned after HangGuard.
func Within[T any](t *testing.T, what string, call func() T) T {
	t.Helper()
	done := make(chan T, 1)
	go func() { done <- call() }()
	select {
	case v := <-done:
		return v
	case <-time.After(HangGuard):
		t.Fatalf("%s has not returned after %s", what, HangGuard)
		var zero T
		return zero
	}
}

// FreezeProxy forwards TCP connections to a PostgreSQL server and can freeze:
// while frozen it keeps every socket open and accepts new connections but
// forwards nothing, like a server whose process is stopped.
type FreezeProxy struct {
	ln     net.Listener
	target string

	mu     sync.Mutex
	thawed *sync.Cond
	frozen bool
	closed bool
	conns  []net.Conn
	once   sync.Once
}

// ViaFreezeProxy starts a proxy to the host of dsn and returns dsn pointing
// at the proxy. The proxy closes at cleanup (and may be closed before).
func ViaFreezeProxy(t testing.TB, dsn string) (string, *FreezeProxy) {
	t.Helper()
	u, err := url.Parse(dsn)
	if err != nil {
		t.Fatalf("parse %q: %v", dsn, err)
	}
	target := u.Host
	if u.Port() == "" {
		target = net.JoinHostPort(u.Hostname(), "5432")
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("proxy listen: %v", err)
	}
	p := &FreezeProxy{ln: ln, target: target}
	p.thawed = sync.NewCond(&p.mu)
	go p.accept()
	t.Cleanup(p.Close)
	u.Host = ln.Addr().String()
	return u.String(), p
}

// Freeze stops forwarding in both directions; sockets stay open.
func (p *FreezeProxy) Freeze() { p.set(true) }

// Thaw resumes forwarding, including what was sent meanwhile.
func (p *FreezeProxy) Thaw() { p.set(false) }

func (p *FreezeProxy) set(frozen bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.frozen = frozen
	p.thawed.Broadcast()
}

// Close stops the proxy and closes every connection it holds.
func (p *FreezeProxy) Close() {
	p.once.Do(func() {
		_ = p.ln.Close()
		p.mu.Lock()
		defer p.mu.Unlock()
		p.closed = true
		for _, c := range p.conns {
			_ = c.Close()
		}
		p.thawed.Broadcast()
	})
}

// track records c for Close; false when the proxy is already closed.
func (p *FreezeProxy) track(c net.Conn) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		_ = c.Close()
		return false
	}
	p.conns = append(p.conns, c)
	return true
}

// waitThawed blocks while the proxy is frozen; false once it is closed.
func (p *FreezeProxy) waitThawed() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	for p.frozen && !p.closed {
		p.thawed.Wait()
	}
	return !p.closed
}

func (p *FreezeProxy) accept() {
	for {
		client, err := p.ln.Accept()
		if err != nil {
			return
		}
		if !p.track(client) {
			return
		}
		go func() {
			server, err := net.Dial("tcp", p.target)
			if err != nil {
				_ = client.Close()
				return
			}
			if !p.track(server) {
				_ = client.Close()
				return
			}
			go p.pump(server, client)
			p.pump(client, server)
		}()
	}
}

// pump copies src to dst, holding every chunk (and the end of the stream)
// while the proxy is frozen.
func (p *FreezeProxy) pump(dst, src net.Conn) {
	buf := make([]byte, 32<<10)
	for {
		n, err := src.Read(buf)
		if !p.waitThawed() {
			return
		}
		if n > 0 {
			if _, werr := dst.Write(buf[:n]); werr != nil {
				_ = src.Close()
				return
			}
		}
		if err != nil {
			if err != io.EOF {
				_ = src.Close()
			}
			_ = dst.Close()
			return
		}
	}
}
