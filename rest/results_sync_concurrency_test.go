package rest_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"sync"
	"testing"
	"time"

	entres "github.com/reten-io/reten/ent/activityresult"
	"github.com/reten-io/reten/internal/apptest"
	"github.com/reten-io/reten/internal/result"
	"github.com/reten-io/reten/internal/viewer"
)

// writeWatermark tracks the writes in flight to drive the sync's clock
// without sleeping. The settle window exists because updated_at is taken
// before commit: a row may become visible with an updated_at older than rows
// already delivered. In production the window (result.SettleWindow) covers
// that gap by waiting; here the test knows the gap exactly. A write that
// has answered has committed, so every row with updated_at before the start
// of the oldest write still in flight (or before now, with none in flight)
// is visible and no later one can appear below it: the clock answers that
// instant plus SettleWindow, so the sync sees exactly the rows the window
// would let through once it has settled, without waiting it out.
type writeWatermark struct {
	mu       sync.Mutex
	next     int
	inFlight map[int]time.Time
	slowest  time.Duration // longest write, for the log
}

// begin registers a write before it is sent; end after its response.
func (w *writeWatermark) begin() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.next++
	w.inFlight[w.next] = time.Now()
	return w.next
}

func (w *writeWatermark) end(id int) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.slowest = max(w.slowest, time.Since(w.inFlight[id]))
	delete(w.inFlight, id)
}

// clock is the "now" of the sync (and of the day rules, which standalone
// results and comment updates do not use).
func (w *writeWatermark) clock() time.Time {
	w.mu.Lock()
	defer w.mu.Unlock()
	at := time.Now()
	for _, start := range w.inFlight {
		if start.Before(at) {
			at = start
		}
	}
	// updated_at is truncated to the microsecond: a write that starts at or
	// after `at` stamps its rows at trunc(at) or later, so the bound stays a
	// microsecond below that (and is exact in PostgreSQL, which keeps µs).
	return at.Truncate(time.Microsecond).Add(-time.Microsecond).Add(result.SettleWindow)
}

// syncFeed is an integrator polling the sync: it follows nextCursor and
// remembers every (id, updatedAt) it received, in order.
type syncFeed struct {
	cursor    string
	limit     int
	last      syncItem            // the latest delivered row
	delivered map[string]bool     // "id|updatedAt" pairs
	latest    map[string]syncItem // id -> its latest delivered version
	versions  map[string]int      // id -> number of versions delivered
	total     int
}

// walk polls until the feed has no more rows ready and returns how many it got.
func (f *syncFeed) walk(t *testing.T, env *apptest.Env, h apptest.Headers) int {
	t.Helper()
	got := 0
	for {
		q := fmt.Sprintf("?limit=%d", f.limit)
		if f.cursor != "" {
			q += "&since=" + f.cursor
		}
		b := syncGet(t, env, q, h)
		if b.HasMore && len(b.Data) != f.limit {
			t.Fatalf("hasMore with %d rows (limit %d)", len(b.Data), f.limit)
		}
		if (b.NextCursor == nil) != (len(b.Data) == 0) {
			t.Fatalf("nextCursor %v with %d rows", b.NextCursor, len(b.Data))
		}
		for _, d := range b.Data {
			key := d.ID + "|" + d.UpdatedAt.UTC().Format(time.RFC3339Nano)
			if f.delivered[key] {
				t.Fatalf("delivered twice: %s (after %d rows)", key, f.total)
			}
			// The feed is one ascending (updatedAt, id) sequence across pages and polls.
			if f.total > 0 {
				if c := d.UpdatedAt.Compare(f.last.UpdatedAt); c < 0 || c == 0 && d.ID <= f.last.ID {
					t.Fatalf("out of order: %s %s after %s %s", d.UpdatedAt.Format(time.RFC3339Nano), d.ID,
						f.last.UpdatedAt.Format(time.RFC3339Nano), f.last.ID)
				}
			}
			f.delivered[key], f.last, f.latest[d.ID] = true, d, d
			f.versions[d.ID]++
			f.total++
			got++
		}
		if b.NextCursor != nil {
			f.cursor = *b.NextCursor
		}
		if !b.HasMore {
			return got
		}
	}
}

// TestResultSyncUnderConcurrentWrites: writers submit standalone results and
// PATCH them while an integrator walks the sync with a small page; the feed
// misses no result, repeats no (id, updatedAt) pair, is ordered, and ends on
// every result's final version. Phase 1 creates results and updates some;
// once the poller has delivered all of them (the cursor is past them), phase
// 2 creates more and updates every phase-1 result, which must come back.
func TestResultSyncUnderConcurrentWrites(t *testing.T) {
	const (
		writers = 4
		phase1  = 8 // results per writer before the gate
		phase2  = 6 // results per writer after it
	)
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		f := newResFixture(t, env, "Acme")
		wm := &writeWatermark{inFlight: map[int]time.Time{}}
		env.App.Results.SetClock(wm.clock)
		t.Cleanup(func() { env.App.Results.SetClock(time.Now) })

		type stored struct {
			updatedAt time.Time
			phase     int
		}
		var (
			mu       sync.Mutex
			results  = map[string]*stored{} // what the writers know, by id
			gate     = make(chan struct{})  // closed when phase 1 is delivered
			abort    = make(chan struct{})  // closed when the test ends early
			p1, all  sync.WaitGroup
			p1Done   = make(chan struct{})
			allDone  = make(chan struct{})
			stamp    = func() string { return time.Now().UTC().Format(time.RFC3339Nano) }
			writeErr = func(w int, what string, res *apptest.Response, want int) bool {
				if res.Status != want {
					t.Errorf("writer %d %s: status %d, want %d; body %s", w, what, res.Status, want, res.Body)
					return true
				}
				return false
			}
		)
		// write sends one request between begin and end of the watermark.
		write := func(method, path string, body map[string]any) *apptest.Response {
			id := wm.begin()
			defer wm.end(id)
			return env.Do(method, path, body, f.h)
		}
		create := func(w, i, phase int) (string, bool) {
			res := write(http.MethodPost, resultsPath, map[string]any{"commerce_external_id": "EXT-Acme", "occurred_at": stamp(),
				"status": "PENDING", "task_result": map[string]any{"result": "success", "comment": fmt.Sprintf("w%d-%d", w, i)}})
			if writeErr(w, "create", res, http.StatusCreated) {
				return "", false
			}
			var out syncItem
			if err := json.Unmarshal(res.Body, &out); err != nil {
				t.Errorf("writer %d create: %v; body %s", w, err, res.Body)
				return "", false
			}
			mu.Lock()
			results[out.ID] = &stored{out.UpdatedAt, phase}
			mu.Unlock()
			return out.ID, true
		}
		// patch changes the comment: occurred_at (now) is after the stored
		// updatedAt, as only this writer writes this result.
		patch := func(w int, id, comment string) bool {
			res := write(http.MethodPatch, resultsPath+"/"+id, map[string]any{"occurred_at": stamp(),
				"task_result": map[string]any{"comment": comment}})
			if writeErr(w, "patch "+id, res, http.StatusOK) {
				return false
			}
			var out syncItem
			if err := json.Unmarshal(res.Body, &out); err != nil {
				t.Errorf("writer %d patch: %v; body %s", w, err, res.Body)
				return false
			}
			mu.Lock()
			results[id].updatedAt = out.UpdatedAt
			mu.Unlock()
			return true
		}
		p1.Add(writers)
		all.Add(writers)
		for w := range writers {
			go func() {
				defer all.Done()
				var mine []string
				// Phase 1: create; update the previous result, and the first one every third time.
				for i := range phase1 {
					id, ok := create(w, i, 1)
					if !ok {
						p1.Done()
						return
					}
					mine = append(mine, id)
					if i > 0 && (!patch(w, mine[i-1], fmt.Sprintf("p1-%d", i)) || i%3 == 0 && !patch(w, mine[0], fmt.Sprintf("p1-first-%d", i))) {
						p1.Done()
						return
					}
				}
				p1.Done()
				select {
				case <-gate:
				case <-abort:
					return
				}
				// Phase 2: create more, and update every phase-1 result behind the cursor.
				for i := range phase2 {
					if _, ok := create(w, phase1+i, 2); !ok {
						return
					}
				}
				for i, id := range mine {
					if !patch(w, id, fmt.Sprintf("p2-%d", i)) {
						return
					}
				}
			}()
		}
		go func() { p1.Wait(); close(p1Done) }()
		go func() { all.Wait(); close(allDone) }()
		defer func() { close(abort); all.Wait() }() // a failed poller stops the writers before cleanup

		feed := &syncFeed{limit: 3, delivered: map[string]bool{}, latest: map[string]syncItem{}, versions: map[string]int{}}
		deadline := time.Now().Add(time.Minute) // a hang guard, not a timing assertion
		polls, gated := 0, false
		for writing := true; writing; polls++ {
			select {
			case <-allDone:
				writing = false // one more walk: every write has answered
			default:
			}
			feed.walk(t, env, f.th)
			if !gated {
				select {
				case <-p1Done:
					mu.Lock()
					var missing []string
					for id, s := range results {
						if s.phase == 1 && !feed.latest[id].UpdatedAt.Equal(s.updatedAt) {
							missing = append(missing, id)
						}
					}
					mu.Unlock()
					if len(missing) == 0 {
						close(gate)
						gated = true
					} else if time.Now().After(deadline) {
						t.Fatalf("phase-1 results never delivered in their final version: %v", missing)
					}
				default:
				}
			}
			if t.Failed() {
				t.FailNow()
			}
			if time.Now().After(deadline) {
				t.Fatalf("writers did not finish (gate open: %v)", gated)
			}
		}
		if !gated || t.Failed() {
			t.Fatalf("writers ended before the gate (gate open: %v)", gated)
		}

		// Past the settle window of a clock an hour ahead, nothing is left to deliver.
		env.App.Results.SetClock(func() time.Time { return time.Now().Add(time.Hour + result.SettleWindow) })
		if n := feed.walk(t, env, f.th); n != 0 {
			t.Fatalf("final walk after the settle window delivered %d more rows", n)
		}

		rows := env.App.DB.Client.ActivityResult.Query().Where(entres.TenantID(f.ten.TenantID)).
			AllX(viewer.SystemContext(context.Background()))
		want := writers * (phase1 + phase2)
		if len(rows) != want || len(results) != want || len(feed.latest) != want {
			t.Fatalf("stored %d, written %d, delivered %d distinct results; want %d", len(rows), len(results), len(feed.latest), want)
		}
		for _, r := range rows {
			id := r.ID.String()
			got, ok := feed.latest[id]
			written, known := results[id]
			switch {
			case !known:
				t.Errorf("result %s stored but not written by the test", id)
			case !ok:
				t.Errorf("result %s never delivered", id)
			case !got.UpdatedAt.Equal(r.UpdatedAt):
				t.Errorf("result %s: last delivered updatedAt %s, stored %s", id, got.UpdatedAt.Format(time.RFC3339Nano),
					r.UpdatedAt.UTC().Format(time.RFC3339Nano))
			case !r.UpdatedAt.Equal(written.updatedAt):
				t.Errorf("result %s: stored updatedAt %s, last answered %s", id, r.UpdatedAt.UTC().Format(time.RFC3339Nano),
					written.updatedAt.Format(time.RFC3339Nano))
			case written.phase == 1 && feed.versions[id] < 2:
				// Delivered before the gate, updated after it: it came back.
				t.Errorf("phase-1 result %s delivered %d time(s), want its update after the gate too", id, feed.versions[id])
			case got.Source != result.SourceStandalone || got.ProjectID != f.ten.ProjectID.String():
				t.Errorf("result %s: %+v", id, got)
			}
		}
		t.Logf("%d results, %d versions delivered in %d polls; slowest write %v (the settle window is %v)",
			want, feed.total, polls, wm.slowest, result.SettleWindow)
	})
}
