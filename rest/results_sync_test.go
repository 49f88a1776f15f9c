package rest_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	entres "github.com/reten-io/reten/ent/activityresult"
	"github.com/reten-io/reten/internal/apptest"
	"github.com/reten-io/reten/internal/auth"
	"github.com/reten-io/reten/internal/result"
	"github.com/reten-io/reten/internal/viewer"
)

const syncPath = "/api/activity-results/tasks/sync"

// syncBase is the updated_at of the first stored result of the sync tests.
var syncBase = time.Date(2024, 3, 1, 10, 0, 0, 0, time.UTC)

type syncItem struct {
	ID        string    `json:"id"`
	ProjectID string    `json:"projectId"`
	Source    string    `json:"source"`
	UpdatedAt time.Time `json:"updatedAt"`
}

type syncBody struct {
	Data       []syncItem `json:"data"`
	NextCursor *string    `json:"nextCursor"`
	HasMore    bool       `json:"hasMore"`
}

func syncGet(t *testing.T, env *apptest.Env, query string, h apptest.Headers) syncBody {
	t.Helper()
	res := env.Do("GET", syncPath+query, nil, h)
	if res.Status != 200 {
		t.Fatalf("sync%s: status %d; body %s", query, res.Status, res.Body)
	}
	var b syncBody
	if err := json.Unmarshal([]byte(res.Body), &b); err != nil {
		t.Fatalf("sync body: %v; %s", err, res.Body)
	}
	return b
}

// syncResult stores a STANDALONE result of project pid updated at `at`.
func syncResult(env *apptest.Env, tenantID, pid uuid.UUID, at time.Time) uuid.UUID {
	r := env.App.DB.Client.ActivityResult.Create().SetTenantID(tenantID).SetProjectID(pid).
		SetSource(entres.SourceSTANDALONE).SetCommerceExternalID("C").SetResultStatus(entres.ResultStatusPENDING).
		SetOccurredAt(at).SetResultCode("success").SetUpdatedAt(at.UTC()).SaveX(viewer.SystemContext(context.Background()))
	return r.ID
}

// syncWalk polls from cursor with limit until no rows are left and returns the ids seen.
func syncWalk(t *testing.T, env *apptest.Env, cursor *string, limit string, h apptest.Headers) []string {
	t.Helper()
	var ids []string
	for range 100 {
		q := "?limit=" + limit
		if *cursor != "" {
			q += "&since=" + *cursor
		}
		b := syncGet(t, env, q, h)
		for _, d := range b.Data {
			ids = append(ids, d.ID)
		}
		if b.NextCursor == nil {
			if len(b.Data) != 0 || b.HasMore {
				t.Fatalf("null cursor with rows: %+v", b)
			}
			return ids
		}
		*cursor = *b.NextCursor
	}
	t.Fatal("sync walk did not end")
	return nil
}

func TestResultSyncWalkUpdatesAndSettle(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		f := newResFixture(t, env, "Acme")
		p2 := uuid.MustParse(actOK(t, env.Do("POST", "/api/projects", map[string]any{"name": "Second"}, f.th), 201)["id"].(string))
		beta := env.Bootstrap("Beta")
		betaID := syncResult(env, beta.TenantID, beta.ProjectID, syncBase.Add(time.Second))
		env.App.Results.SetClock(func() time.Time { return syncBase.Add(time.Hour) })

		type row struct {
			at time.Time
			id string
		}
		var rows []row
		for i := range 7 {
			pid := f.ten.ProjectID
			if i%2 == 1 {
				pid = p2
			}
			at := syncBase.Add(time.Duration(i/2) * time.Second) // pairs share updated_at: id breaks the tie
			rows = append(rows, row{at, syncResult(env, f.ten.TenantID, pid, at).String()})
		}
		slices.SortFunc(rows, func(a, b row) int {
			if c := a.at.Compare(b.at); c != 0 {
				return c
			}
			return strings.Compare(a.id, b.id)
		})
		var want []string
		for _, r := range rows {
			want = append(want, r.id)
		}

		// Both projects, in order, each once; x-project-id is ignored.
		for _, h := range []apptest.Headers{f.th, f.h} {
			cursor := ""
			if got := syncWalk(t, env, &cursor, "2", h); !slices.Equal(got, want) {
				t.Fatalf("walk = %v, want %v", got, want)
			}
		}
		first := syncGet(t, env, "?limit=3", f.th)
		if len(first.Data) != 3 || !first.HasMore || first.Data[0].ProjectID == first.Data[1].ProjectID || first.Data[0].Source != "STANDALONE" {
			t.Fatalf("first page: %+v", first)
		}
		all := syncGet(t, env, "", f.th)
		if len(all.Data) != 7 || all.HasMore || slices.ContainsFunc(all.Data, func(d syncItem) bool { return d.ID == betaID.String() }) {
			t.Fatalf("default page: %+v", all)
		}

		// An update moves a result behind the cursor: it reappears once, after the window.
		cursor := *all.NextCursor
		updatedAt := syncBase.Add(time.Minute)
		env.App.DB.Client.ActivityResult.UpdateOneID(uuid.MustParse(want[1])).SetResultStatus(entres.ResultStatusCOMPLETED).
			SetUpdatedAt(updatedAt.UTC()).ExecX(viewer.SystemContext(context.Background()))
		env.App.Results.SetClock(func() time.Time { return updatedAt.Add(result.SettleWindow - time.Millisecond) })
		if b := syncGet(t, env, "?since="+cursor, f.th); len(b.Data) != 0 || b.NextCursor != nil || b.HasMore {
			t.Fatalf("inside the settle window: %+v", b)
		}
		env.App.Results.SetClock(func() time.Time { return updatedAt.Add(result.SettleWindow) })
		if got := syncWalk(t, env, &cursor, "5", f.th); !slices.Equal(got, []string{want[1]}) {
			t.Fatalf("after update = %v, want [%s]", got, want[1])
		}
		if got := syncWalk(t, env, &cursor, "5", f.th); len(got) != 0 {
			t.Fatalf("repeated: %v", got)
		}

		// The other tenant sees only its own result.
		bh := apptest.JWT(env.Login(beta.Email), beta.TenantID, uuid.Nil)
		cursor = ""
		if got := syncWalk(t, env, &cursor, "1000", bh); !slices.Equal(got, []string{betaID.String()}) {
			t.Fatalf("beta walk = %v", got)
		}
	})
}

func TestResultSyncErrors(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		f := newResFixture(t, env, "Acme")
		for q, msg := range map[string]string{
			"?limit=1001": result.MsgSyncLimitMax, "?limit=0": result.MsgSyncLimitMin, "?limit=-3": result.MsgSyncLimitMin,
			"?limit=abc": result.MsgSyncLimitInteger, "?limit=1.5": result.MsgSyncLimitInteger,
			"?since=%25%25": result.MsgSyncCursor, "?since=" + base64.RawURLEncoding.EncodeToString([]byte("x|y")): result.MsgSyncCursor,
			"?since=" + base64.RawURLEncoding.EncodeToString([]byte("2024-01-01T00:00:00Z|nope")): result.MsgSyncCursor,
			"?since=" + base64.RawURLEncoding.EncodeToString([]byte("2024-01-01T00:00:00Z")):      result.MsgSyncCursor,
		} {
			apptest.ExpectError(t, env.Do("GET", syncPath+q, nil, f.th), 400, []string{msg})
		}
		if b := syncGet(t, env, "?limit=1000", f.th); len(b.Data) != 0 || b.NextCursor != nil || b.HasMore {
			t.Fatalf("empty tenant: %+v", b)
		}
		key, _ := env.CreateKey(f.ten.TenantID, f.ten.UserID, uuid.Nil, auth.PermActivityResultSubmit)
		apptest.ExpectError(t, env.Do("GET", syncPath, nil, apptest.Key(key)), 403, "Required permissions: activity-result:view")
	})
}

// TestResultSyncGraphQL: activityResultsSync walks the same feed as the REST
// route (both projects whatever x-project-id says, the same cursor and rules).
func TestResultSyncGraphQL(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		f := newResFixture(t, env, "Acme")
		p2 := uuid.MustParse(actOK(t, env.Do("POST", "/api/projects", map[string]any{"name": "Second"}, f.th), 201)["id"].(string))
		env.App.Results.SetClock(func() time.Time { return syncBase.Add(time.Hour) })
		want := []string{
			syncResult(env, f.ten.TenantID, f.ten.ProjectID, syncBase).String(),
			syncResult(env, f.ten.TenantID, p2, syncBase.Add(time.Second)).String(),
			syncResult(env, f.ten.TenantID, f.ten.ProjectID, syncBase.Add(2*time.Second)).String(),
		}
		type page struct {
			Data struct {
				Sync *struct {
					Results    []struct{ ID, ProjectID string }
					NextCursor *string
					HasMore    bool
				} `json:"activityResultsSync"`
			} `json:"data"`
			Errors []struct {
				Message    string
				Extensions map[string]any
			} `json:"errors"`
		}
		const q = `query($since: String, $limit: Int) { activityResultsSync(since: $since, limit: $limit) {
			results { id projectID } nextCursor hasMore } }`
		var got []string
		var cursor any
		for range 5 {
			var p page
			env.GraphQL(q, map[string]any{"since": cursor, "limit": 2}, f.h).JSON(t, &p)
			if p.Data.Sync == nil {
				t.Fatalf("sync: %+v", p)
			}
			for _, r := range p.Data.Sync.Results {
				got = append(got, r.ID)
			}
			if p.Data.Sync.NextCursor == nil {
				break
			}
			// The GraphQL cursor is the REST one.
			if rest := syncGet(t, env, "?limit=2&since="+*p.Data.Sync.NextCursor, f.th); p.Data.Sync.HasMore != (len(rest.Data) > 0) {
				t.Fatalf("hasMore %v, REST after the cursor %+v", p.Data.Sync.HasMore, rest)
			}
			cursor = *p.Data.Sync.NextCursor
		}
		if !slices.Equal(got, want) {
			t.Fatalf("walk = %v, want %v", got, want)
		}
		for limit, msg := range map[int]string{0: result.MsgSyncLimitMin, 1001: result.MsgSyncLimitMax} {
			var p page
			env.GraphQL(q, map[string]any{"limit": limit}, f.th).JSON(t, &p)
			if len(p.Errors) != 1 || p.Errors[0].Message != msg || p.Errors[0].Extensions["statusCode"] != float64(400) {
				t.Fatalf("limit %d: %+v", limit, p)
			}
		}
		var bad page
		env.GraphQL(q, map[string]any{"since": "%%"}, f.th).JSON(t, &bad)
		if len(bad.Errors) != 1 || bad.Errors[0].Message != result.MsgSyncCursor {
			t.Fatalf("bad cursor: %+v", bad)
		}
	})
}
