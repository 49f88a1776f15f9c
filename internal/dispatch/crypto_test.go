package dispatch

import (
	"bytes"
	"strings"
	"testing"

	"github.com/google/uuid"
)

func TestSealOpen(t *testing.T) {
	s := NewService(nil, []byte(strings.Repeat("k", 32)))
	id := uuid.New()
	creds := map[string]any{"token": "s3cr3t", "n": 1.0}
	a, err := s.seal(id, creds)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := s.seal(id, creds)
	if bytes.Equal(a, b) || bytes.Contains(a, []byte("s3cr3t")) || a[0] != 1 {
		t.Fatalf("sealed = %x / %x", a, b)
	}
	got, err := s.open(id, a)
	if err != nil || got["token"] != "s3cr3t" || got["n"] != 1.0 {
		t.Fatalf("open = %v, %v", got, err)
	}
	// Bound to its provider, and tamper-evident.
	if _, err := s.open(uuid.New(), a); err == nil {
		t.Fatal("opened with another provider id")
	}
	tampered := bytes.Clone(a)
	tampered[len(tampered)-1] ^= 1
	if _, err := s.open(id, tampered); err == nil {
		t.Fatal("opened tampered credentials")
	}
	if _, err := s.open(id, []byte{9, 1, 2}); err == nil {
		t.Fatal("opened an unknown format")
	}
	// Another key cannot open them.
	other := NewService(nil, []byte(strings.Repeat("x", 32)))
	if _, err := other.open(id, a); err == nil {
		t.Fatal("opened with another key")
	}
	// No credentials: nothing stored, an empty map read.
	if v, err := s.seal(id, map[string]any{}); v != nil || err != nil {
		t.Fatalf("empty credentials sealed to %x, %v", v, err)
	}
	if m, err := s.open(id, nil); err != nil || len(m) != 0 {
		t.Fatalf("open(nil) = %v, %v", m, err)
	}
}

func TestBadKeyNeverStoresPlaintext(t *testing.T) {
	for _, key := range [][]byte{nil, []byte("short")} {
		s := NewService(nil, key)
		if _, err := s.seal(uuid.New(), map[string]any{"token": "x"}); err == nil || !strings.Contains(err.Error(), "32 bytes") {
			t.Fatalf("key %q: seal error = %v", key, err)
		}
		if _, err := s.open(uuid.New(), []byte{1, 2, 3}); err == nil {
			t.Fatalf("key %q: open succeeded", key)
		}
	}
}

func TestValidateSettings(t *testing.T) {
	for url, ok := range map[any]bool{"https://x.test/h": true, "http://x.test": true, "ftp://x.test": false, "x.test": false, 5: false, nil: false} {
		if got := validateSettings(KindWebhook, map[string]any{"url": url}) == nil; got != ok {
			t.Errorf("url %v: valid = %v, want %v", url, got, ok)
		}
	}
	if msgs := validateSettings(KindLog, nil); msgs != nil {
		t.Errorf("log settings: %v", msgs)
	}
}
