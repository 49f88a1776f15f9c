// Package pgconn opens PostgreSQL pools that never wait forever on a server:
// the service's own database and the tenants' datasets.
package pgconn

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"net"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/lib/pq"

	"github.com/reten-io/reten/internal/apperr"
)

// lib/pq alone can wait forever on a server that stopped answering (a frozen
// process, a dead network path): on a done context it sends a CancelRequest
// over a new connection and keeps blocking on the original read, and its
// startup handshake ignores the context. The connector below closes the
// socket of an operation whose context ends (database/sql then discards the
// connection) and gives every read and write an upper bound.

const (
	// ConnectTimeout bounds dialing and the startup handshake when
	// DATABASE_URL sets no connect_timeout; lib/pq also keeps it as the
	// deadline of its CancelRequest connections.
	ConnectTimeout = 10 * time.Second
	// ResponseGrace is how much longer than statement_timeout a read may
	// wait for the server: the server answers a timed-out statement with an
	// error at once, so silence past this is a server that is not there.
	ResponseGrace = 5 * time.Second
)

// Limits bound the connections of one pool.
type Limits struct {
	// Statement is sent as statement_timeout and
	// idle_in_transaction_session_timeout; zero keeps the server's settings.
	Statement time.Duration
	// IO bounds every single read and write on the socket; zero leaves them
	// to the contexts of the operations.
	IO time.Duration
	// Plans is sent as plan_cache_mode; empty keeps the server's (auto).
	Plans PlanMode
}

// PlanMode is how a connection plans the runs of a prepared statement.
type PlanMode string

const (
	// CustomPlans plans every run for its arguments: a generic plan, which
	// PostgreSQL's default (auto) picks after five runs when it looks no
	// costlier, does not know how many rows a tenant or a project holds and
	// can read far more than the arguments' plan would.
	CustomPlans PlanMode = "force_custom_plan"
	// GenericPlans plans a statement once for any arguments and keeps the
	// plan, for statements whose best plan is the same for every argument
	// (database.WithGenericPlans). auto would not do: it compares the
	// generic plan's estimate with the first five runs', so that a tenant
	// whose sampled share of the rows is a little under the average (page 1
	// of the activities: 48,883 estimated rows against 50,000) is planned
	// on every run, for good.
	GenericPlans PlanMode = "force_generic_plan"
)

// ServiceLimits are the limits of the service's own pool.
func ServiceLimits(statement time.Duration) Limits {
	return Limits{Statement: statement, IO: statement + ResponseGrace, Plans: CustomPlans}
}

// Open returns a pool on dsn whose connections obey lim.
func Open(dsn string, lim Limits) (*sql.DB, error) {
	cfg, err := pq.NewConfig(dsn)
	if err != nil {
		return nil, err
	}
	c, err := NewConnector(cfg, lim)
	if err != nil {
		return nil, err
	}
	return sql.OpenDB(c), nil
}

// NewConnector returns a connector for cfg whose connections obey lim.
func NewConnector(cfg pq.Config, lim Limits) (driver.Connector, error) {
	if cfg.ConnectTimeout <= 0 {
		cfg.ConnectTimeout = ConnectTimeout
	}
	if lim.Statement > 0 {
		if cfg.Runtime == nil {
			cfg.Runtime = map[string]string{}
		}
		// The server counts milliseconds, and 0 would switch the bound off.
		ms := strconv.FormatInt(max(lim.Statement.Milliseconds(), 1), 10)
		cfg.Runtime["statement_timeout"] = ms
		cfg.Runtime["idle_in_transaction_session_timeout"] = ms
	}
	if lim.Plans != "" {
		if cfg.Runtime == nil {
			cfg.Runtime = map[string]string{}
		}
		cfg.Runtime["plan_cache_mode"] = string(lim.Plans)
	}
	c, err := pq.NewConnectorConfig(cfg)
	if err != nil {
		return nil, err
	}
	c.Dialer(pgDialer{io: lim.IO})
	return &pgConnector{pq: c}, nil
}

// pgConnector wraps lib/pq's connector: it learns the socket of each new
// connection from its dialer, so that the connection can close it.
type pgConnector struct{ pq *pq.Connector }

// Driver implements driver.Connector.
func (c *pgConnector) Driver() driver.Driver { return c.pq.Driver() }

// Connect implements driver.Connector; the context bounds the whole
// handshake, which lib/pq only bounds by connect_timeout.
func (c *pgConnector) Connect(ctx context.Context) (driver.Conn, error) {
	s := &socketSlot{}
	stop := context.AfterFunc(ctx, s.abort)
	dc, err := c.pq.Connect(context.WithValue(ctx, socketSlotKey{}, s))
	if !stop() && err == nil { // the context ended as the handshake finished
		_ = dc.Close()
		err = ctx.Err()
	}
	if err != nil {
		return nil, fmt.Errorf("%w: connect to postgres: %w", apperr.ErrUnavailable, err)
	}
	inner, ok := dc.(pqConn)
	sock := s.get()
	if !ok || sock == nil {
		_ = dc.Close()
		return nil, fmt.Errorf("postgres: driver connection %T lacks the context interfaces or its socket", dc)
	}
	return &pgConn{inner: inner, sock: sock}, nil
}

// socketSlot carries the socket from the dialer back to Connect.
type socketSlot struct {
	mu      sync.Mutex
	sock    *boundedSocket
	aborted bool
}

type socketSlotKey struct{}

func (s *socketSlot) set(sock *boundedSocket) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.sock = sock
	if s.aborted {
		_ = sock.Conn.Close()
	}
}

func (s *socketSlot) get() *boundedSocket {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.sock
}

// abort closes the socket being set up, and any socket dialed after.
func (s *socketSlot) abort() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.aborted = true
	if s.sock != nil {
		_ = s.sock.Conn.Close()
	}
}

// pgDialer dials bounded sockets (pq.Dialer and pq.DialerContext).
type pgDialer struct{ io time.Duration }

func (d pgDialer) Dial(network, address string) (net.Conn, error) {
	return d.DialContext(context.Background(), network, address)
}

func (d pgDialer) DialTimeout(network, address string, timeout time.Duration) (net.Conn, error) {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	return d.DialContext(ctx, network, address)
}

// DialContext dials; a connection being opened by pgConnector learns the
// socket. CancelRequest connections come here too and get the same bound.
func (d pgDialer) DialContext(ctx context.Context, network, address string) (net.Conn, error) {
	nd := net.Dialer{KeepAlive: 30 * time.Second} // lib/pq bounds ctx by connect_timeout
	c, err := nd.DialContext(ctx, network, address)
	if err != nil {
		return nil, err
	}
	sock := &boundedSocket{Conn: c, io: d.io}
	if s, ok := ctx.Value(socketSlotKey{}).(*socketSlot); ok {
		s.set(sock)
	}
	return sock, nil
}

// boundedSocket gives every read and write a deadline io from its start.
// lib/pq sets deadlines of its own during the handshake (connect_timeout):
// the earlier of the two applies.
type boundedSocket struct {
	net.Conn
	io              time.Duration
	readAt, writeAt atomic.Int64 // deadlines lib/pq set, UnixNano; 0: none
}

func (s *boundedSocket) Read(p []byte) (int, error) {
	if s.io > 0 {
		if err := s.Conn.SetReadDeadline(s.deadline(&s.readAt)); err != nil {
			return 0, err
		}
	}
	return s.Conn.Read(p)
}

func (s *boundedSocket) Write(p []byte) (int, error) {
	if s.io > 0 {
		if err := s.Conn.SetWriteDeadline(s.deadline(&s.writeAt)); err != nil {
			return 0, err
		}
	}
	return s.Conn.Write(p)
}

func (s *boundedSocket) deadline(set *atomic.Int64) time.Time {
	d := time.Now().Add(s.io)
	if at := set.Load(); at != 0 && at < d.UnixNano() {
		return time.Unix(0, at)
	}
	return d
}

func (s *boundedSocket) SetDeadline(t time.Time) error {
	store(&s.readAt, t)
	store(&s.writeAt, t)
	return s.Conn.SetDeadline(t)
}

func (s *boundedSocket) SetReadDeadline(t time.Time) error {
	store(&s.readAt, t)
	return s.Conn.SetReadDeadline(t)
}

func (s *boundedSocket) SetWriteDeadline(t time.Time) error {
	store(&s.writeAt, t)
	return s.Conn.SetWriteDeadline(t)
}

func store(at *atomic.Int64, t time.Time) {
	if t.IsZero() {
		at.Store(0)
		return
	}
	at.Store(t.UnixNano())
}

// pgUnavailableCodes are the server errors of a database that cannot serve
// now: statement, lock and idle-transaction timeouts, cancellation, shutdown,
// startup and too many connections.
var pgUnavailableCodes = map[pq.ErrorCode]bool{
	"57014": true, "55P03": true, "25P03": true,
	"57P01": true, "57P02": true, "57P03": true, "53300": true,
}

// unavailable reports whether err means the database did not answer in time
// or could not be reached.
func unavailable(err error) bool {
	var pqErr *pq.Error
	var netErr net.Error
	return errors.As(err, &pqErr) && pgUnavailableCodes[pqErr.Code] || errors.As(err, &netErr)
}

// ListenerDialer is the dialer of a pq.Listener on the service's database
// (pq.NewDialListener): each connection attempt gives up after
// ConnectTimeout, as the pool's do (lib/pq's listener dials without a bound
// unless the DSN sets connect_timeout), and the connection is probed with
// TCP keepalives. Its reads stay unbounded: a listener waits for
// notifications.
func ListenerDialer() pq.Dialer { return listenerDialer{} }

type listenerDialer struct{ pgDialer }

func (d listenerDialer) Dial(network, address string) (net.Conn, error) {
	return d.DialTimeout(network, address, ConnectTimeout)
}
