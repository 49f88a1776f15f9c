package snapshot

import (
	"bytes"
	"context"
	"slices"
	"time"

	"entgo.io/contrib/entgql"
	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/ent/commercelifecyclesnapshot"
	"github.com/reten-io/reten/ent/predicate"
	"github.com/reten-io/reten/internal/apperr"
	"github.com/reten-io/reten/internal/paging"
	"github.com/reten-io/reten/internal/tenancy"
)

// Connection pages the tenant's snapshots for GraphQL,
// filtered like List with List's
// messages and ordered by state_changed_at then id (f.Sort: SortAsc or
// SortDesc, the default), the order the cursor encodes. The window is
// paging.Window's (GraphQL checks it for every connection before the
// resolver runs), so a table of millions is never read at once. Field
// collection eager-loads the edges the query selects.
func (s *Service) Connection(ctx context.Context, after *ent.Cursor, first *int, before *ent.Cursor, last *int,
	f Filter) (*ent.CommerceLifecycleSnapshotConnection, error) {
	tenantID, err := tenancy.Tenant(ctx)
	if err != nil {
		return nil, err
	}
	preds, msgs := filterPredicates(f)
	order := &ent.CommerceLifecycleSnapshotOrder{Direction: entgql.OrderDirectionDesc, Field: ent.CommerceLifecycleSnapshotOrderFieldStateChangedAt}
	switch f.Sort {
	case SortAsc:
		order.Direction = entgql.OrderDirectionAsc
	case "", SortDesc:
	default:
		msgs = append(msgs, MsgSortValues)
	}
	first, last, window := paging.Window(first, last)
	if msgs = append(msgs, window...); len(msgs) > 0 {
		return nil, apperr.Validation(msgs...)
	}
	return s.db(ctx).CommerceLifecycleSnapshot.Query().
		Where(commercelifecyclesnapshot.TenantID(tenantID)).Where(preds...).
		Paginate(ctx, after, first, before, last, ent.WithCommerceLifecycleSnapshotOrder(order))
}

// filterPredicates turns the filter values into predicates, with one message
// per broken rule (the rules and messages of List).
func filterPredicates(f Filter) ([]predicate.CommerceLifecycleSnapshot, []string) {
	var preds []predicate.CommerceLifecycleSnapshot
	var msgs []string
	if f.Code != "" {
		preds = append(preds, commercelifecyclesnapshot.Code(f.Code))
	}
	if f.Stage != "" {
		if validStage(f.Stage) {
			preds = append(preds, commercelifecyclesnapshot.StageEQ(commercelifecyclesnapshot.Stage(f.Stage)))
		} else {
			msgs = append(msgs, MsgStageValues)
		}
	}
	if f.AGCID != "" {
		if id, err := uuid.Parse(f.AGCID); err == nil {
			preds = append(preds, commercelifecyclesnapshot.ActivityGenerationConfigID(id))
		} else {
			msgs = append(msgs, MsgAGCUUID)
		}
	}
	if f.StateChangedSince != "" {
		if t, err := time.Parse(time.RFC3339Nano, f.StateChangedSince); err == nil {
			preds = append(preds, commercelifecyclesnapshot.StateChangedAtGT(t))
		} else {
			msgs = append(msgs, MsgSinceISO)
		}
	}
	return preds, msgs
}

// OfCommerce returns the snapshots of a commerce loaded by the caller,
// ordered by AGC id. It reads the rows
// field collection eager-loaded with the commerce's page (one statement for
// the whole page) and queries only when they were not loaded.
func (s *Service) OfCommerce(ctx context.Context, c *ent.Commerce) ([]*ent.CommerceLifecycleSnapshot, error) {
	if _, err := tenancy.Tenant(ctx); err != nil {
		return nil, err
	}
	loaded, err := c.LifecycleSnapshots(ctx)
	if err != nil {
		return nil, err
	}
	out := slices.Clone(loaded)
	slices.SortFunc(out, func(a, b *ent.CommerceLifecycleSnapshot) int {
		return bytes.Compare(a.ActivityGenerationConfigID[:], b.ActivityGenerationConfigID[:])
	})
	if out == nil {
		out = []*ent.CommerceLifecycleSnapshot{}
	}
	return out, nil
}
