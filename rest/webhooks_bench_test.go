package rest_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/internal/app"
	"github.com/reten-io/reten/internal/apptest"
	"github.com/reten-io/reten/internal/dbtest"
	"github.com/reten-io/reten/internal/outbound"
	"github.com/reten-io/reten/internal/patch"
	"github.com/reten-io/reten/internal/txn"
	"github.com/reten-io/reten/internal/viewer"
	"github.com/reten-io/reten/internal/webhook"
)

// countingReceiver is a loopback webhook receiver that answers 200 at once
// and counts the requests per webhook-id.
type countingReceiver struct {
	srv *httptest.Server
	mu  sync.Mutex
	got map[string]int
}

func newCountingReceiver(b *testing.B) *countingReceiver {
	r := &countingReceiver{got: map[string]int{}}
	r.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		id := req.Header.Get("webhook-id")
		r.mu.Lock()
		r.got[id]++
		r.mu.Unlock()
		w.WriteHeader(http.StatusOK)
	}))
	b.Cleanup(r.srv.Close)
	return r
}

// take returns the counts so far and starts again from none.
func (r *countingReceiver) take() map[string]int {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := r.got
	r.got = map[string]int{}
	return out
}

// whBench is a tenant with one endpoint pointing to a local receiver and
// two delivery services over pools of their own, like two replicas.
type whBench struct {
	env       *apptest.Env
	tenantID  uuid.UUID
	projectID uuid.UUID
	rcv       *countingReceiver
	replicas  []*webhook.Service
	sys       context.Context
}

func newWhBench(b *testing.B) *whBench {
	b.Helper()
	env, _ := benchEnv(b)
	tn := env.Bootstrap("Bench")
	w := &whBench{env: env, tenantID: tn.TenantID, projectID: tn.ProjectID, rcv: newCountingReceiver(b),
		sys: viewer.SystemContext(context.Background())}
	allow, err := outbound.ParseAllowlist(w.rcv.srv.Listener.Addr().String())
	if err != nil {
		b.Fatal(err)
	}
	for range 2 {
		db, err := app.OpenDB(env.App.Config.DatabaseURL)
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { _ = db.Close() })
		// The production settings: Batch 100, Concurrency 16, Lease 2 min.
		w.replicas = append(w.replicas, webhook.New(db.Client, db.Dialect, env.App.Config.SecretsKey, allow))
	}
	admin := dbtest.Tenant{BootstrapResult: tn.BootstrapResult}.Admin()
	if _, err := w.replicas[0].CreateEndpoint(admin, webhook.EndpointFields{URL: patch.Of(w.rcv.srv.URL + "/hook"),
		EventTypes: patch.Of(webhook.EventTypes)}); err != nil {
		b.Fatal(err)
	}
	return w
}

func (w *whBench) exec(b *testing.B, query string, args ...any) {
	b.Helper()
	if _, err := w.env.App.DB.SQL.Exec(query, args...); err != nil {
		b.Fatalf("%s: %v", query, err)
	}
}

// queue records n activity.status_changed events of the tenant (1,000 per
// transaction, through Emit as the services do) and returns their ids;
// each gets one PENDING delivery to the endpoint, due at once.
func (w *whBench) queue(b *testing.B, n int) map[string]bool {
	b.Helper()
	ids := make(map[string]bool, n)
	ready := "READY"
	now := time.Now().UTC()
	evs := make([]webhook.Event, n)
	for i := range evs {
		evs[i] = webhook.Event{ID: webhook.NewID(), Type: webhook.TypeActivityStatusChanged, At: now, Data: webhook.StatusChanged{
			ActivityID: uuid.New(), ProjectID: w.projectID, CommerceID: uuid.New(), Type: "TASK", Channel: "SMS",
			StatusEventID: uuid.New(), EventType: "COMPLETED", FromStatus: &ready, ToStatus: "COMPLETED", OccurredAt: now,
			Detail: map[string]any{"resultStatus": "COMPLETED"}}}
		ids[evs[i].ID.String()] = true
	}
	for chunk := range slices.Chunk(evs, 1000) {
		if err := txn.Run(w.sys, w.env.App.DB.Client, func(ctx context.Context, tx *ent.Client) error {
			return w.replicas[0].Emit(ctx, tx, w.tenantID, chunk...)
		}); err != nil {
			b.Fatal(err)
		}
	}
	w.exec(b, "VACUUM ANALYZE webhook_events")
	w.exec(b, "VACUUM ANALYZE webhook_deliveries")
	return ids
}

// drain runs the delivery job on the replicas at once, each claiming and
// sending until its claim comes back empty, and returns the elapsed time.
func (w *whBench) drain(replicas []*webhook.Service) (time.Duration, error) {
	var wg sync.WaitGroup
	errs := make([]error, len(replicas))
	start := time.Now()
	for i, s := range replicas {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				n, err := s.Deliver(context.Background(), time.Now())
				if err != nil || n == 0 {
					errs[i] = err
					return
				}
			}
		}()
	}
	wg.Wait()
	return time.Since(start), errors.Join(errs...)
}

// verify asserts that the receiver got each queued event exactly once and
// that every delivery so far (total) SUCCEEDED by one recorded attempt.
func (w *whBench) verify(b *testing.B, queued map[string]bool, total int) {
	b.Helper()
	got := w.rcv.take()
	for id, n := range got {
		if !queued[id] || n != 1 {
			b.Fatalf("webhook-id %s received %d times (queued in this phase: %v)", id, n, queued[id])
		}
	}
	if len(got) != len(queued) {
		b.Fatalf("received %d events, queued %d", len(got), len(queued))
	}
	var succeeded, pending, attempts int
	if err := w.env.App.DB.SQL.QueryRow(`SELECT (SELECT count(*) FROM webhook_deliveries WHERE status = 'SUCCEEDED' AND attempts = 1),
		(SELECT count(*) FROM webhook_deliveries WHERE status <> 'SUCCEEDED'), (SELECT count(*) FROM webhook_attempts)`).
		Scan(&succeeded, &pending, &attempts); err != nil {
		b.Fatal(err)
	}
	if succeeded != total || pending != 0 || attempts != total {
		b.Fatalf("%d deliveries SUCCEEDED at the first attempt, %d not, %d attempts; want %d, 0, %d", succeeded, pending, attempts, total, total)
	}
}

// BenchmarkWebhookDelivery measures the delivery job: BENCH_WEBHOOK_EVENTS
// events (20,000) queued for one endpoint (a loopback receiver that
// answers 200 at once) are delivered by Service.Deliver called until its
// claim comes back empty (Batch 100, Concurrency 16, as in production),
// first by one replica, then (a new backlog of the same size) by two
// replicas at once over pools of their own; each phase is verified: every
// event received exactly once, every delivery SUCCEEDED by one recorded
// attempt. The figures are deliveries per second; no target is set.
func BenchmarkWebhookDelivery(b *testing.B) {
	n := benchSize("BENCH_WEBHOOK_EVENTS", 20_000)
	w := newWhBench(b)
	total := 0
	b.ResetTimer()
	for range b.N {
		rates := make([]float64, 2)
		for i, replicas := range [][]*webhook.Service{w.replicas[:1], w.replicas} {
			b.StopTimer()
			queued := w.queue(b, n)
			b.StartTimer()
			took, err := w.drain(replicas)
			if err != nil {
				b.Fatalf("%d replica(s): %v", len(replicas), err)
			}
			b.StopTimer()
			total += n
			w.verify(b, queued, total)
			rates[i] = float64(n) / took.Seconds()
			fmt.Printf("BenchmarkWebhookDelivery: %d events, %d replica(s): %.2fs, %.0f deliveries/s\n", n, len(replicas), took.Seconds(), rates[i])
			b.StartTimer()
		}
		fmt.Printf("BenchmarkWebhookDelivery: 1 replica %.0f/s | 2 replicas %.0f/s | 2/1 %.2f (no target)\n", rates[0], rates[1], rates[1]/rates[0])
		b.ReportMetric(rates[0], "deliveries/s")
		b.ReportMetric(rates[1], "2-replicas-deliveries/s")
	}
}

// BenchmarkResultSubmitWebhooks measures what the webhook outbox adds to a
// result submission: the submissions of BenchmarkResultSubmit (a READY
// task's first COMPLETED result through POST /api/activity-results/tasks,
// a real loopback HTTP server, BENCH_RESULT_WORKERS keep-alive clients (8))
// with webhooks off (the tenant has no endpoint: Emit's statement finds no
// subscriber and writes nothing) and on (an active endpoint subscribed to
// every event type: each submission also writes activity_result.recorded
// and activity.status_changed and a delivery of each, in its transaction).
// BENCH_WEBHOOK_RESULTS submissions per phase (5,000); BENCH_WEBHOOK_ROUNDS
// rounds (5) of an off and an on phase, in alternating order so that a
// drift (tables growing, other work on the machine) weighs on both; the
// figure is the median over the rounds of on/off, the ratio of the times
// per submission. Target, asserted: on/off <= 1.15.
//
// The delivery job does NOT run during the measurement: the benchmark
// measures the write path only. benchEnv wires the service without
// serving it, so no worker (webhook.Service.Run) is started and nothing
// calls Deliver; the endpoint's URL (.invalid) is never connected to, and
// each phase checks that no attempt was made.
func BenchmarkResultSubmitWebhooks(b *testing.B) {
	n := benchSize("BENCH_WEBHOOK_RESULTS", 5_000)
	rounds := benchSize("BENCH_WEBHOOK_ROUNDS", 5)
	workers := benchSize("BENCH_RESULT_WORKERS", 8)
	s := newResBench(b, n)
	srv := httptest.NewServer(s.env.App.Handler)
	defer srv.Close()
	p := newSubmitter(srv, workers, s.key)
	hooks := s.env.App.Webhooks
	var owner dbtest.Tenant // the bench tenant's super_admin, as a service context
	owner.TenantID, owner.ProjectID, owner.UserID = s.tenantID, s.projectID, s.ownerID
	admin := owner.Admin()
	counts := func() (events, deliveries, attempts int) {
		if err := s.db.QueryRow(`SELECT (SELECT count(*) FROM webhook_events), (SELECT count(*) FROM webhook_deliveries WHERE status = 'PENDING'),
			(SELECT count(*) FROM webhook_attempts)`).Scan(&events, &deliveries, &attempts); err != nil {
			b.Fatal(err)
		}
		return
	}
	done := 0 // results submitted so far, all phases
	// phase submits n first results with webhooks on or off and returns
	// the elapsed time, checking the results and the events written.
	phase := func(name string, on bool) time.Duration {
		b.Helper()
		b.StopTimer()
		var endpoint uuid.UUID
		if on {
			// Never connected to: the job does not run (see above).
			e, err := hooks.CreateEndpoint(admin, webhook.EndpointFields{URL: patch.Of("https://hooks.example.invalid/reten"),
				EventTypes: patch.Of(webhook.EventTypes)})
			if err != nil {
				b.Fatal(err)
			}
			endpoint = e.ID
		}
		ids := s.tasks(b, name, n)
		events, deliveries, _ := counts()
		b.StartTimer()
		took, err := concurrently(n, workers, func(i int) error { return p.submit(ids[i]) })
		b.StopTimer()
		if err != nil {
			b.Fatalf("%s: %v", name, err)
		}
		done += n
		s.verify(b, name, n, done)
		ev, del, att := counts()
		want := 0
		if on {
			want = 2 * n
		}
		if ev-events != want || del-deliveries != want || att != 0 {
			b.Fatalf("%s: %d events and %d PENDING deliveries written, %d attempts in all; want %d, %d and none",
				name, ev-events, del-deliveries, att, want, want)
		}
		if on {
			// Off again: the tenant has no endpoint (its deliveries go
			// with it; the events stay, as the retention would purge them).
			if err := hooks.DeleteEndpoint(admin, endpoint); err != nil {
				b.Fatal(err)
			}
		}
		b.StartTimer()
		return took
	}
	b.ResetTimer()
	for iter := range b.N {
		ratios := make([]float64, rounds)
		var offs, ons []time.Duration
		for r := range rounds {
			var off, on time.Duration
			if r%2 == 0 {
				off = phase(fmt.Sprintf("wh-off-%d-%d", iter, r), false)
				on = phase(fmt.Sprintf("wh-on-%d-%d", iter, r), true)
			} else {
				on = phase(fmt.Sprintf("wh-on-%d-%d", iter, r), true)
				off = phase(fmt.Sprintf("wh-off-%d-%d", iter, r), false)
			}
			ratios[r] = on.Seconds() / off.Seconds()
			offs, ons = append(offs, off), append(ons, on)
			fmt.Printf("BenchmarkResultSubmitWebhooks: round %d: off %.3fms/result (%.0f/s), on %.3fms/result (%.0f/s), on/off %.3f\n",
				r+1, ms(off)/float64(n), float64(n)/off.Seconds(), ms(on)/float64(n), float64(n)/on.Seconds(), ratios[r])
		}
		med := func(v []float64) float64 { v = slices.Clone(v); slices.Sort(v); return v[len(v)/2] }
		medD := func(d []time.Duration) time.Duration { d = slices.Clone(d); slices.Sort(d); return d[len(d)/2] }
		ratio := med(ratios)
		fmt.Printf("BenchmarkResultSubmitWebhooks: %d results x %d rounds, %d workers | off %.0f/s | on %.0f/s (medians) | on/off %.3f, median of the rounds (target <= 1.15)\n",
			n, rounds, workers, float64(n)/medD(offs).Seconds(), float64(n)/medD(ons).Seconds(), ratio)
		b.ReportMetric(float64(n)/medD(offs).Seconds(), "off-results/s")
		b.ReportMetric(float64(n)/medD(ons).Seconds(), "on-results/s")
		b.ReportMetric(ratio, "on/off")
		if ratio > 1.15 {
			b.Fatalf("webhooks on take %.3fx the time per submission of webhooks off (median of %d rounds %v), want <= 1.15", ratio, rounds, ratios)
		}
	}
}
