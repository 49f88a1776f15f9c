package generation

import (
	"context"
	"slices"
	"strings"
	"time"

	"entgo.io/contrib/entgql"
	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
	entcommerce "github.com/reten-io/reten/ent/commerce"
	"github.com/reten-io/reten/ent/generationdecision"
	"github.com/reten-io/reten/ent/predicate"
	"github.com/reten-io/reten/internal/apperr"
	"github.com/reten-io/reten/internal/commerce"
	"github.com/reten-io/reten/internal/paging"
	"github.com/reten-io/reten/internal/tenancy"
)

// The decision trail: what each rule decided for each commerce on each
// entry into a state (one row per rule, commerce and state entry, written
// by the generator), read per AGC and per commerce, newest first, so a
// supervisor can answer "why did this shop get no visit?".

// DecisionKinds are the values of a decision's kind, in the documented order.
var DecisionKinds = []string{
	generationdecision.KindGENERATED.String(), generationdecision.KindHELD_OUT.String(), generationdecision.KindCAPPED.String(),
	generationdecision.KindSUPPRESSED.String(), generationdecision.KindEXPIRED_RULE.String(),
}

// MsgDecisionKind is the message of a kind outside DecisionKinds (the
// adapters' type problems are in the same style: "commerce_id must be a
// UUID", "since must be a valid ISO 8601 date string").
var MsgDecisionKind = "kind must be one of the following values: " + strings.Join(DecisionKinds, ", ")

// DecisionFilter narrows the decision reads; nil members do not filter.
type DecisionFilter struct {
	CommerceID *uuid.UUID // only this commerce's decisions (the AGC read)
	RuleID     *uuid.UUID // only this rule's decisions
	Kind       *string    // one of DecisionKinds
	Since      *time.Time // decided_at >= Since
	// Problems are the adapter's problems with the parameters (page, an id
	// or an instant it could not parse), reported with the kind rule in
	// one 400.
	Problems apperr.Problems
}

// decisionOrder is the one order of the reads: newest first (decided_at,
// then id, descending), the order of the indexes (tenant_id,
// activity_generation_config_id | commerce_id, decided_at, id) that serve
// the AGC's and the commerce's reads (the project-wide GraphQL read, with
// neither, has no index of its own and sorts).
var decisionOrder = paging.Desc(generationdecision.FieldDecidedAt, generationdecision.FieldID)

// predicates checks the filter (every broken rule in one 400) and returns
// its predicates.
func (f DecisionFilter) predicates() ([]predicate.GenerationDecision, error) {
	probs := f.Problems
	probs.Rule(f.Kind != nil && !slices.Contains(DecisionKinds, *f.Kind), MsgDecisionKind, "kind")
	if err := probs.Err(); err != nil {
		return nil, err
	}
	var preds []predicate.GenerationDecision
	if f.CommerceID != nil {
		preds = append(preds, generationdecision.CommerceID(*f.CommerceID))
	}
	if f.RuleID != nil {
		preds = append(preds, generationdecision.RuleID(*f.RuleID))
	}
	if f.Kind != nil {
		preds = append(preds, generationdecision.KindEQ(generationdecision.Kind(*f.Kind)))
	}
	if f.Since != nil {
		preds = append(preds, generationdecision.DecidedAtGTE(*f.Since))
	}
	return preds, nil
}

// ListDecisions returns page p of the decisions of an AGC of the active
// project filtered by f, newest first, with the exact total (400 for a
// broken filter, then 404 for an AGC outside the active project).
func (s *Service) ListDecisions(ctx context.Context, agcID uuid.UUID, f DecisionFilter, p paging.Page) (*paging.List[*ent.GenerationDecision], error) {
	q, err := s.agcDecisions(ctx, agcID, f)
	if err != nil {
		return nil, err
	}
	return tenancy.List(ctx, q, generationdecision.TenantID, decisionOrder, p)
}

// CommerceDecisions returns page p of the decisions of the active project
// about a commerce of the tenant filtered by f (its CommerceID is the
// commerce's), newest first (400 for a broken filter, then 404 "Commerce
// not found" for a commerce of another tenant or in the trash).
func (s *Service) CommerceDecisions(ctx context.Context, commerceID uuid.UUID, f DecisionFilter, p paging.Page) (*paging.List[*ent.GenerationDecision], error) {
	q, err := s.commerceDecisions(ctx, commerceID, f)
	if err != nil {
		return nil, err
	}
	return tenancy.List(ctx, q, generationdecision.TenantID, decisionOrder, p)
}

// DecisionConnection pages the active project's decisions for GraphQL,
// newest first as ListDecisions (the order the cursor encodes): those of
// AGC agcID when it is set (as ListDecisions: f.CommerceID only filters),
// else those about commerce f.CommerceID when it is set (as
// CommerceDecisions: 404 for another tenant's commerce), else every one of
// the project.
func (s *Service) DecisionConnection(ctx context.Context, agcID *uuid.UUID, f DecisionFilter,
	after *ent.Cursor, first *int, before *ent.Cursor, last *int) (*ent.GenerationDecisionConnection, error) {
	var q *ent.GenerationDecisionQuery
	var err error
	switch {
	case agcID != nil:
		q, err = s.agcDecisions(ctx, *agcID, f)
	case f.CommerceID != nil:
		q, err = s.commerceDecisions(ctx, *f.CommerceID, f)
	default:
		q, err = s.projectDecisions(ctx, f)
	}
	if err != nil {
		return nil, err
	}
	return decisionConnection(ctx, q, after, first, before, last)
}

func decisionConnection(ctx context.Context, q *ent.GenerationDecisionQuery,
	after *ent.Cursor, first *int, before *ent.Cursor, last *int) (*ent.GenerationDecisionConnection, error) {
	order := &ent.GenerationDecisionOrder{Direction: entgql.OrderDirectionDesc, Field: ent.GenerationDecisionOrderFieldDecidedAt}
	return tenancy.ProjectConnection(ctx, q, decisionInProject, after, first, before, last, ent.WithGenerationDecisionOrder(order))
}

func decisionInProject(tenantID, projectID uuid.UUID) predicate.GenerationDecision {
	return generationdecision.And(generationdecision.TenantID(tenantID), generationdecision.ProjectID(projectID))
}

// agcDecisions checks the filter and the AGC and returns the query of its
// decisions (tenant and project named explicitly, besides the data layer's
// filters).
func (s *Service) agcDecisions(ctx context.Context, agcID uuid.UUID, f DecisionFilter) (*ent.GenerationDecisionQuery, error) {
	tid, pid, err := tenancy.Project(ctx)
	if err != nil {
		return nil, err
	}
	preds, err := f.predicates()
	if err != nil {
		return nil, err
	}
	if err := agcExists(ctx, s.db(ctx), tid, pid, agcID); err != nil {
		return nil, err
	}
	return s.db(ctx).GenerationDecision.Query().Where(decisionInProject(tid, pid),
		generationdecision.ActivityGenerationConfigID(agcID)).Where(preds...), nil
}

// projectDecisions checks the filter and returns the query of the active
// project's decisions.
func (s *Service) projectDecisions(ctx context.Context, f DecisionFilter) (*ent.GenerationDecisionQuery, error) {
	tid, pid, err := tenancy.Project(ctx)
	if err != nil {
		return nil, err
	}
	preds, err := f.predicates()
	if err != nil {
		return nil, err
	}
	return s.db(ctx).GenerationDecision.Query().Where(decisionInProject(tid, pid)).Where(preds...), nil
}

// commerceDecisions checks the filter and the commerce and returns the
// query of the active project's decisions about it.
func (s *Service) commerceDecisions(ctx context.Context, commerceID uuid.UUID, f DecisionFilter) (*ent.GenerationDecisionQuery, error) {
	tid, pid, err := tenancy.Project(ctx)
	if err != nil {
		return nil, err
	}
	f.CommerceID = &commerceID
	preds, err := f.predicates()
	if err != nil {
		return nil, err
	}
	ok, err := s.db(ctx).Commerce.Query().Where(entcommerce.ID(commerceID), entcommerce.TenantID(tid)).Exist(ctx)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, apperr.NotFound(commerce.MsgNotFound)
	}
	return s.db(ctx).GenerationDecision.Query().Where(decisionInProject(tid, pid)).Where(preds...), nil
}
