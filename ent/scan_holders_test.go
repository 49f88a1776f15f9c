package ent_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/ent/activity"
	"github.com/reten-io/reten/internal/apptest"
	"github.com/reten-io/reten/internal/viewer"
)

// A query scans its rows into one set of holders (template/scan_holders.tmpl):
// each node keeps its own values, and a NULL or empty column after a row
// that had a value reads as it does in a query of that row alone.
func TestScanHoldersPerRow(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		tn := env.Bootstrap("Holders")
		sys, c := viewer.SystemContext(context.Background()), env.App.DB.Client
		shop := c.Commerce.Create().SetTenantID(tn.TenantID).SetName("Shop").SaveX(sys)
		when := time.Date(2026, 5, 6, 7, 8, 9, 0, time.UTC)
		by := uuid.New()
		create := func(id string) *ent.ActivityCreate {
			return c.Activity.Create().SetID(uuid.MustParse(id)).SetTenantID(tn.TenantID).SetProjectID(tn.ProjectID).
				SetCommerceID(shop.ID).SetType("TASK").SetChannel("SMS").SetStatus("READY").SetScheduledAt(when)
		}
		// Ordered by id: a row with every optional column set between two
		// rows with none, so each value is scanned over another's.
		create("00000000-0000-4000-8000-000000000001").SaveX(sys)
		create("00000000-0000-4000-8000-000000000002").SetTitle("Visit").SetProviderActivityID("p-2").
			SetClosedAt(when).SetCreatedBy(by).SaveX(sys)
		create("00000000-0000-4000-8000-000000000003").SaveX(sys)
		got := c.Activity.Query().Order(activity.ByID()).AllX(sys)
		if len(got) != 3 {
			t.Fatalf("%d activities, want 3", len(got))
		}
		for i, a := range []*ent.Activity{got[0], got[2]} {
			if a.Title != "" || a.ProviderActivityID != nil || a.ClosedAt != nil || a.CreatedBy != nil {
				t.Errorf("activity %d: title %q, provider id %v, closed %v, created by %v; want all empty", 2*i+1, a.Title, a.ProviderActivityID, a.ClosedAt, a.CreatedBy)
			}
		}
		b := got[1]
		if b.Title != "Visit" || b.ProviderActivityID == nil || *b.ProviderActivityID != "p-2" || b.ClosedAt == nil || !b.ClosedAt.Equal(when) ||
			b.CreatedBy == nil || *b.CreatedBy != by || !b.ScheduledAt.Equal(when) {
			t.Errorf("activity 2: %+v", b)
		}
		if got[0].ID == b.ID || b.ID == got[2].ID {
			t.Errorf("ids %v %v %v, want three", got[0].ID, b.ID, got[2].ID)
		}

		// JSON columns: each node decodes its own bytes.
		first := c.ActivityStatusEvent.Create().SetTenantID(tn.TenantID).SetProjectID(tn.ProjectID).SetActivityID(got[0].ID).SetEventType("CREATED").SetToStatus("READY").
			SetDetail(map[string]any{"n": 1.0}).SaveX(sys)
		c.ActivityStatusEvent.Create().SetTenantID(tn.TenantID).SetProjectID(tn.ProjectID).SetActivityID(got[1].ID).SetEventType("CREATED").SetToStatus("READY").SaveX(sys)
		events := c.ActivityStatusEvent.Query().AllX(sys)
		details := map[bool]string{}
		for _, e := range events {
			d, _ := json.Marshal(e.Detail)
			details[e.ID == first.ID] = string(d)
		}
		if len(events) != 2 || details[true] != `{"n":1}` || details[false] != "null" {
			t.Errorf("details %v, want {\"n\":1} for the first event and null for the other", details)
		}
	})
}
