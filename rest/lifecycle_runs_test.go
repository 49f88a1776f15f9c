package rest_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/ent/commerce"
	snap "github.com/reten-io/reten/ent/commercelifecyclesnapshot"
	tr "github.com/reten-io/reten/ent/commercelifecycletransition"
	"github.com/reten-io/reten/internal/apptest"
	"github.com/reten-io/reten/internal/demo"
	"github.com/reten-io/reten/internal/engine"
)

// runFix is an AGC on the demo dataset's transactions, with platform
// commerces for every dataset commerce but the first (an unknown identity)
// and one more that the dataset does not know.
type runFix struct {
	*agcFix
	agc       string
	dataset   *sql.DB
	prefix    string
	commerces map[string]uuid.UUID // by external id
}

// runFixNow is the reference time of the fixture's data.
var runFixNow = time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC)

func newRunFix(t *testing.T, env *apptest.Env, n int) *runFix {
	t.Helper()
	f := &runFix{agcFix: newAGCFix(t, env, "Acme"), commerces: map[string]uuid.UUID{}}
	f.onDemo = true
	// The data of a fixed year: the runs' instants are fixed too, so what
	// each classifies does not move with the day the tests run.
	f.dataset, f.prefix = apptest.DemoDataset(t, env, f.tenant.TenantID, demo.Options{Commerces: n, Products: 2, Events: 5, Transactions: 12 * n,
		Now: runFixNow})
	f.agc = f.create(t, "Lifecycle")["id"].(string)
	rows, err := f.dataset.Query("SELECT commerce_id FROM " + f.prefix + "commerces ORDER BY commerce_id")
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, id)
	}
	if err := rows.Close(); err != nil || len(ids) != n {
		t.Fatalf("%d dataset commerces: %v", len(ids), err)
	}
	for _, ext := range append(ids[1:], "NOT-IN-DATASET") {
		f.commerces[ext] = env.App.DB.Client.Commerce.Create().SetTenantID(f.tenant.TenantID).SetName(ext).SetExternalID(ext).SaveX(sys).ID
	}
	return f
}

// run starts a run and lets this replica's worker execute it.
func (f *runFix) run(t *testing.T, body map[string]any) map[string]any {
	t.Helper()
	res := f.env.Do("POST", "/api/activity-generation-configs/"+f.agc+"/lifecycle-runs", body, f.h)
	if res.Status != 202 {
		t.Fatalf("start: %d %s", res.Status, res.Body)
	}
	queued := res.Map(t)
	if queued["status"] != "QUEUED" || queued["startedAt"] != nil || queued["trigger"] != "MANUAL" {
		t.Fatalf("queued run: %v", queued)
	}
	if n, err := f.env.App.Runs.Work(context.Background(), time.Now()); err != nil || n != 1 {
		t.Fatalf("work: %d runs, %v", n, err)
	}
	res = f.env.Do("GET", fmt.Sprintf("/api/lifecycle-runs/%v", queued["id"]), nil, f.h)
	if res.Status != 200 {
		t.Fatalf("get run: %d %s", res.Status, res.Body)
	}
	run := res.Map(t)
	if run["status"] != "SUCCEEDED" || run["error"] != nil || run["finishedAt"] == nil || run["startedAt"] == nil {
		t.Fatalf("run: %v", run)
	}
	return run
}

// counts reads a run's counts as integers.
func counts(run map[string]any) map[string]int {
	out := map[string]int{}
	for k, v := range run["counts"].(map[string]any) {
		out[k] = int(v.(float64))
	}
	return out
}

// expected is the state the classification statement gives each known
// identity at asOf (executed directly on the dataset).
func (f *runFix) expected(t *testing.T, asOf string) map[string]string {
	t.Helper()
	res := f.env.Do("GET", "/api/activity-generation-configs/"+f.agc+"/lifecycle-sql?as_of="+asOf, nil, f.h)
	if res.Status != 200 {
		t.Fatalf("lifecycle-sql: %d %s", res.Status, res.Body)
	}
	var stmt struct {
		Query  string         `json:"query"`
		Params map[string]any `json:"params"`
	}
	res.JSON(t, &stmt)
	rows, err := f.dataset.Query(stmt.Query, stmt.Params["p0"])
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	cols, _ := rows.Columns()
	out := map[string]string{}
	for rows.Next() {
		var identity string
		var stage, code sql.NullString
		dest := []any{&identity, &stage, &code}
		for range cols[3:] {
			dest = append(dest, new(any))
		}
		if err := rows.Scan(dest...); err != nil {
			t.Fatal(err)
		}
		if _, ok := f.commerces[identity]; ok {
			out[identity] = stage.String + "/" + code.String
		}
	}
	return out
}

// TestLifecycleRuns: a run classifies the AGC's population at its instant
// and writes exactly what the classification statement says, through the
// guarded upsert, with one transition per change; the counts add up; a
// dry run writes nothing; re-running at the same instant writes no row; a
// later instant refreshes, an earlier one is stale; a commerce that left
// the population is reported and its snapshot kept.
func TestLifecycleRuns(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		f := newRunFix(t, env, 30)
		client := env.App.DB.Client
		t1, t2, t0 := "2026-11-01T10:00:00Z", "2026-11-08T10:00:00.5Z", "2026-10-01T00:00:00Z"
		want := f.expected(t, t1)
		classified := 0
		byState := map[string]int{}
		for _, st := range want {
			if st != "/" {
				classified++
				byState[st]++
			}
		}
		if len(want) != 29 || classified == 0 {
			t.Fatalf("fixture: %d known identities, %d classified", len(want), classified)
		}
		base := map[string]int{"evaluated": 29, "classified": classified, "unclassified": 29 - classified,
			"unknownIdentities": 1, "leftAudience": 0, "created": 0, "updated": 0, "unchanged": 0, "stale": 0}
		with := func(kv ...any) map[string]int {
			m := map[string]int{}
			for k, v := range base {
				m[k] = v
			}
			for i := 0; i < len(kv); i += 2 {
				m[kv[i].(string)] = kv[i+1].(int)
			}
			return m
		}
		expectCounts := func(what string, run map[string]any, want map[string]int) {
			t.Helper()
			if got := counts(run); fmt.Sprint(got) != fmt.Sprint(want) {
				t.Fatalf("%s counts:\n got %v\nwant %v", what, got, want)
			}
		}

		dry := f.run(t, map[string]any{"as_of": t1, "dry_run": true})
		expectCounts("dry run", dry, with("created", classified))
		if dry["dryRun"] != true || client.CommerceLifecycleSnapshot.Query().CountX(sys) != 0 || client.CommerceLifecycleTransition.Query().CountX(sys) != 0 {
			t.Fatalf("a dry run wrote: %v", dry)
		}

		first := f.run(t, map[string]any{"as_of": t1})
		expectCounts("first run", first, with("created", classified))
		got := map[string]int{}
		for _, s := range first["byState"].([]any) {
			s := s.(map[string]any)
			got[s["stage"].(string)+"/"+s["code"].(string)] = int(s["count"].(float64))
		}
		if fmt.Sprint(got) != fmt.Sprint(byState) {
			t.Fatalf("byState %v, want %v", got, byState)
		}
		hashes := f.get(t, f.agc)["configHashes"]
		if fmt.Sprint(first["configHashes"]) != fmt.Sprint(hashes) {
			t.Fatalf("configHashes %v, want the AGC's %v", first["configHashes"], hashes)
		}
		asOf1, _ := time.Parse(time.RFC3339, t1)
		for ext, st := range want {
			sn, err := client.CommerceLifecycleSnapshot.Query().Where(snap.CommerceID(f.commerces[ext])).Only(sys)
			switch {
			case st == "/" && err == nil:
				t.Fatalf("%s is unclassified but has a snapshot", ext)
			case st == "/":
			case err != nil:
				t.Fatalf("%s: %v", ext, err)
			case string(sn.Stage)+"/"+sn.Code != st || !sn.LastComputedAt.Equal(asOf1) || !sn.StateChangedAt.Equal(asOf1) || sn.Label != sn.Code:
				t.Fatalf("%s: snapshot %s/%s at %v, want %s at %v", ext, sn.Stage, sn.Code, sn.LastComputedAt, st, asOf1)
			}
		}
		runID := uuid.MustParse(first["id"].(string))
		if n := client.CommerceLifecycleTransition.Query().Where(tr.RunID(runID), tr.SourceEQ(tr.SourceENGINE), tr.FromStageIsNil()).CountX(sys); n != classified {
			t.Fatalf("%d creation transitions of the run, want %d", n, classified)
		}

		written := client.CommerceLifecycleSnapshot.Query().AllX(sys)
		again := f.run(t, map[string]any{"as_of": t1})
		expectCounts("same instant", again, with("unchanged", classified))
		for _, sn := range written {
			if now := client.CommerceLifecycleSnapshot.GetX(sys, sn.ID); !now.UpdatedAt.Equal(sn.UpdatedAt) {
				t.Fatalf("re-running at the same instant rewrote %s", *sn.ExternalID)
			}
		}
		expectCounts("earlier instant", f.run(t, map[string]any{"as_of": t0}), func() map[string]int {
			c := f.expectedCounts(t, t0)
			c["stale"] = c["classified"]
			return c
		}())

		// A commerce with a snapshot leaves the population (deleted: in the trash).
		var gone string
		for ext, st := range want {
			if st != "/" {
				gone = ext
				break
			}
		}
		if res := env.Do("DELETE", "/api/commerces/"+f.commerces[gone].String(), nil, f.h); res.Status != 200 && res.Status != 204 {
			t.Fatalf("delete commerce: %d %s", res.Status, res.Body)
		}
		later := f.run(t, map[string]any{"as_of": t2})
		c := counts(later)
		changes := client.CommerceLifecycleTransition.Query().Where(tr.RunID(uuid.MustParse(later["id"].(string)))).CountX(sys)
		if c["evaluated"] != 28 || c["unknownIdentities"] != 2 || c["leftAudience"] != 1 || c["stale"] != 0 || c["unchanged"] != 0 ||
			c["created"]+c["updated"] != c["classified"] || changes > c["classified"] {
			t.Fatalf("later instant: %v (%d transitions)", c, changes)
		}
		if sn := client.CommerceLifecycleSnapshot.Query().Where(snap.CommerceID(f.commerces[gone])).OnlyX(sys); !sn.LastComputedAt.Equal(asOf1) {
			t.Fatalf("the snapshot of a commerce that left was touched: %v", sn.LastComputedAt)
		}

		list := env.Do("GET", "/api/activity-generation-configs/"+f.agc+"/lifecycle-runs?per_page=2", nil, f.h)
		page := list.Map(t)
		data := page["data"].([]any)
		if list.Status != 200 || len(data) != 2 || data[0].(map[string]any)["id"] != later["id"] || obj(page, "meta")["total"].(float64) != 5 {
			t.Fatalf("list: %d %s", list.Status, list.Body)
		}
	})
}

// expectedCounts are the counts of a first run at asOf over the fixture.
func (f *runFix) expectedCounts(t *testing.T, asOf string) map[string]int {
	want := f.expected(t, asOf)
	classified := 0
	for _, st := range want {
		if st != "/" {
			classified++
		}
	}
	return map[string]int{"evaluated": len(want), "classified": classified, "unclassified": len(want) - classified,
		"unknownIdentities": 1, "leftAudience": 0, "created": 0, "updated": 0, "unchanged": 0, "stale": 0}
}

// TestLifecycleRunErrors: the start is checked like lifecycle-sql (400,
// 404 AGC, 404 dataset), runs are read in the caller's project only.
func TestLifecycleRunErrors(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		other := newAGCFix(t, env, "Other")
		noDataset := other.create(t, "No dataset")["id"]
		f := newRunFix(t, env, 3)
		path := func(id any) string { return fmt.Sprintf("/api/activity-generation-configs/%v/lifecycle-runs", id) }
		future := time.Now().Add(time.Hour).UTC().Format(time.RFC3339)
		apptest.ExpectError(t, env.Do("POST", path(f.agc), map[string]any{"dry_run": "yes"}, f.h), 400, []string{"dry_run must be a boolean value"})
		apptest.ExpectError(t, env.Do("POST", path(f.agc), map[string]any{"as_of": "yesterday"}, f.h), 400, []string{"as_of must be an RFC 3339 instant"})
		apptest.ExpectError(t, env.Do("POST", path(f.agc), map[string]any{"as_of": future}, f.h), 400, []string{"as_of must not be in the future"})
		apptest.ExpectError(t, env.Do("POST", path(f.agc), map[string]any{"asOf": future}, f.h), 400, []string{"property asOf should not exist"})
		missing := uuid.New()
		apptest.ExpectError(t, env.Do("POST", path(missing), nil, f.h), 404, fmt.Sprintf("Activity generation config %s not found", missing))
		apptest.ExpectError(t, env.Do("POST", path(noDataset), nil, other.h), 404, "Tenant dataset not configured")
		// Another tenant's AGC and run are not found.
		apptest.ExpectError(t, env.Do("POST", path(noDataset), nil, f.h), 404, fmt.Sprintf("Activity generation config %s not found", noDataset))
		run := env.Do("POST", path(f.agc), nil, f.h).Map(t)
		apptest.ExpectError(t, env.Do("GET", fmt.Sprintf("/api/lifecycle-runs/%v", run["id"]), nil, other.h), 404, "Lifecycle run not found")
		apptest.ExpectError(t, env.Do("GET", path(f.agc), nil, other.h), 404, fmt.Sprintf("Activity generation config %s not found", f.agc))
		if n := env.App.DB.Client.Commerce.Query().Where(commerce.TenantID(other.tenant.TenantID)).CountX(sys); n != 0 {
			t.Fatalf("other tenant: %d commerces", n)
		}
	})
}

// TestLifecycleRunClaimedOnce: replicas racing for one queued run claim it
// once; a run whose lease ran out is claimed again, and the replica that
// lost it cannot record it.
func TestLifecycleRunClaimedOnce(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		f := newRunFix(t, env, 3)
		res := env.Do("POST", "/api/activity-generation-configs/"+f.agc+"/lifecycle-runs", nil, f.h)
		if res.Status != 202 {
			t.Fatalf("start: %d %s", res.Status, res.Body)
		}
		replicas := make([]*engine.Runs, 8)
		for i := range replicas {
			replicas[i] = engine.NewRuns(env.App.DB.Client, env.App.Engine, env.App.Snapshots)
		}
		claims := make(chan *ent.LifecycleRun, len(replicas))
		var wg sync.WaitGroup
		now := time.Now()
		for _, r := range replicas {
			wg.Add(1)
			go func() {
				defer wg.Done()
				run, err := r.Claim(context.Background(), now)
				if err != nil {
					t.Error(err)
				}
				claims <- run
			}()
		}
		wg.Wait()
		close(claims)
		var won []*ent.LifecycleRun
		for run := range claims {
			if run != nil {
				won = append(won, run)
			}
		}
		if len(won) != 1 || won[0].Status != "RUNNING" || won[0].Attempts != 1 {
			t.Fatalf("%d replicas claimed the run: %v", len(won), won)
		}
		if again, err := replicas[0].Claim(context.Background(), now); err != nil || again != nil {
			t.Fatalf("a leased run was claimed again: %v %v", again, err)
		}
		// The lease runs out: another replica takes the run over.
		late := now.Add(replicas[0].Lease + time.Second)
		taken, err := replicas[1].Claim(context.Background(), late)
		if err != nil || taken == nil || taken.Attempts != 2 || *taken.Claim == *won[0].Claim {
			t.Fatalf("expired lease: %v %v", taken, err)
		}
		if _, err := replicas[2].Execute(context.Background(), won[0]); !errors.Is(err, engine.ErrLostClaim) {
			t.Fatalf("the replica that lost the claim: %v", err)
		}
		done, err := replicas[1].Execute(context.Background(), taken)
		if err != nil || done.Status != "SUCCEEDED" || done.Counts.Evaluated != 2 {
			t.Fatalf("the replica that holds the claim: %v %v", done, err)
		}

		// A run whose replicas keep stopping is failed at its third lost lease.
		res = env.Do("POST", "/api/activity-generation-configs/"+f.agc+"/lifecycle-runs", nil, f.h)
		id := uuid.MustParse(res.Map(t)["id"].(string))
		at := now
		for attempt := 1; attempt <= engine.MaxAttempts; attempt++ {
			at = at.Add(replicas[0].Lease + time.Second)
			run, err := replicas[attempt%len(replicas)].Claim(context.Background(), at)
			if err != nil || run == nil || run.ID != id || run.Attempts != attempt {
				t.Fatalf("attempt %d: %v %v", attempt, run, err)
			}
		}
		at = at.Add(replicas[0].Lease + time.Second)
		if run, err := replicas[0].Claim(context.Background(), at); err != nil || run != nil {
			t.Fatalf("an abandoned run was claimed again: %v %v", run, err)
		}
		res = env.Do("GET", "/api/lifecycle-runs/"+id.String(), nil, f.h)
		if got := res.Map(t); got["status"] != "FAILED" || got["error"] != engine.MsgRunAbandoned || got["finishedAt"] == nil {
			t.Fatalf("abandoned run: %s", res.Body)
		}
	})
}
