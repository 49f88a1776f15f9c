package webhook_test

import (
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	standardwebhooks "github.com/standard-webhooks/standard-webhooks/libraries/go"

	"github.com/reten-io/reten/internal/webhook"
)

// TestSignatureTestVector: the Standard Webhooks specification's published
// example (its reference libraries' test vector) signs to the published
// signature.
func TestSignatureTestVector(t *testing.T) {
	got, err := webhook.Sign("msg_p5jXN8AQM9LWM0D4loKWxJek", 1614265330, []byte(`{"test": 2432232314}`),
		"whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw")
	if err != nil {
		t.Fatal(err)
	}
	if want := "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE="; got != want {
		t.Fatalf("signature = %q, want %q", got, want)
	}
}

// TestSignaturesVerifyIndependently: a message signed with two secrets (a
// rotation's overlap) verifies with either secret in the Standard Webhooks
// reference library, and with neither a third secret nor a changed body.
func TestSignaturesVerifyIndependently(t *testing.T) {
	current, _ := webhook.NewSecret()
	previous, _ := webhook.NewSecret()
	other, _ := webhook.NewSecret()
	if !strings.HasPrefix(current, "whsec_") || len(current) != len("whsec_")+32 || current == previous {
		t.Fatalf("secrets %q, %q", current, previous)
	}
	body := []byte(`{"type":"webhook.ping","timestamp":"2026-11-29T00:00:00Z","data":{}}`)
	ts := time.Now().Unix()
	sig, err := webhook.Sign("0193c2f1-0000-7000-8000-000000000001", ts, body, current, previous)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(strings.Split(sig, " ")); n != 2 {
		t.Fatalf("signature header %q: %d signatures, want 2", sig, n)
	}
	h := http.Header{}
	h.Set("webhook-id", "0193c2f1-0000-7000-8000-000000000001")
	h.Set("webhook-timestamp", strconv.FormatInt(ts, 10))
	h.Set("webhook-signature", sig)
	for _, s := range []string{current, previous} {
		wh, err := standardwebhooks.NewWebhook(s)
		if err != nil {
			t.Fatal(err)
		}
		if err := wh.Verify(body, h); err != nil {
			t.Fatalf("verify with %s: %v", s, err)
		}
		if err := wh.Verify(append([]byte(nil), append(body, ' ')...), h); err == nil {
			t.Fatal("a changed body verified")
		}
	}
	wh, _ := standardwebhooks.NewWebhook(other)
	if err := wh.Verify(body, h); err == nil {
		t.Fatal("a third secret verified")
	}
	if _, err := webhook.Sign("id", ts, body, "whsec_not base64!"); err == nil {
		t.Fatal("a secret that is not base64 signed")
	}
}
