package webhook_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	standardwebhooks "github.com/standard-webhooks/standard-webhooks/libraries/go"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/ent/webhookattempt"
	"github.com/reten-io/reten/ent/webhookdelivery"
	"github.com/reten-io/reten/ent/webhookendpoint"
	"github.com/reten-io/reten/internal/dbtest"
	"github.com/reten-io/reten/internal/outbound"
	"github.com/reten-io/reten/internal/patch"
	"github.com/reten-io/reten/internal/txn"
	"github.com/reten-io/reten/internal/viewer"
	"github.com/reten-io/reten/internal/webhook"
)

var key = []byte("0123456789abcdef0123456789abcdef")

// received is one request a receiver got.
type received struct {
	id, timestamp, signature, userAgent, contentType string
	body                                             []byte
}

// receiver is a local webhook receiver whose answers a test sets.
type receiver struct {
	srv    *httptest.Server
	mu     sync.Mutex
	got    []received
	answer func(n int) int // the status of the n-th request (from 1)
}

func newReceiver(t *testing.T) *receiver {
	r := &receiver{answer: func(int) int { return http.StatusOK }}
	r.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		b, _ := io.ReadAll(req.Body)
		r.mu.Lock()
		r.got = append(r.got, received{req.Header.Get("webhook-id"), req.Header.Get("webhook-timestamp"),
			req.Header.Get("webhook-signature"), req.Header.Get("User-Agent"), req.Header.Get("Content-Type"), b})
		n := len(r.got)
		r.mu.Unlock()
		status := r.answer(n)
		w.WriteHeader(status)
		fmt.Fprintf(w, "answer %d", n)
	}))
	t.Cleanup(r.srv.Close)
	return r
}

func (r *receiver) requests() []received {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.got)
}

// fix is a tenant with a webhook service allowed to reach the receiver.
type fix struct {
	db    *dbtest.DB
	acme  dbtest.Tenant
	admin context.Context
	sys   context.Context
	svc   *webhook.Service
	rcv   *receiver
}

func newFix(t *testing.T, db *dbtest.DB) *fix {
	t.Helper()
	f := &fix{db: db, acme: db.Tenant(t, "Acme"), sys: viewer.SystemContext(context.Background()), rcv: newReceiver(t)}
	f.admin = f.acme.Admin()
	allow, err := outbound.ParseAllowlist(f.rcv.srv.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	f.svc = webhook.New(db.Client, db.Dialect, key, allow)
	return f
}

// endpoint creates an endpoint of the receiver subscribed to types.
func (f *fix) endpoint(t *testing.T, types ...string) *webhook.WithSecret {
	t.Helper()
	e, err := f.svc.CreateEndpoint(f.admin, webhook.EndpointFields{URL: patch.Of(f.rcv.srv.URL + "/hook"), EventTypes: patch.Of(types)})
	dbtest.NoError(t, err)
	return e
}

// emit records events in a transaction of their own.
func (f *fix) emit(t *testing.T, events ...webhook.Event) {
	t.Helper()
	err := txn.Run(f.sys, f.db.Client, func(ctx context.Context, tx *ent.Client) error {
		return f.svc.Emit(ctx, tx, f.acme.TenantID, events...)
	})
	dbtest.NoError(t, err)
}

func event(typ string, n int) webhook.Event {
	return webhook.Event{ID: webhook.NewID(), Type: typ, At: time.Date(2026, 11, 29, 10, 0, n, 0, time.UTC), Data: map[string]int{"n": n}}
}

func (f *fix) deliver(t *testing.T, now time.Time) int {
	t.Helper()
	n, err := f.svc.Deliver(context.Background(), now)
	dbtest.NoError(t, err)
	return n
}

func (f *fix) deliveries(t *testing.T) []*ent.WebhookDelivery {
	t.Helper()
	ds, err := f.db.Client.WebhookDelivery.Query().Order(ent.Asc(webhookdelivery.FieldCreatedAt, webhookdelivery.FieldEventID)).All(f.sys)
	dbtest.NoError(t, err)
	return ds
}

func (f *fix) attempts(t *testing.T, delivery uuid.UUID) []*ent.WebhookAttempt {
	t.Helper()
	as, err := f.db.Client.WebhookAttempt.Query().Where(webhookattempt.DeliveryID(delivery)).Order(ent.Asc(webhookattempt.FieldNumber)).All(f.sys)
	dbtest.NoError(t, err)
	return as
}

// TestEventsAreRecordedInTheirTransaction: only the types an active
// endpoint subscribes to are written, one delivery per such endpoint; a
// rolled back transaction leaves no event; the job sends each delivery
// once, signed as the reference library verifies, with the stored body
// byte for byte.
func TestEventsAreRecordedInTheirTransaction(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *dbtest.DB) {
		f := newFix(t, db)
		both := f.endpoint(t, webhook.TypeActivityStatusChanged, webhook.TypeDecisionRecorded)
		f.endpoint(t, webhook.TypeDecisionRecorded)
		off := f.endpoint(t, webhook.TypeActivityStatusChanged)
		_, err := f.svc.UpdateEndpoint(f.admin, off.ID, webhook.EndpointFields{IsActive: patch.Of(false)})
		dbtest.NoError(t, err)
		other := db.Tenant(t, "Beta")
		_, err = f.svc.CreateEndpoint(other.Admin(), webhook.EndpointFields{URL: patch.Of(f.rcv.srv.URL + "/beta"),
			EventTypes: patch.Of(webhook.EventTypes)})
		dbtest.NoError(t, err)

		status, decision, run := event(webhook.TypeActivityStatusChanged, 1), event(webhook.TypeDecisionRecorded, 2), event(webhook.TypeLifecycleRunFinished, 3)
		f.emit(t, status, decision, run)
		rollback := errors.New("rolled back")
		err = txn.Run(f.sys, db.Client, func(ctx context.Context, tx *ent.Client) error {
			if err := f.svc.Emit(ctx, tx, f.acme.TenantID, event(webhook.TypeDecisionRecorded, 4)); err != nil {
				return err
			}
			return rollback
		})
		if !errors.Is(err, rollback) {
			t.Fatalf("rollback: %v", err)
		}
		if n := db.Client.WebhookEvent.Query().CountX(f.sys); n != 2 {
			t.Fatalf("%d events stored, want 2 (the run's has no subscriber, the rolled back one never was)", n)
		}
		ds := f.deliveries(t)
		per := map[uuid.UUID]int{}
		for _, d := range ds {
			per[d.EventID]++
			if d.Status != webhookdelivery.StatusPENDING || d.Attempts != 0 || d.TenantID != f.acme.TenantID {
				t.Fatalf("delivery %+v", d)
			}
		}
		if len(ds) != 3 || per[status.ID] != 1 || per[decision.ID] != 2 {
			t.Fatalf("deliveries per event: %v (%d), want status 1, decision 2", per, len(ds))
		}

		if n := f.deliver(t, time.Now()); n != 3 {
			t.Fatalf("sent %d, want 3", n)
		}
		if n := f.deliver(t, time.Now().Add(time.Hour)); n != 0 {
			t.Fatalf("second pass sent %d", n)
		}
		got := f.rcv.requests()
		if len(got) != 3 {
			t.Fatalf("%d requests, want 3", len(got))
		}
		stored := map[string]string{}
		for _, e := range db.Client.WebhookEvent.Query().AllX(f.sys) {
			stored[e.ID.String()] = e.Payload
		}
		for _, r := range got {
			if string(r.body) != stored[r.id] || r.userAgent != webhook.UserAgent || r.contentType != "application/json" {
				t.Fatalf("request %+v, want the stored body of %s", r, r.id)
			}
			h := http.Header{}
			h.Set("webhook-id", r.id)
			h.Set("webhook-timestamp", r.timestamp)
			h.Set("webhook-signature", r.signature)
			wh, _ := standardwebhooks.NewWebhook(both.Secret)
			if r.id == status.ID.String() {
				if err := wh.Verify(r.body, h); err != nil {
					t.Fatalf("verify: %v", err)
				}
			}
		}
		var body struct {
			Type      string         `json:"type"`
			Timestamp time.Time      `json:"timestamp"`
			Data      map[string]int `json:"data"`
		}
		if err := json.Unmarshal([]byte(stored[status.ID.String()]), &body); err != nil || body.Type != webhook.TypeActivityStatusChanged ||
			!body.Timestamp.Equal(status.At) || body.Data["n"] != 1 {
			t.Fatalf("body %+v (%v)", body, err)
		}
		for _, d := range f.deliveries(t) {
			as := f.attempts(t, d.ID)
			if d.Status != webhookdelivery.StatusSUCCEEDED || d.Attempts != 1 || d.LastStatusCode == nil || *d.LastStatusCode != 200 ||
				d.LastError != nil || len(as) != 1 || as[0].Number != 1 || *as[0].StatusCode != 200 || as[0].Error != nil ||
				!strings.HasPrefix(as[0].ResponseBody, "answer ") {
				t.Fatalf("delivery %+v, attempts %+v", d, as)
			}
		}
	})
}

// TestRetriesWithBackoff: a receiver that fails three times gets the event
// a fourth time, each retry due after the backoff (30 s, 2 min, 8 min);
// every attempt is recorded; the webhook-id never changes.
func TestRetriesWithBackoff(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *dbtest.DB) {
		f := newFix(t, db)
		f.rcv.answer = func(n int) int {
			if n <= 3 {
				return http.StatusInternalServerError
			}
			return http.StatusOK
		}
		f.endpoint(t, webhook.TypeDecisionRecorded)
		f.emit(t, event(webhook.TypeDecisionRecorded, 1))
		waits := []time.Duration{30 * time.Second, 2 * time.Minute, 8 * time.Minute}
		at := time.Now()
		for i, wait := range waits {
			if n := f.deliver(t, at); n != 1 {
				t.Fatalf("attempt %d: sent %d", i+1, n)
			}
			d := f.deliveries(t)[0]
			if d.Status != webhookdelivery.StatusPENDING || d.Attempts != i+1 || *d.LastStatusCode != 500 ||
				*d.LastError != "the endpoint answered 500" || !d.NextAttemptAt.Equal(d.LastAttemptAt.Add(wait)) {
				t.Fatalf("after attempt %d: %+v, want the next one %v later", i+1, d, wait)
			}
			if n := f.deliver(t, d.NextAttemptAt.Add(-time.Millisecond)); n != 0 {
				t.Fatalf("attempt %d retried before its backoff", i+1)
			}
			at = d.NextAttemptAt
		}
		if n := f.deliver(t, at); n != 1 {
			t.Fatal("the fourth attempt was not made")
		}
		d := f.deliveries(t)[0]
		as := f.attempts(t, d.ID)
		var codes []int
		for _, a := range as {
			codes = append(codes, *a.StatusCode)
		}
		if d.Status != webhookdelivery.StatusSUCCEEDED || d.Attempts != 4 || d.LastError != nil || !slices.Equal(codes, []int{500, 500, 500, 200}) {
			t.Fatalf("delivery %+v, attempt codes %v", d, codes)
		}
		ids := map[string]bool{}
		for _, r := range f.rcv.requests() {
			ids[r.id] = true
		}
		if len(ids) != 1 {
			t.Fatalf("webhook-ids %v, want one", ids)
		}
	})
}

// TestFailureAndDisabling: a delivery that fails MaxAttempts times FAILS;
// an endpoint whose attempts keep failing is turned off, its deliveries
// wait, and turning it on again resumes them.
func TestFailureAndDisabling(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *dbtest.DB) {
		f := newFix(t, db)
		f.svc.MaxAttempts, f.svc.DisableAfterFailures, f.svc.DisableAfter = 2, 3, time.Minute
		down := true
		f.rcv.answer = func(int) int {
			if down {
				return http.StatusServiceUnavailable
			}
			return http.StatusOK
		}
		e := f.endpoint(t, webhook.TypeDecisionRecorded)
		f.emit(t, event(webhook.TypeDecisionRecorded, 1), event(webhook.TypeDecisionRecorded, 2))
		now := time.Now()
		f.deliver(t, now)                // two failures
		f.deliver(t, now.Add(time.Hour)) // the second attempts: both FAIL
		ep, _ := f.svc.GetEndpoint(f.admin, e.ID)
		if !ep.IsActive || ep.FailureCount != 4 || ep.FailingSince == nil {
			t.Fatalf("endpoint after 4 failures within a minute: %+v (stays on: the run is younger than DisableAfter)", ep)
		}
		for _, d := range f.deliveries(t) {
			if d.Status != webhookdelivery.StatusFAILED || d.Attempts != 2 || *d.LastError != "the endpoint answered 503" {
				t.Fatalf("delivery %+v", d)
			}
		}
		// A minute of failures: the next failure turns it off.
		f.svc.DisableAfter = 0
		f.emit(t, event(webhook.TypeDecisionRecorded, 3))
		f.deliver(t, time.Now())
		ep, _ = f.svc.GetEndpoint(f.admin, e.ID)
		if ep.IsActive || ep.DisabledAt == nil || *ep.DisabledReason != webhook.DisabledFailing || ep.FailureCount != 5 {
			t.Fatalf("endpoint %+v, want turned off", ep)
		}
		f.emit(t, event(webhook.TypeDecisionRecorded, 4)) // an inactive endpoint subscribes to nothing
		if n := f.deliver(t, time.Now().Add(24*time.Hour)); n != 0 {
			t.Fatalf("sent %d to a turned off endpoint", n)
		}
		down = false
		ep, err := f.svc.UpdateEndpoint(f.admin, e.ID, webhook.EndpointFields{IsActive: patch.Of(true)})
		dbtest.NoError(t, err)
		if !ep.IsActive || ep.DisabledAt != nil || ep.DisabledReason != nil || ep.FailureCount != 0 || ep.FailingSince != nil {
			t.Fatalf("re-enabled endpoint %+v", ep)
		}
		if n := f.deliver(t, time.Now().Add(24*time.Hour)); n != 1 {
			t.Fatalf("resumed %d deliveries, want the pending one", n)
		}
		if n := db.Client.WebhookEvent.Query().CountX(f.sys); n != 3 {
			t.Fatalf("%d events, want 3 (none for the turned off endpoint)", n)
		}
	})
}

// TestReplicasDeliverEachOnce: three replicas delivering one backlog at
// once send each delivery exactly once.
func TestReplicasDeliverEachOnce(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *dbtest.DB) {
		f := newFix(t, db)
		f.endpoint(t, webhook.TypeDecisionRecorded)
		var evs []webhook.Event
		for i := range 150 {
			evs = append(evs, event(webhook.TypeDecisionRecorded, i))
		}
		f.emit(t, evs...)
		allow, _ := outbound.ParseAllowlist(f.rcv.srv.Listener.Addr().String())
		var wg sync.WaitGroup
		errs := make([]error, 3)
		for i := range 3 {
			svc := webhook.New(db.Client, db.Dialect, key, allow)
			svc.Batch = 20
			wg.Add(1)
			go func() {
				defer wg.Done()
				for {
					n, err := svc.Deliver(context.Background(), time.Now())
					if err != nil || n == 0 {
						errs[i] = err
						return
					}
				}
			}()
		}
		wg.Wait()
		for _, err := range errs {
			dbtest.NoError(t, err)
		}
		seen := map[string]int{}
		for _, r := range f.rcv.requests() {
			seen[r.id]++
		}
		for _, e := range evs {
			if seen[e.ID.String()] != 1 {
				t.Fatalf("event %s sent %d times", e.ID, seen[e.ID.String()])
			}
		}
		if n := db.Client.WebhookAttempt.Query().CountX(f.sys); n != 150 {
			t.Fatalf("%d attempts, want 150", n)
		}
	})
}

// TestPingReplayAndRotation: a ping is sent at once and recorded (a failed
// one is not retried); a replay sends the same event again under the same
// webhook-id; after a rotation both secrets sign until the overlap ends.
func TestPingReplayAndRotation(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *dbtest.DB) {
		f := newFix(t, db)
		e := f.endpoint(t, webhook.TypeDecisionRecorded)
		p, err := f.svc.Ping(f.admin, e.ID)
		dbtest.NoError(t, err)
		if p.Status != webhookdelivery.StatusSUCCEEDED || p.EventType != webhook.TypePing || len(webhook.Attempts(p)) != 1 ||
			!strings.Contains(webhook.Payload(p), `"type":"webhook.ping"`) {
			t.Fatalf("ping %+v", p)
		}
		f.rcv.answer = func(int) int { return http.StatusGone }
		p, err = f.svc.Ping(f.admin, e.ID)
		dbtest.NoError(t, err)
		if p.Status != webhookdelivery.StatusFAILED || *p.LastError != "the endpoint answered 410" || len(webhook.Attempts(p)) != 1 {
			t.Fatalf("failed ping %+v", p)
		}
		if n := f.deliver(t, time.Now().Add(time.Hour)); n != 0 {
			t.Fatalf("a ping was retried (%d)", n)
		}
		if ep, _ := f.svc.GetEndpoint(f.admin, e.ID); ep.FailureCount != 0 {
			t.Fatal("a failed ping counted toward the run of failures")
		}

		f.rcv.answer = func(int) int { return http.StatusOK }
		f.emit(t, event(webhook.TypeDecisionRecorded, 1))
		f.deliver(t, time.Now())
		first := f.deliveries(t)[2]
		again, err := f.svc.Replay(f.admin, first.ID)
		dbtest.NoError(t, err)
		if again.ID == first.ID || again.EventID != first.EventID || *again.ReplayOf != first.ID || again.Status != webhookdelivery.StatusPENDING {
			t.Fatalf("replay %+v of %+v", again, first)
		}
		f.deliver(t, time.Now())
		got := f.rcv.requests()
		if len(got) != 4 || got[2].id != got[3].id || string(got[2].body) != string(got[3].body) {
			t.Fatalf("requests %+v", got)
		}

		rotated, err := f.svc.RotateSecret(f.admin, e.ID, webhook.RotateInput{OverlapMinutes: patch.Of(60)})
		dbtest.NoError(t, err)
		if rotated.Secret == e.Secret || rotated.PreviousSecretExpiresAt == nil {
			t.Fatalf("rotation %+v", rotated)
		}
		if _, err := f.svc.Replay(f.admin, first.ID); err != nil {
			t.Fatal(err)
		}
		f.deliver(t, time.Now())
		last := f.rcv.requests()[4]
		h := http.Header{}
		h.Set("webhook-id", last.id)
		h.Set("webhook-timestamp", last.timestamp)
		h.Set("webhook-signature", last.signature)
		for _, s := range []string{e.Secret, rotated.Secret} {
			wh, _ := standardwebhooks.NewWebhook(s)
			if err := wh.Verify(last.body, h); err != nil {
				t.Fatalf("verify with %s during the overlap: %v", s, err)
			}
		}
		if _, err := f.svc.RotateSecret(f.admin, e.ID, webhook.RotateInput{OverlapMinutes: patch.Of(0)}); err != nil {
			t.Fatal(err)
		}
		if _, err := f.svc.Replay(f.admin, first.ID); err != nil {
			t.Fatal(err)
		}
		f.deliver(t, time.Now())
		if sig := f.rcv.requests()[5].signature; strings.Contains(sig, " ") {
			t.Fatalf("signature %q after a rotation without overlap: want one", sig)
		}

		// Another tenant's delivery and endpoint are not found.
		beta := db.Tenant(t, "Beta").Admin()
		dbtest.ExpectError(t, func() error { _, err := f.svc.Replay(beta, first.ID); return err }(), 404, webhook.MsgDeliveryNotFound)
		dbtest.ExpectError(t, func() error { _, err := f.svc.Ping(beta, e.ID); return err }(), 404, webhook.MsgEndpointNotFound)
		_, err = f.svc.UpdateEndpoint(f.admin, e.ID, webhook.EndpointFields{IsActive: patch.Of(false)})
		dbtest.NoError(t, err)
		dbtest.ExpectError(t, func() error { _, err := f.svc.Replay(f.admin, first.ID); return err }(), 422, webhook.MsgReplayInactive)
	})
}

// TestLeaseRunsOut: a delivery whose replica died after claiming it is
// claimed again once the lease has run out, and sent under the same id.
func TestLeaseRunsOut(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *dbtest.DB) {
		f := newFix(t, db)
		f.endpoint(t, webhook.TypeDecisionRecorded)
		ev := event(webhook.TypeDecisionRecorded, 1)
		f.emit(t, ev)
		// A replica claims it and dies: its receiver never answers.
		hung := make(chan struct{})
		f.rcv.answer = func(int) int { <-hung; return http.StatusOK }
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() {
			defer close(done)
			_, _ = f.svc.Deliver(ctx, time.Now())
		}()
		for len(f.rcv.requests()) == 0 {
			time.Sleep(5 * time.Millisecond)
		}
		claimedAt := time.Now()
		d := f.deliveries(t)[0]
		if d.Status != webhookdelivery.StatusPENDING || d.NextAttemptAt.Before(claimedAt.Add(f.svc.Lease-time.Minute)) {
			t.Fatalf("claimed delivery %+v: its lease should hold it", d)
		}
		other := webhook.New(db.Client, db.Dialect, key, outbound.Allowlist{})
		if n, err := other.Deliver(context.Background(), time.Now()); err != nil || n != 0 {
			t.Fatalf("another replica took a leased delivery: %d, %v", n, err)
		}
		cancel()
		close(hung)
		<-done
		allow, _ := outbound.ParseAllowlist(f.rcv.srv.Listener.Addr().String())
		other = webhook.New(db.Client, db.Dialect, key, allow)
		if n, err := other.Deliver(context.Background(), d.NextAttemptAt.Add(time.Second)); err != nil || n != 1 {
			t.Fatalf("after the lease: %d, %v", n, err)
		}
		ids := map[string]bool{}
		for _, r := range f.rcv.requests() {
			ids[r.id] = true
		}
		if len(ids) != 1 || !ids[ev.ID.String()] {
			t.Fatalf("ids %v", ids)
		}
		if d := f.deliveries(t)[0]; d.Status != webhookdelivery.StatusSUCCEEDED {
			t.Fatalf("delivery %+v", d)
		}
	})
}

// TestEndpointRules: the URL and event type rules, each message exact; a
// private address is refused unless the deployment names it; a delivery to
// a name that resolves to a refused address is refused when it connects.
func TestEndpointRules(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *dbtest.DB) {
		f := newFix(t, db)
		create := func(url string, types ...string) error {
			_, err := f.svc.CreateEndpoint(f.admin, webhook.EndpointFields{URL: patch.Of(url), EventTypes: patch.Of(types)})
			return err
		}
		for _, c := range []struct {
			url   string
			types []string
			msgs  []string
		}{
			{"not a url", []string{webhook.TypeDecisionRecorded}, []string{webhook.MsgURL}},
			{"ftp://example.com/x", nil, []string{webhook.MsgURL, webhook.MsgEventTypesEmpty}},
			{"http://example.com/x", []string{"nope", webhook.TypeDecisionRecorded, webhook.TypeDecisionRecorded},
				[]string{webhook.MsgURLHTTPS, webhook.MsgEventType, webhook.MsgEventTypesUnique}},
			{"https://user:pw@example.com/x", []string{webhook.TypeDecisionRecorded}, []string{webhook.MsgURLCredentials}},
			{"https://10.1.2.3/x", []string{webhook.TypeDecisionRecorded}, []string{webhook.MsgURLPrivate}},
			{"http://169.254.169.254/latest", []string{webhook.TypeDecisionRecorded}, []string{webhook.MsgURLHTTPS, webhook.MsgURLPrivate}},
			{"https://[::1]:8443/", []string{webhook.TypeDecisionRecorded}, []string{webhook.MsgURLPrivate}},
			{"https://example.com/" + strings.Repeat("a", 2048), []string{webhook.TypeDecisionRecorded}, []string{webhook.MsgURLTooLong}},
		} {
			dbtest.ExpectError(t, create(c.url, c.types...), 400, c.msgs...)
		}
		_, err := f.svc.CreateEndpoint(f.admin, webhook.EndpointFields{})
		dbtest.ExpectError(t, err, 400, webhook.MsgURL, webhook.MsgEventTypesEmpty)
		_, err = f.svc.CreateEndpoint(f.admin, webhook.EndpointFields{URL: patch.Null[string](), EventTypes: patch.Of([]string{webhook.TypeDecisionRecorded}),
			Description: patch.Of(strings.Repeat("d", 501))})
		dbtest.ExpectError(t, err, 400, "url must not be null", webhook.MsgDescription)
		dbtest.NoError(t, create("https://hooks.example.com/reten", webhook.TypeDecisionRecorded))
		dbtest.NoError(t, create(f.rcv.srv.URL+"/allowed", webhook.TypeDecisionRecorded)) // http, loopback: named by the allowlist

		// By name: localhost is loopback, and the allowlist does not name port 1 of it.
		e, err := f.svc.CreateEndpoint(f.admin, webhook.EndpointFields{URL: patch.Of("https://localhost:1/x"),
			EventTypes: patch.Of([]string{webhook.TypeLifecycleRunFinished})})
		dbtest.NoError(t, err)
		f.emit(t, event(webhook.TypeLifecycleRunFinished, 1))
		f.deliver(t, time.Now())
		var ds []*ent.WebhookDelivery
		for _, d := range f.deliveries(t) {
			if d.EndpointID == e.ID {
				ds = append(ds, d)
			}
		}
		if len(ds) != 1 || ds[0].LastError == nil || !strings.Contains(*ds[0].LastError, "is not a public address") || ds[0].LastStatusCode != nil {
			t.Fatalf("delivery to localhost: %+v", ds)
		}
		dbtest.ExpectError(t, func() error {
			_, err := f.svc.RotateSecret(f.admin, e.ID, webhook.RotateInput{OverlapMinutes: patch.Of(-1)})
			return err
		}(), 400, webhook.MsgOverlapMin)
		dbtest.ExpectError(t, func() error {
			_, err := f.svc.RotateSecret(f.admin, e.ID, webhook.RotateInput{OverlapMinutes: patch.Of(10081)})
			return err
		}(), 400, webhook.MsgOverlapMax)
	})
}

// TestRetentionPurge: events older than the retention go, with their
// deliveries and attempts; newer ones stay.
func TestRetentionPurge(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *dbtest.DB) {
		f := newFix(t, db)
		f.endpoint(t, webhook.TypeDecisionRecorded)
		old, recent := event(webhook.TypeDecisionRecorded, 1), event(webhook.TypeDecisionRecorded, 2)
		old.At = time.Now().Add(-31 * 24 * time.Hour)
		recent.At = time.Now().Add(-29 * 24 * time.Hour)
		f.emit(t, old, recent)
		f.deliver(t, time.Now())
		n, err := f.svc.Purge(context.Background(), time.Now())
		dbtest.NoError(t, err)
		evs := db.Client.WebhookEvent.Query().IDsX(f.sys)
		var left []string
		for _, d := range f.deliveries(t) {
			left = append(left, d.EventID.String())
		}
		sort.Strings(left)
		if n != 1 || len(evs) != 1 || evs[0] != recent.ID || !slices.Equal(left, []string{recent.ID.String()}) ||
			db.Client.WebhookAttempt.Query().CountX(f.sys) != 1 {
			t.Fatalf("purged %d; events %v, deliveries of %v", n, evs, left)
		}
	})
}

// TestDeletedMidPass: an endpoint deleted while a pass sends its delivery
// takes the delivery with it; the pass still records the batch's other
// deliveries.
func TestDeletedMidPass(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *dbtest.DB) {
		f := newFix(t, db)
		a := f.endpoint(t, webhook.TypeDecisionRecorded)
		b, err := f.svc.CreateEndpoint(f.admin, webhook.EndpointFields{URL: patch.Of(f.rcv.srv.URL + "/b"),
			EventTypes: patch.Of([]string{webhook.TypeDecisionRecorded})})
		dbtest.NoError(t, err)
		f.emit(t, event(webhook.TypeDecisionRecorded, 1))
		f.rcv.answer = func(int) int {
			// Whichever request comes first, B is gone before either is recorded.
			_, _ = db.Client.WebhookEndpoint.Delete().Where(webhookendpoint.ID(b.ID)).Exec(f.sys)
			return http.StatusOK
		}
		if n := f.deliver(t, time.Now()); n != 2 {
			t.Fatalf("sent %d, want 2", n)
		}
		ds := f.deliveries(t)
		if len(ds) != 1 || ds[0].EndpointID != a.ID || ds[0].Status != webhookdelivery.StatusSUCCEEDED || len(f.attempts(t, ds[0].ID)) != 1 {
			t.Fatalf("deliveries after B's deletion: %+v", ds)
		}
	})
}

// TestPingsAreNeverClaimed: a ping's delivery is its request's alone: one
// left PENDING (its request ended before recording it) is never sent by
// the job.
func TestPingsAreNeverClaimed(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *dbtest.DB) {
		f := newFix(t, db)
		e := f.endpoint(t, webhook.TypeDecisionRecorded)
		now := time.Now().UTC()
		ev := db.Client.WebhookEvent.Create().SetID(webhook.NewID()).SetTenantID(f.acme.TenantID).SetType(webhook.TypePing).
			SetPayload(`{}`).SetCreatedAt(now).SaveX(f.sys)
		db.Client.WebhookDelivery.Create().SetTenantID(f.acme.TenantID).SetEndpointID(e.ID).SetEventID(ev.ID).SetEventType(webhook.TypePing).
			SetNextAttemptAt(now.Add(-time.Hour)).SetCreatedAt(now).SetUpdatedAt(now).ExecX(f.sys)
		if n := f.deliver(t, now.Add(time.Hour)); n != 0 || len(f.rcv.requests()) != 0 {
			t.Fatalf("the job sent a ping (%d)", n)
		}
	})
}
