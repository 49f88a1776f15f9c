package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/google/uuid"
	standardwebhooks "github.com/standard-webhooks/standard-webhooks/libraries/go"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/ent/webhookattempt"
	"github.com/reten-io/reten/ent/webhookdelivery"
	"github.com/reten-io/reten/internal/app"
	"github.com/reten-io/reten/internal/apptest"
	"github.com/reten-io/reten/internal/clock"
	"github.com/reten-io/reten/internal/viewer"
	"github.com/reten-io/reten/internal/webhook"
)

// TestWebhookKillAndRestart kills `reten serve` (SIGKILL, no graceful
// shutdown) while a webhook delivery is in flight, starts it again on the
// same database, and checks that every event written is delivered, under
// the webhook-id it was written with (the killed attempt and its redelivery
// share it), with the stored body byte for byte and a signature the
// Standard Webhooks reference library verifies; no other event id appears.
// SQLite always, PostgreSQL when TEST_DATABASE_URL is set.
func TestWebhookKillAndRestart(t *testing.T) {
	t.Run("sqlite", func(t *testing.T) {
		killAndRestart(t, "sqlite://"+filepath.Join(t.TempDir(), "reten.db"))
	})
	if os.Getenv("TEST_DATABASE_URL") != "" {
		t.Run("postgres", func(t *testing.T) { killAndRestart(t, apptest.PostgresSchema(t)) })
	}
}

// The tasks of the test: killEarly created before the endpoint (their
// results give two events each: activity_result.recorded and the COMPLETED
// status change), killLate after it (three events each: their CREATED
// status change too).
const (
	killEarly = 3
	killLate  = 2
	// killEvents and killStatusEvents are the events written in all, and
	// those of them that are status changes.
	killEvents       = 2*killEarly + 3*killLate
	killStatusEvents = killEarly + 2*killLate
)

func killAndRestart(t *testing.T, dbURL string) {
	rcv := newHangingReceiver(t)
	env := append(os.Environ(), "RETEN_RUN_MAIN=1", "DATABASE_URL="+dbURL, "RETEN_ADDR=127.0.0.1:0",
		"RETEN_JWT_SECRET="+strings.Repeat("j", 32), "RETEN_LOG_LEVEL=warn",
		"RETEN_OUTBOUND_ALLOW="+rcv.srv.Listener.Addr().String())
	boot := bootstrapProcess(t, env, "Acme", "admin@acme.test", "secret-pw-1")

	first := startServe(t, env)
	api := &apiClient{t: t, base: first.url, client: &http.Client{Timeout: 30 * time.Second}}
	var login struct {
		AccessToken string `json:"accessToken"`
	}
	api.do("POST", "/api/auth/login", map[string]any{"identifier": "admin@acme.test", "password": "secret-pw-1"}, nil, http.StatusCreated, &login)
	th := map[string]string{"Authorization": "Bearer " + login.AccessToken, "x-tenant-id": boot.TenantID}
	h := map[string]string{"x-project-id": boot.ProjectID}
	for k, v := range th {
		h[k] = v
	}
	var shop struct {
		ID string `json:"id"`
	}
	api.do("POST", "/api/commerces", map[string]any{"name": "Shop", "external_id": "EXT-1"}, th, http.StatusCreated, &shop)
	task := func() string {
		var act struct {
			ID string `json:"id"`
		}
		api.do("POST", "/api/activities", map[string]any{"commerce_id": shop.ID, "type": "TASK", "channel": "SMS",
			"scheduled_at": "2030-05-01T10:00:00Z"}, h, http.StatusCreated, &act)
		return act.ID
	}
	submit := func(id string) {
		api.do("POST", "/api/activity-results/tasks", map[string]any{"activity_id": id, "occurred_at": "2030-05-01T12:00:00Z",
			"status": "COMPLETED", "task_result": map[string]any{"result": "success"}}, h, http.StatusCreated, nil)
	}
	// Tasks created before the endpoint exists write no event (nobody
	// subscribes yet).
	early := make([]string, killEarly)
	for i := range early {
		early[i] = task()
	}
	var ep struct {
		ID     string `json:"id"`
		Secret string `json:"secret"`
	}
	api.do("POST", "/api/webhook-endpoints", map[string]any{"url": rcv.srv.URL + "/reten",
		"event_types": []string{webhook.TypeActivityStatusChanged, webhook.TypeActivityResultRecorded}}, th, http.StatusCreated, &ep)
	// The first result writes two events in one transaction: the job's
	// first pass claims both, sends both at once; the receiver hangs on
	// the first to arrive and answers the other, which the killed process
	// never records. The pass stays blocked: what follows waits, due.
	for _, id := range early {
		submit(id)
	}
	for range killLate {
		submit(task())
	}
	select {
	case <-rcv.first:
	case <-time.After(20 * time.Second):
		t.Fatalf("no delivery reached the receiver within 20 s; server log:\n%s", first.log())
	}
	// The first pass's claim holds both events of the first result: wait
	// for the answered one too, so that the kill also loses the record of
	// a delivery the receiver has acknowledged.
	for deadline := time.Now().Add(5 * time.Second); len(rcv.requests()) < 2; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the first pass sent %d request(s), want the two events of the first result", len(rcv.requests()))
		}
	}
	// The outbound client gives up after outbound.CallTimeout (10 s) and
	// records a failed attempt: the kill must come before, for the
	// delivery to be in flight when the process dies.
	if waited := time.Since(rcv.firstAt()); waited > 8*time.Second {
		t.Fatalf("the first request has hung %v: too close to the call timeout to kill the process mid-delivery", waited)
	}
	first.kill(t)
	select {
	case <-rcv.firstGone: // the kernel closed the killed process's connection
	case <-time.After(10 * time.Second):
		t.Fatal("the hung request's connection outlived the process")
	}
	hungID := rcv.requests()[0].id
	rcv.setPhase(1)

	// Between the runs: what the killed process left. Every event is
	// written, each with one PENDING delivery and no attempt (the killed
	// pass died before recording anything); the deliveries its last pass
	// claimed are held by their lease, the others are due.
	db, err := app.OpenDB(dbURL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	sys := viewer.SystemContext(t.Context())
	events := map[string]*ent.WebhookEvent{}
	perType := map[string]int{}
	for _, e := range db.Client.WebhookEvent.Query().AllX(sys) {
		events[e.ID.String()] = e
		perType[e.Type]++
	}
	if len(events) != killEvents || perType[webhook.TypeActivityStatusChanged] != killStatusEvents ||
		perType[webhook.TypeActivityResultRecorded] != killEvents-killStatusEvents {
		t.Fatalf("events written: %v, want %d status changes and %d results", perType, killStatusEvents, killEvents-killStatusEvents)
	}
	if events[hungID] == nil {
		t.Fatalf("the hung request's webhook-id %s is not a written event", hungID)
	}
	now := time.Now()
	var leased, due []uuid.UUID
	deliveryOf := map[uuid.UUID]string{}
	for _, d := range db.Client.WebhookDelivery.Query().AllX(sys) {
		deliveryOf[d.ID] = d.EventID.String()
		if d.Status != webhookdelivery.StatusPENDING || d.Attempts != 0 || events[d.EventID.String()] == nil {
			t.Fatalf("delivery after the kill: %+v", d)
		}
		if d.NextAttemptAt.After(now) {
			if d.NextAttemptAt.Before(now.Add(time.Minute)) {
				t.Fatalf("claimed delivery %+v: its lease (2 min from the claim) should hold it longer", d)
			}
			leased = append(leased, d.ID)
		} else {
			due = append(due, d.ID)
		}
	}
	if len(deliveryOf) != len(events) {
		t.Fatalf("%d deliveries for %d events, want one each", len(deliveryOf), len(events))
	}
	if n := db.Client.WebhookAttempt.Query().CountX(sys); n != 0 {
		t.Fatalf("%d attempts recorded before the kill, want none", n)
	}
	leasedEvents := map[string]bool{}
	for _, id := range leased {
		leasedEvents[deliveryOf[id]] = true
	}
	t.Logf("after the kill: %d events, %d deliveries leased by the killed pass (the hung one among them), %d due", len(events), len(leased), len(due))
	if !leasedEvents[hungID] {
		t.Fatalf("the hung event %s is not among the leased deliveries %v", hungID, leased)
	}
	before := rcv.requests()
	for _, r := range before {
		if !leasedEvents[r.id] {
			t.Fatalf("request for %s before the kill, but its delivery was not claimed", r.id)
		}
	}
	if len(leased) < 2 || len(before) < 2 || before[1].id == hungID {
		t.Fatalf("before the kill: %d leased deliveries, requests %s; want the two events of the first result", len(leased), summary(before))
	}

	// Restart on the same database. The due deliveries go at once; the
	// leased ones wait for their lease (2 minutes, not configurable from
	// the environment).
	second := startServe(t, env)
	waitDeliveries(t, db, due, second)
	for _, d := range db.Client.WebhookDelivery.Query().Where(webhookdelivery.IDIn(leased...)).AllX(sys) {
		if d.Status != webhookdelivery.StatusPENDING || d.Attempts != 0 {
			t.Fatalf("leased delivery %+v was taken before its lease ran out", d)
		}
	}
	for _, r := range rcv.requests() {
		if r.phase == 1 && leasedEvents[r.id] {
			t.Fatalf("event %s redelivered before its lease ran out", r.id)
		}
	}
	// Simulate the lease running out rather than wait 2 minutes: move the
	// claimed deliveries' next_attempt_at, which the claim set to the end
	// of the lease, back to now, as the running replica would see it then.
	n, err := db.Client.WebhookDelivery.Update().Where(webhookdelivery.IDIn(leased...), webhookdelivery.StatusEQ(webhookdelivery.StatusPENDING)).
		SetNextAttemptAt(clock.Stored(time.Now().Add(-time.Second))).Save(sys)
	if err != nil || n != len(leased) {
		t.Fatalf("end the lease of %d deliveries: %d, %v", len(leased), n, err)
	}
	waitDeliveries(t, db, leased, second)

	// Every event went out, each exactly once since the restart, under
	// its written id, with its stored body and a valid signature.
	after := db.Client.WebhookEvent.Query().AllX(sys)
	if len(after) != len(events) {
		t.Fatalf("%d events after the restart, %d before", len(after), len(events))
	}
	for _, e := range after {
		if b := events[e.ID.String()]; b == nil || b.Payload != e.Payload || b.Type != e.Type {
			t.Fatalf("event %s changed across the restart", e.ID)
		}
	}
	for _, d := range db.Client.WebhookDelivery.Query().AllX(sys) {
		as := db.Client.WebhookAttempt.Query().Where(webhookattempt.DeliveryID(d.ID)).AllX(sys)
		if d.Status != webhookdelivery.StatusSUCCEEDED || d.Attempts != 1 || len(as) != 1 || as[0].StatusCode == nil || *as[0].StatusCode != 200 {
			t.Fatalf("delivery %+v, attempts %+v: want SUCCEEDED by one recorded attempt", d, as)
		}
	}
	wh, err := standardwebhooks.NewWebhook(ep.Secret)
	if err != nil {
		t.Fatal(err)
	}
	got := rcv.requests()
	sinceRestart := map[string]int{}
	var hung []hookRequest
	for _, r := range got {
		e := events[r.id]
		if e == nil {
			t.Fatalf("request with webhook-id %q: no such event was written", r.id)
		}
		if string(r.body) != e.Payload {
			t.Fatalf("request %s (phase %d): body\n%s\nwant the stored payload\n%s", r.id, r.phase, r.body, e.Payload)
		}
		var b struct {
			Type string `json:"type"`
		}
		if err := json.Unmarshal(r.body, &b); err != nil || b.Type != e.Type {
			t.Fatalf("request %s: type %q (%v), want %s", r.id, b.Type, err, e.Type)
		}
		hdr := http.Header{}
		hdr.Set("webhook-id", r.id)
		hdr.Set("webhook-timestamp", r.timestamp)
		hdr.Set("webhook-signature", r.signature)
		if err := wh.Verify(r.body, hdr); err != nil {
			t.Fatalf("request %s (phase %d): signature: %v", r.id, r.phase, err)
		}
		if r.phase == 1 {
			sinceRestart[r.id]++
		}
		if r.id == hungID {
			hung = append(hung, r)
		}
	}
	for id := range events {
		if sinceRestart[id] != 1 {
			t.Fatalf("event %s sent %d times since the restart, want once (requests %v)", id, sinceRestart[id], summary(got))
		}
	}
	if len(hung) != 2 || hung[0].phase != 0 || hung[1].phase != 1 || !bytes.Equal(hung[0].body, hung[1].body) {
		t.Fatalf("the hung event's requests: %v, want the killed attempt and one redelivery with the same body", summary(hung))
	}
	second.stop(t)
}

// waitDeliveries waits (at most 30 s) until the deliveries ids have all
// SUCCEEDED.
func waitDeliveries(t *testing.T, db *app.DB, ids []uuid.UUID, srv *serveProcess) {
	t.Helper()
	sys := viewer.SystemContext(t.Context())
	deadline := time.Now().Add(30 * time.Second)
	for {
		n, err := db.Client.WebhookDelivery.Query().Where(webhookdelivery.IDIn(ids...),
			webhookdelivery.StatusEQ(webhookdelivery.StatusSUCCEEDED)).Count(sys)
		if err != nil {
			t.Fatal(err)
		}
		if n == len(ids) {
			return
		}
		if time.Now().After(deadline) {
			ds := db.Client.WebhookDelivery.Query().Where(webhookdelivery.IDIn(ids...)).AllX(sys)
			t.Fatalf("after 30 s, %d of %d deliveries SUCCEEDED: %+v\nserver log:\n%s", n, len(ids), ds, srv.log())
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// hookRequest is one request the receiver got, in the phase it was in (0
// before the kill, 1 after).
type hookRequest struct {
	id, timestamp, signature string
	body                     []byte
	phase                    int
	at                       time.Time
}

func summary(rs []hookRequest) string {
	out := make([]string, len(rs))
	for i, r := range rs {
		out[i] = fmt.Sprintf("%s@%d", r.id, r.phase)
	}
	return strings.Join(out, " ")
}

// hangingReceiver is a loopback webhook receiver that records every
// request and never answers the first one (it returns when its client
// goes away, or when the test ends); it answers the others 200 at once.
type hangingReceiver struct {
	srv       *httptest.Server
	mu        sync.Mutex
	got       []hookRequest
	phase     int
	first     chan struct{} // closed when the first request arrives
	firstGone chan struct{} // closed when its handler returns
	release   chan struct{}
}

func newHangingReceiver(t *testing.T) *hangingReceiver {
	r := &hangingReceiver{first: make(chan struct{}), firstGone: make(chan struct{}), release: make(chan struct{})}
	r.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		b, _ := io.ReadAll(req.Body)
		r.mu.Lock()
		r.got = append(r.got, hookRequest{id: req.Header.Get("webhook-id"), timestamp: req.Header.Get("webhook-timestamp"),
			signature: req.Header.Get("webhook-signature"), body: b, phase: r.phase, at: time.Now()})
		n := len(r.got)
		r.mu.Unlock()
		if n == 1 {
			close(r.first)
			defer close(r.firstGone)
			select {
			case <-req.Context().Done():
				return
			case <-r.release:
			}
		}
		w.WriteHeader(http.StatusOK)
	}))
	// Cleanups run last first: the hung handler is released before Close
	// waits for it.
	t.Cleanup(r.srv.Close)
	t.Cleanup(func() { close(r.release) })
	return r
}

func (r *hangingReceiver) requests() []hookRequest {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.got)
}

func (r *hangingReceiver) firstAt() time.Time { return r.requests()[0].at }

func (r *hangingReceiver) setPhase(p int) {
	r.mu.Lock()
	r.phase = p
	r.mu.Unlock()
}

// bootstrapProcess runs `reten bootstrap` as a process of its own.
func bootstrapProcess(t *testing.T, env []string, tenant, email, password string) (ids struct {
	TenantID  string `json:"tenantId"`
	ProjectID string `json:"projectId"`
}) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "bootstrap", "--tenant", tenant, "--email", email, "--password", password)
	cmd.Env = env
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("reten bootstrap: %v\n%s", err, stderr.String())
	}
	if err := json.Unmarshal(out, &ids); err != nil || ids.TenantID == "" || ids.ProjectID == "" {
		t.Fatalf("reten bootstrap printed %q (%v)", out, err)
	}
	return ids
}

// serveProcess is a running `reten serve`: this test binary run as the
// command (TestMain, RETEN_RUN_MAIN).
type serveProcess struct {
	cmd    *exec.Cmd
	url    string // base URL, without the trailing slash
	out    *watchedOutput
	exited chan struct{}
}

var readyLine = regexp.MustCompile(`Reten is ready: (http://\S+?)/? `)

// startServe starts `reten serve` with env and waits (60 s at most) for the
// line that says where it listens; the process is killed when the test ends.
func startServe(t *testing.T, env []string) *serveProcess {
	t.Helper()
	out := &watchedOutput{ready: make(chan string, 1)}
	cmd := exec.Command(os.Args[0], "serve")
	cmd.Env, cmd.Stdout, cmd.Stderr = env, out, out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p := &serveProcess{cmd: cmd, out: out, exited: make(chan struct{})}
	go func() { _ = cmd.Wait(); close(p.exited) }()
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		<-p.exited
	})
	select {
	case p.url = <-out.ready:
	case <-p.exited:
		t.Fatalf("reten serve exited before listening:\n%s", out.String())
	case <-time.After(60 * time.Second):
		t.Fatalf("reten serve did not listen within 60 s:\n%s", out.String())
	}
	return p
}

// kill ends the process with SIGKILL: no shutdown, no deferred work.
func (p *serveProcess) kill(t *testing.T) {
	t.Helper()
	if err := p.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	<-p.exited
	if ws, ok := p.cmd.ProcessState.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() || ws.Signal() != syscall.SIGKILL {
		t.Fatalf("reten serve ended with %v, want killed by SIGKILL", p.cmd.ProcessState)
	}
}

// stop ends the process as an operator would (SIGTERM) and waits for it.
func (p *serveProcess) stop(t *testing.T) {
	t.Helper()
	if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case <-p.exited:
	case <-time.After(30 * time.Second):
		t.Fatalf("reten serve did not stop within 30 s of SIGTERM:\n%s", p.log())
	}
}

func (p *serveProcess) log() string { return p.out.String() }

// watchedOutput keeps a process's output and reports the base URL of its
// ready line.
type watchedOutput struct {
	mu    sync.Mutex
	buf   bytes.Buffer
	ready chan string
	seen  bool
}

func (w *watchedOutput) Write(b []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf.Write(b)
	if !w.seen {
		if m := readyLine.FindStringSubmatch(w.buf.String()); m != nil {
			w.seen = true
			w.ready <- m[1]
		}
	}
	return len(b), nil
}

func (w *watchedOutput) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.buf.String()
}

// apiClient calls the REST API of a running server.
type apiClient struct {
	t      *testing.T
	base   string
	client *http.Client
}

// do sends a JSON request and decodes the answer into out (when not nil),
// failing the test unless the status is want.
func (c *apiClient) do(method, path string, body any, h map[string]string, want int, out any) {
	c.t.Helper()
	raw, err := json.Marshal(body)
	if err != nil {
		c.t.Fatal(err)
	}
	req, err := http.NewRequest(method, c.base+path, bytes.NewReader(raw))
	if err != nil {
		c.t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	for k, v := range h {
		req.Header.Set(k, v)
	}
	res, err := c.client.Do(req)
	if err != nil {
		c.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	if res.StatusCode != want {
		c.t.Fatalf("%s %s: %d %s, want %d", method, path, res.StatusCode, b, want)
	}
	if out != nil {
		if err := json.Unmarshal(b, out); err != nil {
			c.t.Fatalf("%s %s: decode %s: %v", method, path, b, err)
		}
	}
}
