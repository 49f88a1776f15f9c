package activity_test

import (
	"slices"
	"testing"
	"time"

	"github.com/google/uuid"

	entact "github.com/reten-io/reten/ent/activity"
	"github.com/reten-io/reten/internal/activity"
	"github.com/reten-io/reten/internal/dbtest"
	"github.com/reten-io/reten/internal/paging"
)

// TestListNamesOnlyTheTenantsCommerces: a page of activities names each
// one's commerce from the tenant's live commerces only. An activity whose
// commerce id is another tenant's (which no write of the service lets
// through; stored here directly) lists that id without the other tenant's
// name, as one whose commerce is archived does.
func TestListNamesOnlyTheTenantsCommerces(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *dbtest.DB) {
		acme, other := db.Tenant(t, "Acme"), db.Tenant(t, "Other")
		own := db.Client.Commerce.Create().SetTenantID(acme.TenantID).SetName("Own shop").SaveX(sweepSys)
		gone := db.Client.Commerce.Create().SetTenantID(acme.TenantID).SetName("Gone shop").SetArchivedAt(time.Now()).SaveX(sweepSys)
		foreign := db.Client.Commerce.Create().SetTenantID(other.TenantID).SetName("Other's secret").SaveX(sweepSys)
		at := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
		for i, c := range []uuid.UUID{own.ID, gone.ID, foreign.ID} {
			db.Client.Activity.Create().SetTenantID(acme.TenantID).SetProjectID(acme.ProjectID).SetCommerceID(c).
				SetType(entact.TypeTASK).SetChannel(entact.ChannelSALESMAN).SetScheduledAt(at.Add(time.Duration(i) * time.Hour)).
				SaveX(sweepSys)
		}
		l, err := activity.NewService(db.Client, nil).List(acme.As(), activity.Filter{}, paging.Page{Page: 1, PerPage: 25})
		dbtest.NoError(t, err)
		var got []string
		for _, a := range l.Items {
			name := "-"
			if a.Edges.Commerce != nil {
				name = a.Edges.Commerce.Name
			}
			got = append(got, a.CommerceID.String()+" "+name)
		}
		want := []string{own.ID.String() + " Own shop", gone.ID.String() + " -", foreign.ID.String() + " -"}
		if !slices.Equal(got, want) || l.Total != 3 {
			t.Fatalf("listed %v (total %d), want %v (total 3)", got, l.Total, want)
		}
	})
}
