package secret

import (
	"bytes"
	"strings"
	"testing"

	"github.com/google/uuid"
)

func TestBox(t *testing.T) {
	box := New([]byte(strings.Repeat("k", 32)))
	owner := uuid.New()
	a, err := box.Seal(owner, []byte("postgres://u:pw@db/x"))
	if err != nil || bytes.Contains(a, []byte("pw@db")) || a[0] != version {
		t.Fatalf("seal = %x, %v", a, err)
	}
	if b, _ := box.Seal(owner, []byte("postgres://u:pw@db/x")); bytes.Equal(a, b) {
		t.Fatal("two seals of one value are equal (nonce reused)")
	}
	if got, err := box.Open(owner, a); err != nil || string(got) != "postgres://u:pw@db/x" {
		t.Fatalf("open = %q, %v", got, err)
	}
	if _, err := box.Open(uuid.New(), a); err == nil {
		t.Fatal("opened for another owner")
	}
	if _, err := New([]byte(strings.Repeat("x", 32))).Open(owner, a); err == nil {
		t.Fatal("opened with another key")
	}
	if got, err := box.Seal(owner, nil); got != nil || err != nil {
		t.Fatalf("seal(nil) = %x, %v", got, err)
	}
	if _, err := New([]byte("short")).Seal(owner, []byte("x")); err == nil || !strings.Contains(err.Error(), "32 bytes") {
		t.Fatalf("short key: %v", err)
	}
}
