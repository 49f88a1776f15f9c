package snapshot

import (
	"context"

	commerces "github.com/reten-io/reten/internal/commerce"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/ent/commerce"
	"github.com/reten-io/reten/ent/commercelifecyclesnapshot"
	"github.com/reten-io/reten/internal/apperr"
	"github.com/reten-io/reten/internal/paging"
	"github.com/reten-io/reten/internal/tenancy"
)

// Messages of the snapshot routes.
const (
	MsgStageValues       = "stage must be one of the following values: ACTIVATION, ENGAGEMENT, RESURRECTION"
	MsgSortValues        = "sort must be one of the following values: state_changed_at, -state_changed_at"
	MsgAGCUUID           = "activity_generation_config_id must be a UUID"
	MsgSinceISO          = "state_changed_since must be a valid ISO 8601 date string"
	MsgCommerceNotFound  = commerces.MsgNotFound
	MsgSnapshotNotFound  = "Commerce lifecycle snapshot not found"
	MsgLookupBoth        = "commerce_ids and external_ids cannot be combined: send one identifier type per request"
	MsgLookupNone        = "commerce_ids or external_ids is required"
	MsgCommerceIDsUUID   = "each value in commerce_ids must be a UUID"
	MsgLookupTooMany     = "commerce_ids and external_ids must contain no more than 10000 elements"
	MsgAGCNotFoundFmt    = "Activity generation config %s not found"
	MsgCommerceIDFmt     = "Commerce %s not found"
	MsgCommerceExtFmt    = "Commerce with external_id %q not found"
	MaxLookupIdentifiers = 10000
)

// Sort orders of the list.
const (
	SortAsc  = "state_changed_at"
	SortDesc = "-state_changed_at"
)

// Filter narrows List; zero values mean no filter. Raw strings are validated
// by the service (400 with one message per broken rule).
type Filter struct {
	Code              string
	Stage             string
	AGCID             string
	StateChangedSince string
	Sort              string
}

func validStage(s string) bool {
	return commercelifecyclesnapshot.StageValidator(commercelifecyclesnapshot.Stage(s)) == nil
}

// List returns a page of the tenant's snapshots ordered by state_changed_at
// then id (descending unless sort is "state_changed_at"), with the exact total.
func (s *Service) List(ctx context.Context, f Filter, p paging.Page) (*paging.List[*ent.CommerceLifecycleSnapshot], error) {
	tenantID, err := tenancy.Tenant(ctx)
	if err != nil {
		return nil, err
	}
	preds, msgs := filterPredicates(f)
	q := s.db(ctx).CommerceLifecycleSnapshot.Query().Where(commercelifecyclesnapshot.TenantID(tenantID)).Where(preds...)
	sort := paging.Desc(commercelifecyclesnapshot.FieldStateChangedAt, commercelifecyclesnapshot.FieldID)
	switch f.Sort {
	case SortAsc:
		sort = paging.Asc(commercelifecyclesnapshot.FieldStateChangedAt, commercelifecyclesnapshot.FieldID)
	case "", SortDesc:
	default:
		msgs = append(msgs, MsgSortValues)
	}
	if len(msgs) > 0 {
		return nil, apperr.Validation(msgs...)
	}
	return paging.Fetch(ctx, q, sort, p)
}

// resolveCommerce finds the tenant's live commerce by UUID, else by external code.
func (s *Service) resolveCommerce(ctx context.Context, tenantID uuid.UUID, ident string) (*ent.Commerce, error) {
	return commerces.Resolve(ctx, s.db(ctx), tenantID, ident)
}

// ForCommerce returns the snapshots of one commerce (its UUID or external
// code), ordered by AGC; with agcID only that AGC's snapshot (404 when none).
func (s *Service) ForCommerce(ctx context.Context, ident string, agcID string) ([]*ent.CommerceLifecycleSnapshot, error) {
	tenantID, err := tenancy.Tenant(ctx)
	if err != nil {
		return nil, err
	}
	var agc *uuid.UUID
	if agcID != "" {
		id, err := uuid.Parse(agcID)
		if err != nil {
			return nil, apperr.Validation(MsgAGCUUID)
		}
		agc = &id
	}
	c, err := s.resolveCommerce(ctx, tenantID, ident)
	if err != nil {
		return nil, err
	}
	q := s.db(ctx).CommerceLifecycleSnapshot.Query().Where(commercelifecyclesnapshot.TenantID(tenantID),
		commercelifecyclesnapshot.CommerceID(c.ID)).Order(ent.Asc(commercelifecyclesnapshot.FieldActivityGenerationConfigID))
	if agc != nil {
		q.Where(commercelifecyclesnapshot.ActivityGenerationConfigID(*agc))
	}
	out, err := q.All(ctx)
	if err != nil {
		return nil, err
	}
	if agc != nil && len(out) == 0 {
		return nil, apperr.NotFound(MsgSnapshotNotFound)
	}
	return out, nil
}

// LookupInput is the body of the batch lookup: CommerceIDs or ExternalIDs
// (exactly one of them non-nil), optional AGC.
type LookupInput struct {
	CommerceIDs []string
	ExternalIDs []string
	AGCID       *string
}

// LookupResult holds the snapshots found and the identifiers (as sent) that
// resolved to no commerce or to no snapshot.
type LookupResult struct {
	Snapshots  []*ent.CommerceLifecycleSnapshot
	Unresolved []string
}

// BatchLookup returns the snapshots of many commerces; identifiers without a
// snapshot come back in Unresolved.
func (s *Service) BatchLookup(ctx context.Context, in LookupInput) (*LookupResult, error) {
	tenantID, err := tenancy.Tenant(ctx)
	if err != nil {
		return nil, err
	}
	var msgs []string
	byExternal := in.ExternalIDs != nil
	idents := in.CommerceIDs
	switch {
	case in.CommerceIDs != nil && in.ExternalIDs != nil:
		msgs = append(msgs, MsgLookupBoth)
	case in.CommerceIDs == nil && in.ExternalIDs == nil:
		msgs = append(msgs, MsgLookupNone)
	case byExternal:
		idents = in.ExternalIDs
	}
	if len(idents) > MaxLookupIdentifiers {
		msgs = append(msgs, MsgLookupTooMany)
	}
	var ids []uuid.UUID
	if !byExternal {
		for _, v := range idents {
			id, err := uuid.Parse(v)
			if err != nil {
				msgs = append(msgs, MsgCommerceIDsUUID)
				break
			}
			ids = append(ids, id)
		}
	}
	var agc *uuid.UUID
	if in.AGCID != nil {
		id, err := uuid.Parse(*in.AGCID)
		if err != nil {
			msgs = append(msgs, MsgAGCUUID)
		} else {
			agc = &id
		}
	}
	if len(msgs) > 0 {
		return nil, apperr.Validation(msgs...)
	}
	// identifier -> commerce id
	resolved := map[string]uuid.UUID{}
	cq := s.db(ctx).Commerce.Query().Where(commerce.TenantID(tenantID))
	if byExternal {
		cq.Where(commerce.ExternalIDIn(idents...))
	} else {
		cq.Where(commerce.IDIn(ids...))
	}
	cs, err := cq.All(ctx)
	if err != nil {
		return nil, err
	}
	cids := make([]uuid.UUID, 0, len(cs))
	for _, c := range cs {
		cids = append(cids, c.ID)
		if byExternal && c.ExternalID != nil {
			resolved[*c.ExternalID] = c.ID
		} else if !byExternal {
			resolved[c.ID.String()] = c.ID
		}
	}
	sq := s.db(ctx).CommerceLifecycleSnapshot.Query().Where(commercelifecyclesnapshot.TenantID(tenantID),
		commercelifecyclesnapshot.CommerceIDIn(cids...)).
		Order(ent.Asc(commercelifecyclesnapshot.FieldCommerceID), ent.Asc(commercelifecyclesnapshot.FieldActivityGenerationConfigID))
	if agc != nil {
		sq.Where(commercelifecyclesnapshot.ActivityGenerationConfigID(*agc))
	}
	snaps, err := sq.All(ctx)
	if err != nil {
		return nil, err
	}
	has := map[uuid.UUID]bool{}
	for _, sn := range snaps {
		has[sn.CommerceID] = true
	}
	out := &LookupResult{Snapshots: snaps, Unresolved: []string{}}
	seen := map[string]bool{}
	for i, v := range idents {
		key := v
		if !byExternal {
			key = ids[i].String()
		}
		if cid, ok := resolved[key]; (!ok || !has[cid]) && !seen[v] {
			seen[v] = true
			out.Unresolved = append(out.Unresolved, v)
		}
	}
	return out, nil
}
