package app

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/go-chi/chi/v5/middleware"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/reten-io/reten/graph/generated"
	"github.com/reten-io/reten/internal/apperr"
	"github.com/reten-io/reten/internal/console"
	"github.com/reten-io/reten/internal/paging"
	"github.com/reten-io/reten/internal/playground"
	"github.com/reten-io/reten/internal/web"
	"github.com/reten-io/reten/rest"
)

// handler builds the root router: probes, metrics, /api, /graphql, the
// front door (/, /docs, /graphql/schema.graphql) and /playground.
func (a *App) handler() http.Handler {
	reg := prometheus.NewRegistry()
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	requests := prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "reten_http_requests_total", Help: "HTTP requests by route pattern, method and status.",
	}, []string{"route", "method", "status"})
	latency := prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Name: "reten_http_request_duration_seconds", Help: "HTTP request latency by route pattern.",
		Buckets: prometheus.DefBuckets,
	}, []string{"route", "method"})
	reg.MustRegister(requests, latency)

	r := chi.NewRouter()
	r.Use(middleware.RequestID)
	r.Use(requestIDHeader)
	r.Use(accessLog(requests, latency))
	r.Use(recoverer)
	r.Use(bodyLimit(a.Config.MaxBodyBytes))
	r.Use(requestDeadline(a.Config.requestTimeout(), a.DB.SQL, a.DB.Pages))

	r.Get("/healthz", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"status":"ok"}` + "\n"))
	})
	r.Get("/readyz", a.readyz)
	r.Handle("/metrics", promhttp.HandlerFor(reg, promhttp.HandlerOpts{}))
	r.Mount("/api", a.restHandler())
	r.Handle("/graphql", a.graphqlHandler(reg))
	r.Mount(frontDoor.Playground, playground.Handler(frontDoor.Playground, frontDoor.GraphQL))
	r.Mount(frontDoor.Console, console.Handler(frontDoor.Console, frontDoor.GraphQL))
	r.Handle(frontDoor.SDL, web.SDL(generated.NewExecutableSchema(generated.Config{}).Schema()))
	r.Mount(frontDoor.Docs, web.Docs(frontDoor.Docs, frontDoor.OpenAPI))
	r.Handle("/", web.Landing(frontDoor))
	return r
}

// frontDoor are the human-facing URLs: the landing page links to them and
// Serve logs them once it listens.
var frontDoor = web.Links{
	Playground: "/playground",
	Console:    "/console",
	Docs:       "/docs",
	OpenAPI:    "/api/openapi.yaml",
	SDL:        "/graphql/schema.graphql",
	GraphQL:    "/graphql",
}

// ReadyTimeout is how long /readyz waits for the database before it answers 503.
const ReadyTimeout = 2 * time.Second

// readyz answers 200 when the database answers a ping within ReadyTimeout
// and 503 otherwise. The ping runs aside: even a driver that ignored its
// context would not hold the probe past the timeout.
func (a *App) readyz(w http.ResponseWriter, req *http.Request) {
	ctx, cancel := context.WithTimeout(req.Context(), ReadyTimeout)
	defer cancel()
	pinged := make(chan error, 1)
	go func() { pinged <- a.DB.SQL.PingContext(ctx) }()
	var err error
	select {
	case err = <-pinged:
	case <-ctx.Done():
		err = ctx.Err()
	}
	w.Header().Set("Content-Type", "application/json")
	if err != nil {
		slog.WarnContext(req.Context(), "readiness: database unreachable", "err", err)
		w.WriteHeader(http.StatusServiceUnavailable)
		_, _ = w.Write([]byte(`{"status":"unavailable","database":"unreachable"}` + "\n"))
		return
	}
	_, _ = w.Write([]byte(`{"status":"ok","database":"ok"}` + "\n"))
}

// requestDeadline gives every request's context a deadline, so that no
// database work of a request outlives it (the PostgreSQL connection closes
// its socket at the deadline) and the client gets a 503 instead of a hang,
// and the pools its lists read from (paging.WithPool: a list counts beside
// its page only while its pool is quiet).
func requestDeadline(d time.Duration, pool, pages *sql.DB) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			ctx, cancel := context.WithTimeout(paging.WithPool(r.Context(), pool, pages), d)
			defer cancel()
			next.ServeHTTP(w, r.WithContext(ctx))
		})
	}
}

func requestIDHeader(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Request-Id", middleware.GetReqID(r.Context()))
		next.ServeHTTP(w, r)
	})
}

// accessLog writes one structured line per request and records metrics.
func accessLog(requests *prometheus.CounterVec, latency *prometheus.HistogramVec) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			ww := middleware.NewWrapResponseWriter(w, r.ProtoMajor)
			start := time.Now()
			next.ServeHTTP(ww, r)
			took := time.Since(start)
			// Route patterns only: raw paths would let any client grow the label set.
			route := "unmatched"
			if rc := chi.RouteContext(r.Context()); rc != nil && rc.RoutePattern() != "" {
				route = rc.RoutePattern()
			}
			status := ww.Status()
			if status == 0 {
				status = http.StatusOK
			}
			requests.WithLabelValues(route, r.Method, strconv.Itoa(status)).Inc()
			latency.WithLabelValues(route, r.Method).Observe(took.Seconds())
			slog.LogAttrs(r.Context(), slog.LevelInfo, "http request",
				slog.String("request_id", middleware.GetReqID(r.Context())),
				slog.String("method", r.Method), slog.String("path", r.URL.Path),
				slog.Int("status", status), slog.Int("bytes", ww.BytesWritten()),
				slog.Duration("duration", took), slog.String("remote", r.RemoteAddr))
		})
	}
}

// recoverer turns a panic into the 500 error envelope.
func recoverer(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			if p := recover(); p != nil {
				if p == http.ErrAbortHandler {
					panic(p)
				}
				rest.WriteError(w, r, apperr.Internal(fmt.Errorf("panic: %v", p)))
			}
		}()
		next.ServeHTTP(w, r)
	})
}

// msgBodyTooLarge is the 413 of a body over Config.MaxBodyBytes.
const msgBodyTooLarge = "Request body is too large"

func bodyLimit(n int64) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.ContentLength > n {
				rest.WriteError(w, r, apperr.TooLarge(msgBodyTooLarge))
				return
			}
			r.Body = http.MaxBytesReader(w, r.Body, n)
			next.ServeHTTP(w, r)
		})
	}
}

// BaseURL is the http URL of a listening address, with a loopback host
// when it listens on every interface.
func BaseURL(addr net.Addr) string {
	host, port, err := net.SplitHostPort(addr.String())
	if err != nil {
		return "http://" + addr.String() + "/"
	}
	if ip := net.ParseIP(host); ip == nil || ip.IsUnspecified() {
		host = "127.0.0.1"
	}
	return "http://" + net.JoinHostPort(host, port) + "/"
}

// ReadyLine is what Serve prints on App.Ready once it listens: the URLs a
// person opens first.
func ReadyLine(base string) string {
	b := strings.TrimSuffix(base, "/")
	return fmt.Sprintf("Reten is ready: %s (console %s, playground %s, REST reference %s)",
		base, b+frontDoor.Console, b+frontDoor.Playground, b+frontDoor.Docs)
}

// Serve listens on the configured address until ctx ends, then shuts down
// gracefully within the shutdown timeout. Once it listens it writes
// ReadyLine to ready (when not nil).
func (a *App) Serve(ctx context.Context, ready io.Writer) error {
	srv := &http.Server{
		Addr:              a.Config.Addr,
		Handler:           a.Handler,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       60 * time.Second,
		// The response to a request that ran into its deadline must still go out.
		WriteTimeout: max(120*time.Second, a.Config.requestTimeout()+10*time.Second),
		IdleTimeout:  120 * time.Second,
	}
	ln, err := net.Listen("tcp", a.Config.Addr)
	if err != nil {
		return err
	}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	// Scheduled work, safe on any number of replicas (SKIP LOCKED).
	go a.Trash.RunPurger(ctx, time.Hour)
	go a.Idempotency.RunPurger(ctx, time.Hour)
	go a.DayClose.Run(ctx, time.Minute)
	go a.Runs.Run(ctx, 30*time.Second)
	go a.Activities.RunRetrySweep(ctx, 30*time.Second)
	go a.Generator.Run(ctx, 30*time.Second)
	go a.Webhooks.Run(ctx, time.Second)
	base := BaseURL(ln.Addr())
	slog.Info("reten listening", "addr", ln.Addr().String(), "database", a.DB.Dialect, "url", base)
	if ready != nil {
		fmt.Fprintln(ready, ReadyLine(base))
	}
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	slog.Info("shutting down")
	sctx, cancel := context.WithTimeout(context.Background(), a.Config.ShutdownTimeout)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		return fmt.Errorf("shutdown: %w", err)
	}
	if err := <-errc; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
