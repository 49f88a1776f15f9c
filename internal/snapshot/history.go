package snapshot

import (
	"context"
	"time"

	"entgo.io/contrib/entgql"
	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/ent/activitygenerationconfig"
	"github.com/reten-io/reten/ent/commerce"
	tr "github.com/reten-io/reten/ent/commercelifecycletransition"
	"github.com/reten-io/reten/ent/predicate"
	"github.com/reten-io/reten/internal/apperr"
	"github.com/reten-io/reten/internal/paging"
	"github.com/reten-io/reten/internal/tenancy"
)

// The transition history: the rows every snapshot write that changes
// (stage, code) appends (statement.go), read oldest first.

// Messages of the transition reads (MsgAGCUUID for activity_generation_config_id).
const (
	MsgTransitionRunUUID      = "run_id must be a UUID"
	MsgTransitionSinceISO     = "since must be a valid ISO 8601 date string"
	MsgTransitionSourceValues = "source must be one of the following values: " + SourceEngine + ", " + SourceAPI
)

// TransitionFilter narrows the transition reads; zero values mean no
// filter. Raw strings are validated by the service (400 with one message
// per broken rule, naming the parameter).
type TransitionFilter struct {
	CommerceID string
	AGCID      string
	Since      string // an RFC 3339 instant: state_changed_at >= Since
	Source     string // ENGINE or API
	RunID      string
}

// transitionOrder is the one order of the reads: state_changed_at, then id,
// ascending. Every documented filter has an index (tenant_id, <filter>,
// state_changed_at, id) or reads the tenant's (tenant_id, state_changed_at,
// id), so no read sorts.
var transitionOrder = paging.Asc(tr.FieldStateChangedAt, tr.FieldID)

// Transitions returns page p of the tenant's transitions filtered by f,
// oldest first, with the exact total.
func (s *Service) Transitions(ctx context.Context, f TransitionFilter, p paging.Page) (*paging.List[*ent.CommerceLifecycleTransition], error) {
	preds, msgs := transitionPredicates(f)
	if len(msgs) > 0 {
		return nil, apperr.Validation(msgs...)
	}
	return tenancy.List(ctx, s.db(ctx).CommerceLifecycleTransition.Query().Where(preds...), tr.TenantID, transitionOrder, p)
}

// History returns page p of the transitions of one commerce of the tenant,
// named by UUID or external code as ForCommerce names it (404 "Commerce not
// found" otherwise), under every AGC or only agcID's.
func (s *Service) History(ctx context.Context, ident, agcID string, p paging.Page) (*paging.List[*ent.CommerceLifecycleTransition], error) {
	c, err := s.commerceOfHistory(ctx, ident, agcID)
	if err != nil {
		return nil, err
	}
	return s.Transitions(ctx, TransitionFilter{CommerceID: c.ID.String(), AGCID: agcID}, p)
}

// commerceOfHistory checks agcID (400 first, as ForCommerce does) and
// resolves the commerce.
func (s *Service) commerceOfHistory(ctx context.Context, ident, agcID string) (*ent.Commerce, error) {
	tenantID, err := tenancy.Tenant(ctx)
	if err != nil {
		return nil, err
	}
	if _, msgs := transitionPredicates(TransitionFilter{AGCID: agcID}); len(msgs) > 0 {
		return nil, apperr.Validation(msgs...)
	}
	return s.resolveCommerce(ctx, tenantID, ident)
}

// TransitionConnection pages the tenant's transitions filtered by f for
// GraphQL, in the order of Transitions (the order the cursor encodes); the
// window is paging.Window's, checked for every connection before the
// resolver runs.
func (s *Service) TransitionConnection(ctx context.Context, after *ent.Cursor, first *int, before *ent.Cursor, last *int,
	f TransitionFilter) (*ent.CommerceLifecycleTransitionConnection, error) {
	preds, msgs := transitionPredicates(f)
	first, last, window := paging.Window(first, last)
	if msgs = append(msgs, window...); len(msgs) > 0 {
		return nil, apperr.Validation(msgs...)
	}
	order := &ent.CommerceLifecycleTransitionOrder{Direction: entgql.OrderDirectionAsc, Field: ent.CommerceLifecycleTransitionOrderFieldStateChangedAt}
	return tenancy.Connection(ctx, s.db(ctx).CommerceLifecycleTransition.Query().Where(preds...), tr.TenantID,
		after, first, before, last, ent.WithCommerceLifecycleTransitionOrder(order))
}

// TransitionCommerce is the commerce a transition names (GraphQL's
// CommerceLifecycleTransition.commerce), nil when the viewer cannot see it
// (in the trash); the history names it by id, without a foreign key.
func (s *Service) TransitionCommerce(ctx context.Context, t *ent.CommerceLifecycleTransition) (*ent.Commerce, error) {
	tid, err := tenancy.Tenant(ctx)
	if err != nil {
		return nil, err
	}
	return visible(s.db(ctx).Commerce.Query().Where(commerce.ID(t.CommerceID), commerce.TenantID(tid)).Only(ctx))
}

// TransitionAGC is the AGC a transition names, nil when the viewer cannot
// see it (in the trash or in another project than the request's).
func (s *Service) TransitionAGC(ctx context.Context, t *ent.CommerceLifecycleTransition) (*ent.ActivityGenerationConfig, error) {
	tid, err := tenancy.Tenant(ctx)
	if err != nil {
		return nil, err
	}
	return visible(s.db(ctx).ActivityGenerationConfig.Query().
		Where(activitygenerationconfig.ID(t.ActivityGenerationConfigID), activitygenerationconfig.TenantID(tid)).Only(ctx))
}

// visible turns not found into nil.
func visible[T any](v *T, err error) (*T, error) {
	if ent.IsNotFound(err) {
		return nil, nil
	}
	return v, err
}

// transitionPredicates turns the filter values into predicates, with one
// message per broken rule, in the order the parameters are documented.
func transitionPredicates(f TransitionFilter) ([]predicate.CommerceLifecycleTransition, []string) {
	var preds []predicate.CommerceLifecycleTransition
	var msgs []string
	id := func(raw, msg string, pred func(uuid.UUID) predicate.CommerceLifecycleTransition) {
		if raw == "" {
			return
		}
		if v, err := uuid.Parse(raw); err == nil {
			preds = append(preds, pred(v))
		} else {
			msgs = append(msgs, msg)
		}
	}
	id(f.CommerceID, MsgCommerceIDUUID, tr.CommerceID)
	id(f.AGCID, MsgAGCUUID, tr.ActivityGenerationConfigID)
	if f.Since != "" {
		if t, err := time.Parse(time.RFC3339Nano, f.Since); err == nil {
			preds = append(preds, tr.StateChangedAtGTE(t))
		} else {
			msgs = append(msgs, MsgTransitionSinceISO)
		}
	}
	if f.Source != "" {
		if tr.SourceValidator(tr.Source(f.Source)) == nil {
			preds = append(preds, tr.SourceEQ(tr.Source(f.Source)))
		} else {
			msgs = append(msgs, MsgTransitionSourceValues)
		}
	}
	id(f.RunID, MsgTransitionRunUUID, tr.RunID)
	return preds, msgs
}
