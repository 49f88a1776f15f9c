// Package ratelimit limits requests per credential (API key or user) and login
// attempts per client IP and per account (or identifier naming no user). It is built on
// github.com/go-chi/httprate (sliding-window counters) and, when a Redis URL is
// configured, github.com/go-chi/httprate-redis so that all replicas share their
// counters. When Redis is unreachable the counters fall back to local
// in-memory counting: requests keep being answered, never with a 5xx.
//
// The checks only set the RateLimit-* response headers (and Retry-After when
// the limit is reached) and return an error; they never write a body, so the
// caller writes the error envelope.
package ratelimit

import (
	"cmp"
	"context"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/go-chi/httprate"
	httprateredis "github.com/go-chi/httprate-redis"
	"github.com/google/uuid"
	"github.com/redis/go-redis/v9"

	"github.com/reten-io/reten/internal/apperr"
	"github.com/reten-io/reten/internal/viewer"
)

// MsgTooMany is the message of the error returned when a limit is reached.
const MsgTooMany = "Too many requests, please retry later"

// Response headers set by the checks.
const (
	// HeaderLimit is the request limit of the window.
	HeaderLimit = "RateLimit-Limit"
	// HeaderRemaining is the number of requests left in the window.
	HeaderRemaining = "RateLimit-Remaining"
	// HeaderReset is the end of the current window, in Unix epoch seconds.
	HeaderReset = "RateLimit-Reset"
	// HeaderRetryAfter is set when the limit is reached, in seconds (the window length).
	HeaderRetryAfter = "Retry-After"
)

// Environment variables read by ConfigFromEnv.
const (
	EnvRedisURL           = "RETEN_REDIS_URL"
	EnvPerCredential      = "RETEN_RATE_LIMIT"
	EnvWindow             = "RETEN_RATE_LIMIT_WINDOW"
	EnvLoginPerIP         = "RETEN_LOGIN_RATE_LIMIT_IP"
	EnvLoginPerIdentifier = "RETEN_LOGIN_RATE_LIMIT_IDENTIFIER"
	EnvLoginWindow        = "RETEN_LOGIN_RATE_LIMIT_WINDOW"
)

// Defaults applied by ConfigFromEnv for unset variables and by New for zero fields.
const (
	DefaultPerCredential      = 600
	DefaultWindow             = time.Minute
	DefaultLoginPerIP         = 30
	DefaultLoginPerIdentifier = 10
	DefaultLoginWindow        = 15 * time.Minute
	DefaultPrefix             = "reten:ratelimit"
)

// Redis timeouts: short, so that the local in-memory fallback kicks in fast.
const (
	fallbackTimeout   = 100 * time.Millisecond
	redisDialTimeout  = 200 * time.Millisecond
	redisReadTimeout  = 100 * time.Millisecond
	redisWriteTimeout = 100 * time.Millisecond
	redisPoolTimeout  = 200 * time.Millisecond
)

// Config is read from the environment by the app.
type Config struct {
	RedisURL           string        // RETEN_REDIS_URL, e.g. redis://127.0.0.1:6379/0; "" = in-memory counters
	PerCredential      int           // RETEN_RATE_LIMIT: requests per Window per API key or user (default 600)
	Window             time.Duration // RETEN_RATE_LIMIT_WINDOW (default 1m)
	LoginPerIP         int           // RETEN_LOGIN_RATE_LIMIT_IP: login attempts per LoginWindow per client IP (default 30)
	LoginPerIdentifier int           // RETEN_LOGIN_RATE_LIMIT_IDENTIFIER: login attempts per LoginWindow per account, or per identifier naming no user (default 10)
	LoginWindow        time.Duration // RETEN_LOGIN_RATE_LIMIT_WINDOW (default 15m)
	Prefix             string        // Redis key prefix (default "reten:ratelimit"); tests use a random one
}

// ConfigFromEnv parses the RETEN_* variables above; unset or empty variables
// take their default. An invalid value is an error naming the variable.
func ConfigFromEnv() (Config, error) {
	cfg := Config{
		RedisURL: strings.TrimSpace(os.Getenv(EnvRedisURL)),
		Prefix:   DefaultPrefix,
	}
	if cfg.RedisURL != "" {
		if _, err := redis.ParseURL(cfg.RedisURL); err != nil {
			return Config{}, fmt.Errorf("%s: invalid Redis URL: %w", EnvRedisURL, err)
		}
	}
	var err error
	if cfg.PerCredential, err = envInt(EnvPerCredential, DefaultPerCredential); err != nil {
		return Config{}, err
	}
	if cfg.Window, err = envDuration(EnvWindow, DefaultWindow); err != nil {
		return Config{}, err
	}
	if cfg.LoginPerIP, err = envInt(EnvLoginPerIP, DefaultLoginPerIP); err != nil {
		return Config{}, err
	}
	if cfg.LoginPerIdentifier, err = envInt(EnvLoginPerIdentifier, DefaultLoginPerIdentifier); err != nil {
		return Config{}, err
	}
	if cfg.LoginWindow, err = envDuration(EnvLoginWindow, DefaultLoginWindow); err != nil {
		return Config{}, err
	}
	return cfg, nil
}

func envInt(name string, def int) (int, error) {
	s := strings.TrimSpace(os.Getenv(name))
	if s == "" {
		return def, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 {
		return 0, fmt.Errorf("%s: invalid value %q: must be a positive integer", name, s)
	}
	return n, nil
}

func envDuration(name string, def time.Duration) (time.Duration, error) {
	s := strings.TrimSpace(os.Getenv(name))
	if s == "" {
		return def, nil
	}
	d, err := time.ParseDuration(s)
	if err != nil || d < time.Second {
		return 0, fmt.Errorf("%s: invalid value %q: must be a duration of at least 1s (e.g. 1m, 15m)", name, s)
	}
	return d, nil
}

// Limiter holds the three rate limiters of the service.
type Limiter struct {
	credential      *httprate.RateLimiter
	loginIP         *httprate.RateLimiter
	loginIdentifier *httprate.RateLimiter
	// sends limits dispatches per key with the rate of each call (Take).
	sends *httprate.RateLimiter

	client    redis.UniversalClient // nil with in-memory counters
	closeOnce sync.Once
	closeErr  error
}

// New builds the limiters. Zero fields of cfg take their default; negative
// ones are an error. With cfg.RedisURL set, counters live in Redis (shared by
// all replicas) with a local in-memory fallback while Redis is unreachable;
// New does not connect to Redis, so it succeeds while Redis is down.
func New(cfg Config) (*Limiter, error) {
	cfg = withDefaults(cfg)
	for _, f := range []struct {
		name string
		n    int
	}{
		{"PerCredential", cfg.PerCredential},
		{"LoginPerIP", cfg.LoginPerIP},
		{"LoginPerIdentifier", cfg.LoginPerIdentifier},
	} {
		if f.n < 1 {
			return nil, fmt.Errorf("ratelimit: %s must be positive, got %d", f.name, f.n)
		}
	}
	if cfg.Window < time.Second || cfg.LoginWindow < time.Second {
		return nil, fmt.Errorf("ratelimit: windows must be at least 1s, got %s and %s", cfg.Window, cfg.LoginWindow)
	}

	l := &Limiter{}
	if cfg.RedisURL != "" {
		opts, err := redis.ParseURL(cfg.RedisURL)
		if err != nil {
			return nil, fmt.Errorf("ratelimit: invalid Redis URL: %w", err)
		}
		// Explicit URL parameters (dial_timeout, ...) win over these.
		opts.DialTimeout = cmp.Or(opts.DialTimeout, redisDialTimeout)
		opts.ReadTimeout = cmp.Or(opts.ReadTimeout, redisReadTimeout)
		opts.WriteTimeout = cmp.Or(opts.WriteTimeout, redisWriteTimeout)
		opts.PoolTimeout = cmp.Or(opts.PoolTimeout, redisPoolTimeout)
		opts.MaxRetries = cmp.Or(opts.MaxRetries, -1) // no retries: fall back at once
		l.client = redis.NewClient(opts)
	}

	l.credential = l.newLimiter("credential", cfg.PerCredential, cfg.Window, cfg.Prefix)
	l.loginIP = l.newLimiter("login-ip", cfg.LoginPerIP, cfg.LoginWindow, cfg.Prefix)
	l.loginIdentifier = l.newLimiter("login-identifier", cfg.LoginPerIdentifier, cfg.LoginWindow, cfg.Prefix)
	l.sends = l.newLimiter("sends", 1, time.Minute, cfg.Prefix) // the limit comes with each Take
	return l, nil
}

func withDefaults(cfg Config) Config {
	cfg.PerCredential = cmp.Or(cfg.PerCredential, DefaultPerCredential)
	cfg.Window = cmp.Or(cfg.Window, DefaultWindow)
	cfg.LoginPerIP = cmp.Or(cfg.LoginPerIP, DefaultLoginPerIP)
	cfg.LoginPerIdentifier = cmp.Or(cfg.LoginPerIdentifier, DefaultLoginPerIdentifier)
	cfg.LoginWindow = cmp.Or(cfg.LoginWindow, DefaultLoginWindow)
	cfg.Prefix = cmp.Or(cfg.Prefix, DefaultPrefix)
	return cfg
}

func (l *Limiter) newLimiter(name string, limit int, window time.Duration, prefix string) *httprate.RateLimiter {
	opts := []httprate.Option{
		httprate.WithResponseHeaders(httprate.ResponseHeaders{
			Limit:      HeaderLimit,
			Remaining:  HeaderRemaining,
			Reset:      HeaderReset,
			RetryAfter: HeaderRetryAfter,
			// Increment omitted: every check counts one request.
		}),
		httprate.WithErrorHandler(recordError),
	}
	if l.client != nil {
		opts = append(opts, httprateredis.WithRedisLimitCounter(&httprateredis.Config{
			Client:          l.client,
			PrefixKey:       prefix + ":" + name,
			WindowLength:    window,
			FallbackTimeout: fallbackTimeout,
			OnError: func(err error) {
				slog.Warn("ratelimit: redis unavailable, counting locally", "limiter", name, "err", err)
			},
			OnFallbackChange: func(activated bool) {
				if !activated {
					slog.Info("ratelimit: redis reachable again, counters shared", "limiter", name)
				}
			},
		}))
	}
	return httprate.NewRateLimiter(limit, window, opts...)
}

// Close releases the Redis connections, if any.
func (l *Limiter) Close() error {
	l.closeOnce.Do(func() {
		if l.client != nil {
			l.closeErr = l.client.Close()
		}
	})
	return l.closeErr
}

// Credential counts a request of the viewer: an API key ("key:<APIKeyID>")
// or a user ("user:<UserID>"). A nil viewer, or one with neither an API key
// nor a user, is not limited (nil, no headers).
func (l *Limiter) Credential(w http.ResponseWriter, r *http.Request, v *viewer.Viewer) error {
	var key string
	switch {
	case v.IsAPIKey():
		key = "key:" + v.APIKeyID.String()
	case v != nil && v.UserID != uuid.Nil:
		key = "user:" + v.UserID.String()
	default:
		return nil
	}
	return check(l.credential, w, r, key)
}

// LoginIP counts a login attempt from the client IP: the host of
// r.RemoteAddr (X-Forwarded-For is not trusted). IPv6 clients are bucketed by
// their /64, as httprate.CanonicalizeIP does.
func (l *Limiter) LoginIP(w http.ResponseWriter, r *http.Request) error {
	return check(l.loginIP, w, r, "ip:"+clientIP(r))
}

// LoginIdentifier counts a login attempt under the LoginPerIdentifier limit.
// When the identifier names a user (account is their id), the attempt counts
// for the account, so trying the email and the username of one user draws
// on one budget; otherwise it counts for the identifier (e-mail or user
// name), trimmed and lower-cased.
func (l *Limiter) LoginIdentifier(w http.ResponseWriter, r *http.Request, identifier string, account uuid.UUID) error {
	if account != uuid.Nil {
		return check(l.loginIdentifier, w, r, "account:"+account.String())
	}
	return check(l.loginIdentifier, w, r, "id:"+strings.ToLower(strings.TrimSpace(identifier)))
}

// Take counts one send under key, allowed at most perMinute times a minute
// (the dispatch rate of a channel definition), and reports whether this one
// is allowed. The counters are shared by every replica as the request limits
// are (Redis, with the local fallback).
func (l *Limiter) Take(ctx context.Context, key string, perMinute int) bool {
	r := (&http.Request{}).WithContext(httprate.WithRequestLimit(ctx, perMinute))
	return check(l.sends, headerSink{}, r, key) == nil
}

// headerSink is the response of a check made outside a request.
type headerSink struct{}

func (headerSink) Header() http.Header         { return http.Header{} }
func (headerSink) Write(b []byte) (int, error) { return len(b), nil }
func (headerSink) WriteHeader(int)             {}

func clientIP(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr // no port
	}
	return httprate.CanonicalizeIP(host)
}

// errRecorder lets the limiter's error handler hand the counter error back to
// check, which could not tell it from a reached limit otherwise.
type errRecorder struct {
	http.ResponseWriter
	err error
}

func recordError(w http.ResponseWriter, _ *http.Request, err error) {
	if rec, ok := w.(*errRecorder); ok {
		rec.err = err
	}
}

func check(rl *httprate.RateLimiter, w http.ResponseWriter, r *http.Request, key string) error {
	rec := &errRecorder{ResponseWriter: w}
	if !rl.OnLimit(rec, r, key) {
		return nil
	}
	if rec.err != nil {
		// A counter failure (not expected: local counters never fail and the
		// Redis counter falls back to local ones) must not refuse requests.
		slog.ErrorContext(r.Context(), "ratelimit: counter failed, request let through", "err", rec.err)
		return nil
	}
	// httprate reports limit-rate, negative when the count overshoots the limit
	// (e.g. concurrent replicas, or a lowered limit).
	if rem, err := strconv.Atoi(w.Header().Get(HeaderRemaining)); err == nil && rem < 0 {
		w.Header().Set(HeaderRemaining, "0")
	}
	return apperr.TooMany(MsgTooMany)
}
