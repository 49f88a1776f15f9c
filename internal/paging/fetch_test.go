package paging_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/ent/commerce"
	"github.com/reten-io/reten/internal/dbtest"
	"github.com/reten-io/reten/internal/paging"
	"github.com/reten-io/reten/internal/txn"
	"github.com/reten-io/reten/internal/viewer"
)

// seedCommerces writes commerces to two tenants with many ties on name,
// archives some of acme's (interleaved with the live ones) and returns a
// context acting as acme.
func seedCommerces(t *testing.T, db *dbtest.DB) context.Context {
	t.Helper()
	acme, other := db.Tenant(t, "Acme"), db.Tenant(t, "Other")
	sys := viewer.SystemContext(context.Background())
	names := []string{"beta", "alpha", "gamma", "alpha", "beta"}
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range 29 {
		c := db.Client.Commerce.Create().SetTenantID(acme.TenantID).SetName(names[i%len(names)]).SetIsActive(i%3 != 0)
		if i%4 == 1 {
			c.SetArchivedAt(at)
		}
		c.SaveX(sys)
	}
	for range 11 {
		db.Client.Commerce.Create().SetTenantID(other.TenantID).SetName("alpha").SaveX(sys)
	}
	return acme.As()
}

func ids(cs []*ent.Commerce) []uuid.UUID {
	out := make([]uuid.UUID, len(cs))
	for i, c := range cs {
		out[i] = c.ID
	}
	return out
}

// TestFetchPagesAsOffset pages through a list in both orders with several
// page sizes, past the end too: every page holds the rows a plain ORDER BY
// ... OFFSET ... LIMIT gives, ties in the same order, and the total is
// exact, whether the total comes with the page or, for a later page on a
// quiet pool, beside it. The query names no tenant and no archive filter:
// the data layer adds them, so the offset row must be found with them as
// well (another tenant's and archived rows sort among acme's live ones).
func TestFetchPagesAsOffset(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *dbtest.DB) {
		ctx := seedCommerces(t, db)
		ways := map[string]context.Context{
			"total in the page's statement":   ctx,
			"later pages counted beside them": paging.WithPool(ctx, db.SQL, db.Pages),
		}
		orders := map[string]struct {
			sort paging.Sort
			ref  []commerce.OrderOption
		}{
			"asc":  {paging.Asc(commerce.FieldName, commerce.FieldID), []commerce.OrderOption{commerce.ByName(), commerce.ByID()}},
			"desc": {paging.Desc(commerce.FieldName, commerce.FieldID), []commerce.OrderOption{ent.Desc(commerce.FieldName), ent.Desc(commerce.FieldID)}},
		}
		filters := map[string][]func(*ent.CommerceQuery){
			"all":    nil,
			"active": {func(q *ent.CommerceQuery) { q.Where(commerce.IsActive(true)) }},
		}
		for oname, o := range orders {
			for fname, fs := range filters {
				query := func() *ent.CommerceQuery {
					q := db.Client.Commerce.Query()
					for _, f := range fs {
						f(q)
					}
					return q
				}
				want, err := query().Order(o.ref...).All(ctx)
				dbtest.NoError(t, err)
				if len(want) == 0 {
					t.Fatalf("%s: no rows to page through", fname)
				}
				for _, per := range []int{1, 4, 7, 100} {
					for page := 1; page <= (len(want)+per-1)/per+1; page++ {
						p := paging.Page{Page: page, PerPage: per}
						end := min(p.Offset()+per, len(want))
						wantIDs := ids(want[min(p.Offset(), len(want)):end])
						for how, ctx := range ways {
							got, err := paging.Fetch(ctx, query(), o.sort, p)
							dbtest.NoError(t, err)
							if !slices.Equal(ids(got.Items), wantIDs) || got.Total != len(want) || got.Page != p {
								t.Fatalf("%s %s page %d of %d, %s: %d items (total %d), want %v (total %d)",
									oname, fname, page, per, how, len(got.Items), got.Total, wantIDs, len(want))
							}
						}
					}
				}
			}
		}
	})
}

// TestFetchInTransaction pages inside a transaction (one connection: the
// count and the page run one after the other) with the same result.
func TestFetchInTransaction(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *dbtest.DB) {
		ctx := seedCommerces(t, db)
		p := paging.Page{Page: 2, PerPage: 5}
		sort := paging.Asc(commerce.FieldName, commerce.FieldID)
		outside, err := paging.Fetch(ctx, db.Client.Commerce.Query(), sort, p)
		dbtest.NoError(t, err)
		var inside *paging.List[*ent.Commerce]
		dbtest.NoError(t, txn.Run(ctx, db.Client, func(ctx context.Context, tx *ent.Client) (err error) {
			inside, err = paging.Fetch(ctx, tx.Commerce.Query(), sort, p)
			return err
		}))
		if !slices.Equal(ids(inside.Items), ids(outside.Items)) || inside.Total != outside.Total || len(inside.Items) != 5 {
			t.Fatalf("in a transaction: %d items of %d, want %d of %d", len(inside.Items), inside.Total, len(outside.Items), outside.Total)
		}
	})
}
