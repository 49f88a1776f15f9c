package ratelimit

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/go-chi/httprate"
)

// failingCounter fails every call, like a Redis counter without fallback.
type failingCounter struct{}

var errCounter = errors.New("counter down")

func (failingCounter) Config(int, time.Duration)                          {}
func (failingCounter) Increment(string, time.Time) error                  { return errCounter }
func (failingCounter) IncrementBy(string, time.Time, int) error           { return errCounter }
func (failingCounter) Get(string, time.Time, time.Time) (int, int, error) { return 0, 0, errCounter }

// A counter failure lets the request through and writes nothing (httprate's
// default error handler would answer 428 with a body).
func TestCheckCounterFailureLetsThrough(t *testing.T) {
	rl := httprate.NewRateLimiter(1, time.Hour,
		httprate.WithLimitCounter(failingCounter{}),
		httprate.WithErrorHandler(recordError))
	for i := 0; i < 3; i++ {
		w := httptest.NewRecorder()
		r := httptest.NewRequest(http.MethodGet, "/", nil)
		if err := check(rl, w, r, "user:x"); err != nil {
			t.Fatalf("request %d: got %v, want nil", i, err)
		}
		if w.Code != http.StatusOK || w.Body.Len() != 0 || w.Header().Get(HeaderRetryAfter) != "" {
			t.Fatalf("request %d: wrote code %d body %q Retry-After %q", i, w.Code, w.Body.String(), w.Header().Get(HeaderRetryAfter))
		}
	}
}
