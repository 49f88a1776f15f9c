package dbtest

import (
	"slices"
	"testing"

	"github.com/reten-io/reten/internal/apperr"
)

// ExpectError asserts that err is the service's typed error answering
// status with exactly msgs (in order), as an adapter would present it.
func ExpectError(t testing.TB, err error, status int, msgs ...string) {
	t.Helper()
	e, ok := apperr.As(err)
	if !ok {
		t.Fatalf("error = %v, want %d %q", err, status, msgs)
	}
	if e.Status() != status || !slices.Equal(e.Messages, msgs) {
		t.Fatalf("error = %d %q, want %d %q", e.Status(), e.Messages, status, msgs)
	}
}

// NoError fails the test on err.
func NoError(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
