package snapshot

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/ent/activitygenerationconfig"
	"github.com/reten-io/reten/ent/commerce"
	"github.com/reten-io/reten/ent/commercelifecyclesnapshot"
	"github.com/reten-io/reten/ent/retentionstatusconfig"
	"github.com/reten-io/reten/internal/apperr"
	"github.com/reten-io/reten/internal/auth"
	"github.com/reten-io/reten/internal/txn"
)

// Outcomes of an upsert.
const (
	Created   = "created"
	Updated   = "updated"
	Unchanged = "unchanged"
	// Stale: last_computed_at is older than the stored one; nothing changed.
	Stale = "stale"
)

// Messages of the upserts.
const (
	MsgStatusInactiveFmt = "Retention status config %q does not exist or is inactive"
	MsgItemsRequired     = "items must be an array"
	MsgItemsEmpty        = "items should not be empty"
	MsgItemsTooMany      = "items must contain no more than 10000 elements"
	MsgItemsMixed        = "every item must use the same identifier type: commerce_id or external_id"
	MsgItemIdentifier    = "commerce_id or external_id is required"
	MsgCommerceIDUUID    = "commerce_id must be a UUID"
	MsgCommerceIDEmpty   = "commerce_id should not be empty"
	MsgAGCEmpty          = "activity_generation_config_id should not be empty"
	MsgCodeEmpty         = "code should not be empty"
	MsgLastComputedEmpty = "last_computed_at should not be empty"
	MaxBatchItems        = 10000
	chunkSize            = 1000
)

// Item is one upsert: CommerceID (UUID text) or ExternalID identifies the
// commerce. Invalid carries the decode (type) errors the adapter found.
type Item struct {
	CommerceID     string
	ExternalID     string
	AGCID          string
	Code           string
	Stage          string
	LastComputedAt *time.Time
	Invalid        []string
}

// ItemResult is the outcome of a valid item.
type ItemResult struct {
	Index   int
	Outcome string
}

// ItemError lists why an item was rejected (it changed nothing).
type ItemError struct {
	Index    int
	Messages []string
}

// BatchResult is the answer of BatchUpsert.
type BatchResult struct {
	Results                            []ItemResult
	Errors                             []ItemError
	Created, Updated, Unchanged, Stale int
}

// validate checks an item's DTO rules (byExternal: identified by external_id).
func validate(it Item, byExternal bool) []string {
	msgs := append([]string{}, it.Invalid...)
	if byExternal {
		if it.ExternalID == "" {
			msgs = append(msgs, MsgItemIdentifier)
		}
	} else if it.CommerceID == "" {
		msgs = append(msgs, MsgCommerceIDEmpty)
	} else if _, err := uuid.Parse(it.CommerceID); err != nil {
		msgs = append(msgs, MsgCommerceIDUUID)
	}
	if it.AGCID == "" {
		msgs = append(msgs, MsgAGCEmpty)
	} else if _, err := uuid.Parse(it.AGCID); err != nil {
		msgs = append(msgs, MsgAGCUUID)
	}
	if it.Code == "" {
		msgs = append(msgs, MsgCodeEmpty)
	}
	if !validStage(it.Stage) {
		msgs = append(msgs, MsgStageValues)
	}
	if it.LastComputedAt == nil {
		msgs = append(msgs, MsgLastComputedEmpty)
	}
	return msgs
}

type key struct{ commerce, agc uuid.UUID }

// itemFail is a per-item resolution failure; notFound says whether a single
// upsert answers 404 (else 400).
type itemFail struct {
	msgs     []string
	notFound bool
}

// chunkOut is the outcome of one chunk: per position, an outcome or a failure.
type chunkOut struct {
	outcomes []string
	fails    []*itemFail
	keys     []key
}

// upsertChunk resolves and writes validated items inside one transaction: one
// query per lookup (commerces, AGCs, status configs, stored snapshots) and one
// multi-row INSERT ... ON CONFLICT for the rows that change. Items apply in
// order over the in-memory state, so a later duplicate wins.
func (s *Service) upsertChunk(ctx context.Context, tenantID uuid.UUID, items []Item, byExternal bool) (*chunkOut, error) {
	out := &chunkOut{outcomes: make([]string, len(items)), fails: make([]*itemFail, len(items)), keys: make([]key, len(items))}
	err := txn.Run(ctx, s.client, func(ctx context.Context, tx *ent.Client) error {
		var cids, agcIDs []uuid.UUID
		var exts, codes []string
		for _, it := range items {
			if byExternal {
				exts = append(exts, it.ExternalID)
			} else {
				cids = append(cids, uuid.MustParse(it.CommerceID))
			}
			agcIDs = append(agcIDs, uuid.MustParse(it.AGCID))
			codes = append(codes, it.Code)
		}
		cq := tx.Commerce.Query().Where(commerce.TenantID(tenantID))
		if byExternal {
			cq.Where(commerce.ExternalIDIn(exts...))
		} else {
			cq.Where(commerce.IDIn(cids...))
		}
		cs, err := cq.All(ctx)
		if err != nil {
			return err
		}
		commerces := map[string]*ent.Commerce{}
		var found []uuid.UUID
		for _, c := range cs {
			found = append(found, c.ID)
			if byExternal {
				if c.ExternalID != nil {
					commerces[*c.ExternalID] = c
				}
			} else {
				commerces[c.ID.String()] = c
			}
		}
		agcs, err := tx.ActivityGenerationConfig.Query().Where(activitygenerationconfig.TenantID(tenantID),
			activitygenerationconfig.IDIn(agcIDs...)).IDs(ctx)
		if err != nil {
			return err
		}
		agcOK := map[uuid.UUID]bool{}
		for _, id := range agcs {
			agcOK[id] = true
		}
		sts, err := tx.RetentionStatusConfig.Query().Where(retentionstatusconfig.TenantID(tenantID),
			retentionstatusconfig.CodeIn(codes...), retentionstatusconfig.IsActive(true)).All(ctx)
		if err != nil {
			return err
		}
		labels := map[string]string{}
		for _, st := range sts {
			labels[st.Code] = st.Label
		}
		stored, err := tx.CommerceLifecycleSnapshot.Query().Where(commercelifecyclesnapshot.TenantID(tenantID),
			commercelifecyclesnapshot.CommerceIDIn(found...), commercelifecyclesnapshot.ActivityGenerationConfigIDIn(agcs...)).All(ctx)
		if err != nil {
			return err
		}
		state := map[key]*ent.CommerceLifecycleSnapshot{}
		for _, sn := range stored {
			state[key{sn.CommerceID, sn.ActivityGenerationConfigID}] = sn
		}
		dirty := map[key]bool{}
		var order []key
		for i, it := range items {
			ident := it.CommerceID
			if byExternal {
				ident = it.ExternalID
			} else {
				ident = uuid.MustParse(ident).String()
			}
			agcID := uuid.MustParse(it.AGCID)
			c, ok := commerces[ident]
			f := &itemFail{}
			if !ok {
				f.notFound = true
				if byExternal {
					f.msgs = append(f.msgs, fmt.Sprintf(MsgCommerceExtFmt, ident))
				} else {
					f.msgs = append(f.msgs, fmt.Sprintf(MsgCommerceIDFmt, ident))
				}
			}
			if !agcOK[agcID] {
				f.notFound = f.notFound || len(f.msgs) == 0
				f.msgs = append(f.msgs, fmt.Sprintf(MsgAGCNotFoundFmt, agcID))
			}
			label, ok := labels[it.Code]
			if !ok {
				f.msgs = append(f.msgs, fmt.Sprintf(MsgStatusInactiveFmt, it.Code))
			}
			if len(f.msgs) > 0 {
				out.fails[i] = f
				continue
			}
			k := key{c.ID, agcID}
			out.keys[i] = k
			at := it.LastComputedAt.UTC().Truncate(time.Microsecond)
			cur := state[k]
			next := &ent.CommerceLifecycleSnapshot{CommerceID: c.ID, ActivityGenerationConfigID: agcID, ExternalID: c.ExternalID,
				Code: it.Code, Label: label, Stage: commercelifecyclesnapshot.Stage(it.Stage), LastComputedAt: at, StateChangedAt: at}
			switch {
			case cur == nil:
				next.ID = uuid.New()
				out.outcomes[i] = Created
			case at.Before(cur.LastComputedAt):
				out.outcomes[i] = Stale
				continue
			case cur.Stage == next.Stage && cur.Code == next.Code && cur.Label == next.Label &&
				at.Equal(cur.LastComputedAt) && eqStr(cur.ExternalID, next.ExternalID):
				out.outcomes[i] = Unchanged
				continue
			default:
				next.ID = cur.ID
				if cur.Stage == next.Stage && cur.Code == next.Code {
					next.StateChangedAt = cur.StateChangedAt
				}
				out.outcomes[i] = Updated
			}
			state[k] = next
			if !dirty[k] {
				dirty[k] = true
				order = append(order, k)
			}
		}
		if len(order) == 0 {
			return nil
		}
		builders := make([]*ent.CommerceLifecycleSnapshotCreate, 0, len(order))
		for _, k := range order {
			n := state[k]
			builders = append(builders, tx.CommerceLifecycleSnapshot.Create().SetID(n.ID).SetTenantID(tenantID).
				SetCommerceID(n.CommerceID).SetActivityGenerationConfigID(n.ActivityGenerationConfigID).
				SetNillableExternalID(n.ExternalID).SetCode(n.Code).SetLabel(n.Label).SetStage(n.Stage).
				SetLastComputedAt(n.LastComputedAt).SetStateChangedAt(n.StateChangedAt))
		}
		return tx.CommerceLifecycleSnapshot.CreateBulk(builders...).
			OnConflictColumns(commercelifecyclesnapshot.FieldCommerceID, commercelifecyclesnapshot.FieldActivityGenerationConfigID).
			Update(func(u *ent.CommerceLifecycleSnapshotUpsert) {
				u.UpdateExternalID().UpdateCode().UpdateLabel().UpdateStage().UpdateLastComputedAt().
					UpdateStateChangedAt().UpdateUpdatedAt()
			}).Exec(ctx)
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

func eqStr(a, b *string) bool { return (a == nil && b == nil) || (a != nil && b != nil && *a == *b) }

// Upsert writes one snapshot identified by commerce UUID (commerce-lifecycle-snapshot:create)
// and returns the stored snapshot with the outcome (created, updated,
// unchanged, or stale when last_computed_at is older than the stored one).
func (s *Service) Upsert(ctx context.Context, it Item) (*ent.CommerceLifecycleSnapshot, string, error) {
	tenantID, err := auth.TenantFor(ctx, auth.PermSnapshotCreate)
	if err != nil {
		return nil, "", err
	}
	it.ExternalID = ""
	if msgs := validate(it, false); len(msgs) > 0 {
		return nil, "", apperr.Validation(msgs...)
	}
	out, err := s.upsertChunk(ctx, tenantID, []Item{it}, false)
	if err != nil {
		return nil, "", err
	}
	if f := out.fails[0]; f != nil {
		if f.notFound {
			return nil, "", apperr.NotFound(f.msgs[0])
		}
		return nil, "", apperr.Invalid(f.msgs[0])
	}
	k := out.keys[0]
	sn, err := s.db(ctx).CommerceLifecycleSnapshot.Query().Where(commercelifecyclesnapshot.TenantID(tenantID),
		commercelifecyclesnapshot.CommerceID(k.commerce), commercelifecyclesnapshot.ActivityGenerationConfigID(k.agc)).Only(ctx)
	if err != nil {
		return nil, "", err
	}
	return sn, out.outcomes[0], nil
}

// BatchUpsert writes up to MaxBatchItems snapshots, every item identified by
// commerce_id or every item by external_id (byExternal). Invalid items are
// reported and change nothing; valid ones are written in chunks of 1,000 (one
// transaction and one INSERT ... ON CONFLICT per chunk).
func (s *Service) BatchUpsert(ctx context.Context, items []Item, byExternal bool) (*BatchResult, error) {
	tenantID, err := auth.TenantFor(ctx, auth.PermSnapshotCreate)
	if err != nil {
		return nil, err
	}
	if len(items) > MaxBatchItems {
		return nil, apperr.Validation(MsgItemsTooMany)
	}
	res := &BatchResult{Results: []ItemResult{}, Errors: []ItemError{}}
	var valid []Item
	var idx []int
	for i, it := range items {
		if msgs := validate(it, byExternal); len(msgs) > 0 {
			res.Errors = append(res.Errors, ItemError{Index: i, Messages: msgs})
			continue
		}
		valid = append(valid, it)
		idx = append(idx, i)
	}
	for start := 0; start < len(valid); start += chunkSize {
		end := min(start+chunkSize, len(valid))
		out, err := s.upsertChunk(ctx, tenantID, valid[start:end], byExternal)
		if err != nil {
			return nil, err
		}
		for j := range out.outcomes {
			i := idx[start+j]
			if f := out.fails[j]; f != nil {
				res.Errors = append(res.Errors, ItemError{Index: i, Messages: f.msgs})
				continue
			}
			res.Results = append(res.Results, ItemResult{Index: i, Outcome: out.outcomes[j]})
			switch out.outcomes[j] {
			case Created:
				res.Created++
			case Updated:
				res.Updated++
			case Unchanged:
				res.Unchanged++
			case Stale:
				res.Stale++
			}
		}
	}
	slices.SortStableFunc(res.Errors, func(a, b ItemError) int { return a.Index - b.Index })
	return res, nil
}
