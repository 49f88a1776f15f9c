package ratelimit_test

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/reten-io/reten/internal/apperr"
	"github.com/reten-io/reten/internal/ratelimit"
	"github.com/reten-io/reten/internal/viewer"
)

// A long window keeps httprate's sliding window (previous window weighted)
// out of the way: every request of a test falls in the same window.
const window = time.Hour

type result struct {
	h   http.Header
	err error
}

// do runs one check against a fresh recorder and returns its headers and error.
func do(t *testing.T, remoteAddr string, fn func(w http.ResponseWriter, r *http.Request) error) result {
	t.Helper()
	w := httptest.NewRecorder()
	r := httptest.NewRequest(http.MethodPost, "/v1/anything", nil)
	if remoteAddr != "" {
		r.RemoteAddr = remoteAddr
	}
	err := fn(w, r)
	if w.Body.Len() != 0 || w.Code != http.StatusOK || w.Flushed {
		t.Fatalf("check wrote a response: code %d, body %q", w.Code, w.Body.String())
	}
	return result{h: w.Result().Header, err: err}
}

// allowed asserts the check passed with the given limit and remaining headers.
func allowed(t *testing.T, res result, limit, remaining string) {
	t.Helper()
	if res.err != nil {
		t.Fatalf("want allowed (remaining %s), got error %v", remaining, res.err)
	}
	if got := res.h.Get("RateLimit-Limit"); got != limit {
		t.Errorf("RateLimit-Limit = %q, want %q", got, limit)
	}
	if got := res.h.Get("RateLimit-Remaining"); got != remaining {
		t.Errorf("RateLimit-Remaining = %q, want %q", got, remaining)
	}
	if got := res.h.Get("Retry-After"); got != "" {
		t.Errorf("Retry-After = %q on an allowed request, want none", got)
	}
	checkReset(t, res.h)
}

// refused asserts the check returned exactly apperr.TooMany(MsgTooMany) and
// set Retry-After to the window length.
func refused(t *testing.T, res result, limit string, win time.Duration) {
	t.Helper()
	if res.err == nil {
		t.Fatalf("want 429, got allowed (RateLimit-Remaining %q)", res.h.Get("RateLimit-Remaining"))
	}
	var e *apperr.Error
	if !errors.As(res.err, &e) {
		t.Fatalf("error %T %v is not an *apperr.Error", res.err, res.err)
	}
	if e.Kind != apperr.KindTooMany || e.Status() != http.StatusTooManyRequests {
		t.Errorf("kind %v status %d, want KindTooMany 429", e.Kind, e.Status())
	}
	if e.Message() != ratelimit.MsgTooMany || res.err.Error() != ratelimit.MsgTooMany {
		t.Errorf("message %q, want %q", e.Message(), ratelimit.MsgTooMany)
	}
	if got := res.h.Get("RateLimit-Limit"); got != limit {
		t.Errorf("RateLimit-Limit = %q, want %q", got, limit)
	}
	if got := res.h.Get("RateLimit-Remaining"); got != "0" {
		t.Errorf("RateLimit-Remaining = %q, want \"0\"", got)
	}
	if got, want := res.h.Get("Retry-After"), strconv.Itoa(int(win.Seconds())); got != want {
		t.Errorf("Retry-After = %q, want %q", got, want)
	}
	checkReset(t, res.h)
}

// checkReset asserts RateLimit-Reset is the Unix time of the end of a window
// that contains now (httprate's format: epoch seconds, not delta seconds).
func checkReset(t *testing.T, h http.Header) {
	t.Helper()
	reset, err := strconv.ParseInt(h.Get("RateLimit-Reset"), 10, 64)
	if err != nil {
		t.Fatalf("RateLimit-Reset = %q: %v", h.Get("RateLimit-Reset"), err)
	}
	now := time.Now().Unix()
	if reset < now || reset > now+int64(window.Seconds()) {
		t.Errorf("RateLimit-Reset = %d, want within [%d, %d]", reset, now, now+int64(window.Seconds()))
	}
}

func newLimiter(t *testing.T, cfg ratelimit.Config) *ratelimit.Limiter {
	t.Helper()
	l, err := ratelimit.New(cfg)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	t.Cleanup(func() {
		if err := l.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return l
}

func credential(l *ratelimit.Limiter, v *viewer.Viewer) func(http.ResponseWriter, *http.Request) error {
	return func(w http.ResponseWriter, r *http.Request) error { return l.Credential(w, r, v) }
}

// identifier is a login attempt with an identifier that names no user.
func identifier(l *ratelimit.Limiter, id string) func(http.ResponseWriter, *http.Request) error {
	return account(l, id, uuid.Nil)
}

// account is a login attempt with an identifier that names the user of id
// (uuid.Nil: no user).
func account(l *ratelimit.Limiter, identifier string, id uuid.UUID) func(http.ResponseWriter, *http.Request) error {
	return func(w http.ResponseWriter, r *http.Request) error { return l.LoginIdentifier(w, r, identifier, id) }
}

func TestCredentialInMemory(t *testing.T) {
	l := newLimiter(t, ratelimit.Config{PerCredential: 3, Window: window, LoginWindow: window})
	alice := &viewer.Viewer{UserID: uuid.New()}

	allowed(t, do(t, "", credential(l, alice)), "3", "2")
	allowed(t, do(t, "", credential(l, alice)), "3", "1")
	allowed(t, do(t, "", credential(l, alice)), "3", "0")
	refused(t, do(t, "", credential(l, alice)), "3", window)
	refused(t, do(t, "", credential(l, alice)), "3", window) // refusals are not counted but stay refused

	// Another user has their own budget.
	bob := &viewer.Viewer{UserID: uuid.New()}
	allowed(t, do(t, "", credential(l, bob)), "3", "2")

	// An API key of alice has its own budget, keyed by the key, not the owner.
	aliceKey := &viewer.Viewer{UserID: alice.UserID, APIKeyID: uuid.New()}
	allowed(t, do(t, "", credential(l, aliceKey)), "3", "2")
	allowed(t, do(t, "", credential(l, aliceKey)), "3", "1")
	// ... and a second key of the same owner too.
	aliceKey2 := &viewer.Viewer{UserID: alice.UserID, APIKeyID: uuid.New()}
	allowed(t, do(t, "", credential(l, aliceKey2)), "3", "2")

	// Login budgets are independent of the credential budget.
	allowed(t, do(t, "192.0.2.1:1234", l.LoginIP), "30", "29")
	allowed(t, do(t, "", identifier(l, "alice@example.com")), "10", "9")

	// No credential: not limited, no headers.
	for _, v := range []*viewer.Viewer{nil, {}} {
		res := do(t, "", credential(l, v))
		if res.err != nil || res.h.Get("RateLimit-Limit") != "" {
			t.Errorf("viewer %+v: err %v, RateLimit-Limit %q; want nil and none", v, res.err, res.h.Get("RateLimit-Limit"))
		}
	}
}

func TestLimitAllowsExactlyN(t *testing.T) {
	for _, n := range []int{1, 2, 5, 17} {
		t.Run(strconv.Itoa(n), func(t *testing.T) {
			l := newLimiter(t, ratelimit.Config{PerCredential: n, Window: window})
			v := &viewer.Viewer{UserID: uuid.New()}
			limit := strconv.Itoa(n)
			for i := 1; i <= n; i++ {
				allowed(t, do(t, "", credential(l, v)), limit, strconv.Itoa(n-i))
			}
			refused(t, do(t, "", credential(l, v)), limit, window)
		})
	}
}

func TestLoginInMemory(t *testing.T) {
	l := newLimiter(t, ratelimit.Config{LoginPerIP: 2, LoginPerIdentifier: 3, LoginWindow: window})

	t.Run("per IP", func(t *testing.T) {
		allowed(t, do(t, "192.0.2.1:1000", l.LoginIP), "2", "1")
		allowed(t, do(t, "192.0.2.1:2000", l.LoginIP), "2", "0") // same IP, other port
		refused(t, do(t, "192.0.2.1:3000", l.LoginIP), "2", window)

		// X-Forwarded-For is not trusted: a spoofed header does not buy a fresh budget.
		res := do(t, "192.0.2.1:4000", func(w http.ResponseWriter, r *http.Request) error {
			r.Header.Set("X-Forwarded-For", "198.51.100.7")
			r.Header.Set("X-Real-IP", "198.51.100.7")
			return l.LoginIP(w, r)
		})
		refused(t, res, "2", window)

		// Another IP has its own budget.
		allowed(t, do(t, "198.51.100.7:1000", l.LoginIP), "2", "1")

		// IPv6 clients share the budget of their /64.
		allowed(t, do(t, "[2001:db8:1:2::1]:1000", l.LoginIP), "2", "1")
		allowed(t, do(t, "[2001:db8:1:2::ffff]:1000", l.LoginIP), "2", "0")
		refused(t, do(t, "[2001:db8:1:2:aaaa::1]:1000", l.LoginIP), "2", window)
		allowed(t, do(t, "[2001:db8:1:3::1]:1000", l.LoginIP), "2", "1")
	})

	t.Run("per identifier, case-insensitive", func(t *testing.T) {
		allowed(t, do(t, "", identifier(l, "Alice@Example.com")), "3", "2")
		allowed(t, do(t, "", identifier(l, "  alice@example.com\t")), "3", "1")
		allowed(t, do(t, "", identifier(l, "ALICE@EXAMPLE.COM")), "3", "0")
		refused(t, do(t, "", identifier(l, "alice@example.COM ")), "3", window)
		allowed(t, do(t, "", identifier(l, "bob@example.com")), "3", "2")
	})

	t.Run("per account: email and username share one budget", func(t *testing.T) {
		frank, grace := uuid.New(), uuid.New()
		allowed(t, do(t, "", account(l, "frank@example.com", frank)), "3", "2")
		allowed(t, do(t, "", account(l, "frank", frank)), "3", "1")
		allowed(t, do(t, "", account(l, "Frank@Example.com", frank)), "3", "0")
		refused(t, do(t, "", account(l, "FRANK", frank)), "3", window)
		// The account's budget is not the identifier's: an identifier that
		// names no user keeps its own, and so does another account.
		allowed(t, do(t, "", identifier(l, "frank")), "3", "2")
		allowed(t, do(t, "", account(l, "grace", grace)), "3", "2")
	})

	t.Run("independent budgets", func(t *testing.T) {
		// 192.0.2.1 is out of IP budget and alice out of identifier budget,
		// yet the other dimension and the credential budget are untouched.
		allowed(t, do(t, "192.0.2.1:1", identifier(l, "carol@example.com")), "3", "2")
		allowed(t, do(t, "203.0.113.9:1", l.LoginIP), "2", "1")
		allowed(t, do(t, "192.0.2.1:1", credential(l, &viewer.Viewer{UserID: uuid.New()})), "600", "599")
		// alice stays refused whatever the IP.
		refused(t, do(t, "", identifier(l, "ALICE@example.com")), "3", window)
	})
}

func TestDefaults(t *testing.T) {
	l := newLimiter(t, ratelimit.Config{})
	allowed(t, do(t, "", credential(l, &viewer.Viewer{UserID: uuid.New()})), "600", "599")
	allowed(t, do(t, "192.0.2.1:1", l.LoginIP), "30", "29")
	allowed(t, do(t, "", identifier(l, "x")), "10", "9")
}

func TestNewRejectsInvalidConfig(t *testing.T) {
	for _, cfg := range []ratelimit.Config{
		{PerCredential: -1},
		{LoginPerIP: -1},
		{LoginPerIdentifier: -5},
		{Window: -time.Minute},
		{LoginWindow: time.Millisecond},
		{RedisURL: "http://127.0.0.1:6379"},
	} {
		if l, err := ratelimit.New(cfg); err == nil {
			_ = l.Close()
			t.Errorf("New(%+v) succeeded, want error", cfg)
		}
	}
}

func TestConfigFromEnv(t *testing.T) {
	vars := []string{
		"RETEN_REDIS_URL", "RETEN_RATE_LIMIT", "RETEN_RATE_LIMIT_WINDOW",
		"RETEN_LOGIN_RATE_LIMIT_IP", "RETEN_LOGIN_RATE_LIMIT_IDENTIFIER", "RETEN_LOGIN_RATE_LIMIT_WINDOW",
	}
	unsetAll := func(t *testing.T) {
		for _, k := range vars {
			t.Setenv(k, "") // restores the original value after the test
			os.Unsetenv(k)
		}
	}

	t.Run("defaults", func(t *testing.T) {
		unsetAll(t)
		cfg, err := ratelimit.ConfigFromEnv()
		if err != nil {
			t.Fatal(err)
		}
		want := ratelimit.Config{
			PerCredential:      600,
			Window:             time.Minute,
			LoginPerIP:         30,
			LoginPerIdentifier: 10,
			LoginWindow:        15 * time.Minute,
			Prefix:             "reten:ratelimit",
		}
		if cfg != want {
			t.Errorf("got %+v, want %+v", cfg, want)
		}
	})

	t.Run("empty values are defaults", func(t *testing.T) {
		for _, k := range vars {
			t.Setenv(k, "")
		}
		cfg, err := ratelimit.ConfigFromEnv()
		if err != nil {
			t.Fatal(err)
		}
		if cfg.PerCredential != 600 || cfg.RedisURL != "" || cfg.LoginWindow != 15*time.Minute {
			t.Errorf("got %+v", cfg)
		}
	})

	t.Run("overrides", func(t *testing.T) {
		unsetAll(t)
		t.Setenv("RETEN_REDIS_URL", "redis://:secret@127.0.0.1:6380/2")
		t.Setenv("RETEN_RATE_LIMIT", "1200")
		t.Setenv("RETEN_RATE_LIMIT_WINDOW", "30s")
		t.Setenv("RETEN_LOGIN_RATE_LIMIT_IP", " 50 ")
		t.Setenv("RETEN_LOGIN_RATE_LIMIT_IDENTIFIER", "5")
		t.Setenv("RETEN_LOGIN_RATE_LIMIT_WINDOW", "1h")
		cfg, err := ratelimit.ConfigFromEnv()
		if err != nil {
			t.Fatal(err)
		}
		want := ratelimit.Config{
			RedisURL:           "redis://:secret@127.0.0.1:6380/2",
			PerCredential:      1200,
			Window:             30 * time.Second,
			LoginPerIP:         50,
			LoginPerIdentifier: 5,
			LoginWindow:        time.Hour,
			Prefix:             "reten:ratelimit",
		}
		if cfg != want {
			t.Errorf("got %+v, want %+v", cfg, want)
		}
	})

	for _, tc := range []struct{ name, value string }{
		{"RETEN_REDIS_URL", "http://127.0.0.1:6379"},
		{"RETEN_REDIS_URL", "redis://127.0.0.1:6379/notadb"},
		{"RETEN_RATE_LIMIT", "abc"},
		{"RETEN_RATE_LIMIT", "0"},
		{"RETEN_RATE_LIMIT", "-5"},
		{"RETEN_RATE_LIMIT", "1.5"},
		{"RETEN_RATE_LIMIT_WINDOW", "60"},
		{"RETEN_RATE_LIMIT_WINDOW", "0s"},
		{"RETEN_RATE_LIMIT_WINDOW", "-1m"},
		{"RETEN_LOGIN_RATE_LIMIT_IP", "many"},
		{"RETEN_LOGIN_RATE_LIMIT_IDENTIFIER", "0"},
		{"RETEN_LOGIN_RATE_LIMIT_WINDOW", "15 minutes"},
	} {
		t.Run("invalid "+tc.name+"="+tc.value, func(t *testing.T) {
			unsetAll(t)
			t.Setenv(tc.name, tc.value)
			cfg, err := ratelimit.ConfigFromEnv()
			if err == nil {
				t.Fatalf("got %+v, want an error", cfg)
			}
			if !strings.HasPrefix(err.Error(), tc.name+": ") {
				t.Errorf("error %q does not start with %q", err, tc.name+": ")
			}
			if cfg != (ratelimit.Config{}) {
				t.Errorf("config %+v returned with the error, want zero", cfg)
			}
		})
	}
}
