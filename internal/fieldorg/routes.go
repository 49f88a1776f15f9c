package fieldorg

import (
	"context"
	"fmt"
	"strings"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/ent/operator"
	"github.com/reten-io/reten/ent/route"
	"github.com/reten-io/reten/ent/routeoperator"
	"github.com/reten-io/reten/internal/apperr"
	"github.com/reten-io/reten/internal/fields"
	"github.com/reten-io/reten/internal/paging"
	"github.com/reten-io/reten/internal/tenancy"
	"github.com/reten-io/reten/internal/trash"
	"github.com/reten-io/reten/internal/txn"
)

// RouteInput is the body of POST /api/routes.
type RouteInput struct {
	Code, Name string
}

func checkCode(code string) []string {
	return fields.Text(code, maxText, MsgCodeRequired, MsgCodeTooLong)
}

// RoutePatch is the body of PATCH /api/routes/:id; nil fields are unchanged.
type RoutePatch struct {
	Code, Name *string
	IsActive   *bool
}

// RouteFilter narrows GET /api/routes.
type RouteFilter struct {
	IsActive *bool
	Search   string // code or name contains (case-insensitive)
}

// RouteDetail is a route with its operator links (links to archived
// operators are hidden until the operator is restored).
type RouteDetail struct {
	*ent.Route
	Links []*ent.RouteOperator
}

// LinkInput is the body of POST /api/routes/:id/operators; Role "" means
// MEMBER on a new link and keeps the role of an existing one.
type LinkInput struct {
	OperatorID uuid.UUID
	Role       string
}

// routeCodeFree answers 409 when another live route of the tenant has code.
func routeCodeFree(ctx context.Context, tx *ent.Client, tenantID, self uuid.UUID, code string) error {
	return apperr.ConflictIfExists(ctx, tx.Route.Query().Where(route.TenantID(tenantID), route.Code(code), route.IDNEQ(self)),
		fmt.Sprintf(MsgRouteCodeTakenFmt, code))
}

// CreateRoute creates a route in the active tenant.
func (s *Service) CreateRoute(ctx context.Context, in RouteInput) (*ent.Route, error) {
	check := func() []string {
		in.Code, in.Name = strings.TrimSpace(in.Code), strings.TrimSpace(in.Name)
		return append(checkCode(in.Code), checkName(in.Name)...)
	}
	return write(ctx, s.client, check, func(ctx context.Context, tx *ent.Client, tenantID uuid.UUID) (*ent.Route, error) {
		if err := routeCodeFree(ctx, tx, tenantID, uuid.Nil, in.Code); err != nil {
			return nil, err
		}
		r, err := tx.Route.Create().SetTenantID(tenantID).SetCode(in.Code).SetName(in.Name).Save(ctx)
		return r, apperr.FromEnt(err, "", fmt.Sprintf(MsgRouteCodeTakenFmt, in.Code))
	})
}

// routeOf loads a live route of the tenant (404 otherwise).
func routeOf(ctx context.Context, c *ent.Client, tenantID, id uuid.UUID) (*ent.Route, error) {
	r, err := c.Route.Query().Where(route.ID(id), route.TenantID(tenantID)).Only(ctx)
	return r, apperr.FromEnt(err, MsgRouteNotFound, "")
}

// GetRoute returns a route of the active tenant with its operator links.
func (s *Service) GetRoute(ctx context.Context, id uuid.UUID) (*RouteDetail, error) {
	r, err := tenancy.Get(ctx, s.db(ctx), id, routeOf)
	if err != nil {
		return nil, err
	}
	links, err := s.RouteLinks(ctx, r.ID)
	if err != nil {
		return nil, err
	}
	return &RouteDetail{Route: r, Links: links}, nil
}

// RouteLinks returns the operator links of a route, oldest first (links to
// archived operators are hidden).
func (s *Service) RouteLinks(ctx context.Context, routeID uuid.UUID) ([]*ent.RouteOperator, error) {
	tenantID, err := tenancy.Tenant(ctx)
	if err != nil {
		return nil, err
	}
	return s.db(ctx).RouteOperator.Query().
		Where(routeoperator.TenantID(tenantID), routeoperator.RouteID(routeID),
			routeoperator.HasOperatorWith(operator.ArchivedAtIsNil())).
		Order(routeoperator.ByCreatedAt(), routeoperator.ByID()).All(ctx)
}

// ListRoutes returns a page of the tenant's routes, by code.
func (s *Service) ListRoutes(ctx context.Context, f RouteFilter, p paging.Page) (*paging.List[*ent.Route], error) {
	q := s.db(ctx).Route.Query()
	if f.IsActive != nil {
		q.Where(route.IsActive(*f.IsActive))
	}
	if term := strings.TrimSpace(f.Search); term != "" {
		q.Where(route.Or(route.CodeContainsFold(term), route.NameContainsFold(term)))
	}
	return tenancy.List(ctx, q, route.TenantID, paging.Asc(route.FieldCode, route.FieldID), p)
}

// RouteConnection pages through the tenant's routes (GraphQL).
func (s *Service) RouteConnection(ctx context.Context, after *ent.Cursor, first *int, before *ent.Cursor, last *int,
	orderBy *ent.RouteOrder, where *ent.RouteWhereInput) (*ent.RouteConnection, error) {
	return tenancy.Connection(ctx, s.db(ctx).Route.Query(), route.TenantID, after, first, before, last,
		ent.WithRouteOrder(orderBy), ent.WithRouteFilter(where.Filter))
}

// UpdateRoute changes a route of the active tenant.
func (s *Service) UpdateRoute(ctx context.Context, id uuid.UUID, in RoutePatch) (*ent.Route, error) {
	check := func() (msgs []string) {
		in.Code, in.Name = fields.Trim(in.Code), fields.Trim(in.Name)
		if in.Code != nil {
			msgs = checkCode(*in.Code)
		}
		if in.Name != nil {
			msgs = append(msgs, checkName(*in.Name)...)
		}
		return msgs
	}
	return write(ctx, s.client, check, func(ctx context.Context, tx *ent.Client, tenantID uuid.UUID) (*ent.Route, error) {
		r, err := routeOf(ctx, tx, tenantID, id)
		if err != nil {
			return nil, err
		}
		code := r.Code
		if in.Code != nil {
			code = *in.Code
			if err := routeCodeFree(ctx, tx, tenantID, r.ID, code); err != nil {
				return nil, err
			}
		}
		saved, err := tx.Route.UpdateOne(r).SetNillableCode(in.Code).SetNillableName(in.Name).
			SetNillableIsActive(in.IsActive).Save(ctx)
		return saved, apperr.FromEnt(err, MsgRouteNotFound, fmt.Sprintf(MsgRouteCodeTakenFmt, code))
	})
}

// DeleteRoute archives a route into the trash (restorable with its operator
// links); its code becomes free at once.
func (s *Service) DeleteRoute(ctx context.Context, id uuid.UUID) error {
	return archive(ctx, s.client, id, trash.KindRoute, routeOf,
		func(r *ent.Route) string { return r.Code + " - " + r.Name })
}

func validRole(role string) bool {
	return role == string(routeoperator.RoleLEAD) || role == string(routeoperator.RoleMEMBER)
}

// AddRouteOperator links an operator to a route, idempotently: an existing
// link is returned (reactivated when inactive; its role changed when Role is
// given). Both must be live records of the active tenant (404 otherwise).
func (s *Service) AddRouteOperator(ctx context.Context, routeID uuid.UUID, in LinkInput) (*ent.RouteOperator, error) {
	tenantID, err := tenancy.Tenant(ctx)
	if err != nil {
		return nil, err
	}
	in.Role = strings.TrimSpace(in.Role)
	var msgs []string
	if in.OperatorID == uuid.Nil {
		msgs = append(msgs, MsgOperatorIDRequired)
	}
	if in.Role != "" && !validRole(in.Role) {
		msgs = append(msgs, MsgRoleValues)
	}
	if len(msgs) > 0 {
		return nil, apperr.Validation(msgs...)
	}
	var out *ent.RouteOperator
	link := func(ctx context.Context, tx *ent.Client) error {
		r, err := routeOf(ctx, tx, tenantID, routeID)
		if err != nil {
			return err
		}
		o, err := operatorOf(ctx, tx, tenantID, in.OperatorID)
		if err != nil {
			return err
		}
		l, err := tx.RouteOperator.Query().Where(routeoperator.TenantID(tenantID), routeoperator.RouteID(r.ID),
			routeoperator.OperatorID(o.ID)).Only(ctx)
		switch {
		case ent.IsNotFound(err):
			role := routeoperator.RoleMEMBER
			if in.Role != "" {
				role = routeoperator.Role(in.Role)
			}
			out, err = tx.RouteOperator.Create().SetTenantID(tenantID).SetRouteID(r.ID).SetOperatorID(o.ID).
				SetRole(role).Save(ctx)
			return err
		case err != nil:
			return err
		case l.IsActive && (in.Role == "" || string(l.Role) == in.Role):
			out = l
			return nil
		}
		u := tx.RouteOperator.UpdateOne(l).SetIsActive(true)
		if in.Role != "" {
			u.SetRole(routeoperator.Role(in.Role))
		}
		out, err = u.Save(ctx)
		return err
	}
	err = txn.Run(ctx, s.client, link)
	if ent.IsConstraintError(err) && ent.TxFromContext(ctx) == nil {
		// A concurrent request created the same link: read it back.
		err = txn.Run(ctx, s.client, link)
	}
	return out, err
}

// RemoveRouteOperator hard deletes the link of an operator to a route.
func (s *Service) RemoveRouteOperator(ctx context.Context, routeID, operatorID uuid.UUID) error {
	tenantID, err := tenancy.Tenant(ctx)
	if err != nil {
		return err
	}
	return txn.Run(ctx, s.client, func(ctx context.Context, tx *ent.Client) error {
		if _, err := routeOf(ctx, tx, tenantID, routeID); err != nil {
			return err
		}
		n, err := tx.RouteOperator.Delete().Where(routeoperator.TenantID(tenantID), routeoperator.RouteID(routeID),
			routeoperator.OperatorID(operatorID)).Exec(ctx)
		if err != nil {
			return err
		}
		if n == 0 {
			return apperr.NotFound(MsgLinkNotFound)
		}
		return nil
	})
}
