package fieldorg

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/ent/operator"
	"github.com/reten-io/reten/ent/route"
	"github.com/reten-io/reten/ent/routeoperator"
	"github.com/reten-io/reten/internal/apperr"
)

// Messages of the route batch upsert items.
const (
	MsgDuplicateRouteFmt  = "code duplicates item %d"
	MsgLinkExternalIDFmt  = "operators.%d.external_id should not be empty"
	MsgLinkTypeFmt        = "operators.%d.type must be one of the following values: SALESMAN, ACTIVATOR, CALLCENTER"
	MsgLinkRoleFmt        = "operators.%d.role must be one of the following values: LEAD, MEMBER"
	MsgUnknownOperatorFmt = `operators.%d: Operator not found (type %s, external_id "%s")`
	MsgDuplicateLinkFmt   = "operators.%d duplicates operators.%d (same type and external_id)"
)

// RouteItem is one item of the route batch upsert, matched on code in the
// tenant. On update nil fields are unchanged. A non-nil Operators (even
// empty) sets the route's links: listed operators are linked (or
// reactivated) with their role, links of unlisted operators are deactivated.
type RouteItem struct {
	Code, Name string
	IsActive   *bool
	Operators  []RouteItemOperator
	// Invalid holds the adapter's decoding messages for this item.
	Invalid []string
}

// RouteItemOperator names an operator of the tenant by (type, external_id);
// Role "" means MEMBER.
type RouteItemOperator struct {
	ExternalID, Type, Role string
}

func (it *RouteItem) normalize() {
	it.Code, it.Name = strings.TrimSpace(it.Code), strings.TrimSpace(it.Name)
	for n := range it.Operators {
		op := &it.Operators[n]
		op.ExternalID, op.Type, op.Role = strings.TrimSpace(op.ExternalID), strings.TrimSpace(op.Type), strings.TrimSpace(op.Role)
	}
}

func (it *RouteItem) key() string { return it.Code }

func (it RouteItem) validate() []string {
	if slices.Contains(it.Invalid, MsgItemNotObject) {
		return it.Invalid
	}
	msgs := slices.Clone(it.Invalid)
	if !flagged(it.Invalid, "code") {
		msgs = append(msgs, checkCode(it.Code)...)
	}
	if !flagged(it.Invalid, "name") {
		msgs = append(msgs, checkName(it.Name)...)
	}
	seen := map[string]int{}
	for n, op := range it.Operators {
		prefix := fmt.Sprintf("operators.%d", n)
		bad := flagged(it.Invalid, prefix) || slices.ContainsFunc(it.Invalid, func(m string) bool {
			return strings.HasPrefix(m, prefix+".")
		})
		if bad {
			continue
		}
		if op.ExternalID == "" {
			msgs, bad = append(msgs, fmt.Sprintf(MsgLinkExternalIDFmt, n)), true
		}
		if !validType(op.Type) {
			msgs, bad = append(msgs, fmt.Sprintf(MsgLinkTypeFmt, n)), true
		}
		if op.Role != "" && !validRole(op.Role) {
			msgs, bad = append(msgs, fmt.Sprintf(MsgLinkRoleFmt, n)), true
		}
		if bad {
			continue
		}
		k := operatorKey(op.Type, op.ExternalID)
		if m, dup := seen[k]; dup {
			msgs = append(msgs, fmt.Sprintf(MsgDuplicateLinkFmt, n, m))
			continue
		}
		seen[k] = n
	}
	return msgs
}

// plannedRoute is a valid item with its route (existing, or a new id) and
// the operator ids its links name.
type plannedRoute struct {
	item      RouteItem
	existing  *ent.Route
	id        uuid.UUID
	operators []uuid.UUID // parallel to item.Operators
}

// BatchUpsertRoutes upserts routes matched on code, with their operator
// links, and a per-item outcome: an item naming an unknown operator (or
// breaking a rule) is rejected with its index and messages while the valid
// items are written; each item is written whole (route and links) or not at
// all. Look-ups run in bulk; everything commits in one transaction.
func (s *Service) BatchUpsertRoutes(ctx context.Context, items []RouteItem) (*BatchResult, error) {
	return upsertBatch(ctx, s.client, items, MsgDuplicateRouteFmt, false,
		func(ctx context.Context, tx *ent.Client, tenantID uuid.UUID, valid []int, invalid map[int][]string, out *BatchResult) error {
			plans, err := planRoutes(ctx, tx, tenantID, items, valid, invalid)
			if err != nil {
				return err
			}
			for _, p := range plans {
				if p.existing == nil {
					out.Created++
				} else {
					out.Updated++
				}
			}
			return writeRoutes(ctx, tx, tenantID, plans)
		})
}

// planRoutes resolves, in bulk, the routes matched by code and the operators
// named by the links; items naming an unknown operator join invalid.
func planRoutes(ctx context.Context, tx *ent.Client, tenantID uuid.UUID, items []RouteItem, valid []int,
	invalid map[int][]string) ([]*plannedRoute, error) {
	var codes, extIDs []string
	for _, i := range valid {
		codes = append(codes, items[i].Code)
		for _, op := range items[i].Operators {
			extIDs = append(extIDs, op.ExternalID)
		}
	}
	routes, err := lookup(ctx, codes, func(ctx context.Context, chunk []string) ([]*ent.Route, error) {
		return tx.Route.Query().Where(route.TenantID(tenantID), route.CodeIn(chunk...)).All(ctx)
	}, func(r *ent.Route) string { return r.Code })
	if err != nil {
		return nil, err
	}
	operators, err := lookup(ctx, extIDs, func(ctx context.Context, chunk []string) ([]*ent.Operator, error) {
		return tx.Operator.Query().Where(operator.TenantID(tenantID), operator.ExternalIDIn(chunk...)).
			Select(operator.FieldID, operator.FieldType, operator.FieldExternalID).All(ctx)
	}, func(o *ent.Operator) string { return operatorKey(string(o.Type), *o.ExternalID) })
	if err != nil {
		return nil, err
	}
	var plans []*plannedRoute
	for _, i := range valid {
		it := items[i]
		p := &plannedRoute{item: it, existing: routes[it.Code]}
		var msgs []string
		for n, op := range it.Operators {
			o, ok := operators[operatorKey(op.Type, op.ExternalID)]
			if !ok {
				msgs = append(msgs, fmt.Sprintf(MsgUnknownOperatorFmt, n, op.Type, op.ExternalID))
				p.operators = append(p.operators, uuid.Nil)
				continue
			}
			p.operators = append(p.operators, o.ID)
		}
		if len(msgs) > 0 {
			invalid[i] = msgs
			continue
		}
		if p.existing != nil {
			p.id = p.existing.ID
		} else {
			p.id = uuid.New()
		}
		plans = append(plans, p)
	}
	return plans, nil
}

// writeRoutes inserts new routes in bulk, updates changed ones, then sets
// the links of the items that list operators.
func writeRoutes(ctx context.Context, tx *ent.Client, tenantID uuid.UUID, plans []*plannedRoute) error {
	const conflictMsg = "A route of the request was written concurrently; retry the request"
	var creates []*plannedRoute
	var linked []uuid.UUID // existing routes whose links the request sets
	for _, p := range plans {
		if p.existing == nil {
			creates = append(creates, p)
			continue
		}
		if p.item.Operators != nil {
			linked = append(linked, p.id)
		}
		r, it := p.existing, p.item
		if it.Name == r.Name && (it.IsActive == nil || *it.IsActive == r.IsActive) {
			continue
		}
		if err := tx.Route.UpdateOne(r).SetName(it.Name).SetNillableIsActive(it.IsActive).Exec(ctx); err != nil {
			return apperr.FromEnt(err, "", conflictMsg)
		}
	}
	for chunk := range slices.Chunk(creates, lookupChunk) {
		builders := make([]*ent.RouteCreate, len(chunk))
		for n, p := range chunk {
			builders[n] = tx.Route.Create().SetID(p.id).SetTenantID(tenantID).SetCode(p.item.Code).
				SetName(p.item.Name).SetNillableIsActive(p.item.IsActive)
		}
		if err := tx.Route.CreateBulk(builders...).Exec(ctx); err != nil {
			return apperr.FromEnt(err, "", conflictMsg)
		}
	}
	// Current links of the existing routes, in bulk.
	current := map[uuid.UUID]map[uuid.UUID]*ent.RouteOperator{}
	for chunk := range slices.Chunk(linked, lookupChunk) {
		ls, err := tx.RouteOperator.Query().Where(routeoperator.TenantID(tenantID), routeoperator.RouteIDIn(chunk...),
			// Links to archived operators stay as they are: restoring the operator brings them back.
			routeoperator.HasOperatorWith(operator.ArchivedAtIsNil())).All(ctx)
		if err != nil {
			return err
		}
		for _, l := range ls {
			if current[l.RouteID] == nil {
				current[l.RouteID] = map[uuid.UUID]*ent.RouteOperator{}
			}
			current[l.RouteID][l.OperatorID] = l
		}
	}
	var newLinks []*ent.RouteOperatorCreate
	var deactivate []uuid.UUID
	for _, p := range plans {
		if p.item.Operators == nil {
			continue
		}
		have := current[p.id]
		listed := map[uuid.UUID]bool{}
		for n, op := range p.item.Operators {
			opID := p.operators[n]
			listed[opID] = true
			role := routeoperator.RoleMEMBER
			if op.Role != "" {
				role = routeoperator.Role(op.Role)
			}
			l, ok := have[opID]
			switch {
			case !ok:
				newLinks = append(newLinks, tx.RouteOperator.Create().SetTenantID(tenantID).SetRouteID(p.id).
					SetOperatorID(opID).SetRole(role))
			case !l.IsActive || l.Role != role:
				if err := tx.RouteOperator.UpdateOne(l).SetIsActive(true).SetRole(role).Exec(ctx); err != nil {
					return err
				}
			}
		}
		for opID, l := range have {
			if !listed[opID] && l.IsActive {
				deactivate = append(deactivate, l.ID)
			}
		}
	}
	for chunk := range slices.Chunk(newLinks, lookupChunk) {
		if err := tx.RouteOperator.CreateBulk(chunk...).Exec(ctx); err != nil {
			return apperr.FromEnt(err, "", conflictMsg)
		}
	}
	for chunk := range slices.Chunk(deactivate, lookupChunk) {
		if err := tx.RouteOperator.Update().Where(routeoperator.IDIn(chunk...)).SetIsActive(false).Exec(ctx); err != nil {
			return err
		}
	}
	return nil
}
