package commerce

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/ent/commerce"
	"github.com/reten-io/reten/ent/commerceroute"
	"github.com/reten-io/reten/ent/route"
	"github.com/reten-io/reten/internal/apperr"
	"github.com/reten-io/reten/internal/tenancy"
	"github.com/reten-io/reten/internal/txn"
)

// MaxRoutes is the most routes a commerce is assigned to.
const MaxRoutes = 100

// Messages of the route assignment (designed in the class-validator style).
var MsgRouteCodesTooMany = fmt.Sprintf("route_codes must contain no more than %d elements", MaxRoutes)

const (
	MsgRouteCodeEmpty    = "each value in route_codes should not be empty"
	MsgRouteCodesUnique  = "All route_codes's elements must be unique"
	MsgRouteCodesUnknown = "route_codes names routes that do not exist: %s"
)

// RouteSet is the routes a commerce is assigned to, by code.
type RouteSet struct {
	CommerceID uuid.UUID
	Routes     []*ent.Route
}

// Routes returns the routes a commerce of the active tenant is assigned to
// (404 "Commerce not found" for another tenant's commerce).
func (s *Service) Routes(ctx context.Context, commerceID uuid.UUID) (*RouteSet, error) {
	tid, err := tenancy.Tenant(ctx)
	if err != nil {
		return nil, err
	}
	db := s.db(ctx)
	if ok, err := db.Commerce.Query().Where(commerce.ID(commerceID), commerce.TenantID(tid)).Exist(ctx); err != nil || !ok {
		return nil, notFoundUnless(err)
	}
	byCommerce, err := routesOf(ctx, db, tid, []uuid.UUID{commerceID})
	return &RouteSet{CommerceID: commerceID, Routes: byCommerce[commerceID]}, err
}

func notFoundUnless(err error) error {
	if err != nil {
		return err
	}
	return apperr.NotFound(MsgNotFound)
}

// SetRoutes replaces the routes a commerce of the active tenant is assigned
// to with the routes of the tenant named by codes (live ones, active or
// not); an empty list removes every assignment. It answers the new set.
// Concurrent replacements of one commerce take turns (the commerce row is
// locked).
func (s *Service) SetRoutes(ctx context.Context, commerceID uuid.UUID, codes []string) (*RouteSet, error) {
	tid, err := tenancy.Tenant(ctx)
	if err != nil {
		return nil, err
	}
	if err := checkRouteCodes(codes); err != nil {
		return nil, err
	}
	var out *RouteSet
	err = txn.Run(ctx, s.client, func(ctx context.Context, tx *ent.Client) error {
		if _, err := lockCommerce(ctx, tx, tid, commerceID); err != nil {
			return err
		}
		routes, err := routesByCode(ctx, tx, tid, codes)
		if err != nil {
			return err
		}
		if err := assignRoutes(ctx, tx, tid, commerceID, routes); err != nil {
			return err
		}
		out = &RouteSet{CommerceID: commerceID, Routes: routes}
		return nil
	})
	return out, err
}

// checkRouteCodes validates a list of route codes: at most MaxRoutes, none
// blank, no repeats.
func checkRouteCodes(codes []string) error {
	if msgs := routeCodeRules(codes); len(msgs) > 0 {
		return apperr.Validation(msgs...)
	}
	return nil
}

// routeCodeRules returns the broken rules of a list of route codes.
func routeCodeRules(codes []string) []string {
	var msgs []string
	if len(codes) > MaxRoutes {
		msgs = append(msgs, MsgRouteCodesTooMany)
	}
	seen := map[string]bool{}
	blank, repeated := false, false
	for _, c := range codes {
		blank = blank || strings.TrimSpace(c) == ""
		repeated = repeated || seen[c]
		seen[c] = true
	}
	if blank {
		msgs = append(msgs, MsgRouteCodeEmpty)
	}
	if repeated {
		msgs = append(msgs, MsgRouteCodesUnique)
	}
	return msgs
}

// routesByCode reads the tenant's live routes named by codes, by code; a
// code that names none is a 400 listing every such code.
func routesByCode(ctx context.Context, tx *ent.Client, tid uuid.UUID, codes []string) ([]*ent.Route, error) {
	if len(codes) == 0 {
		return nil, nil
	}
	routes, err := tx.Route.Query().Where(route.TenantID(tid), route.CodeIn(codes...)).Order(route.ByCode(), route.ByID()).All(ctx)
	if err != nil {
		return nil, err
	}
	if len(routes) < len(codes) {
		var unknown []string
		for _, c := range codes {
			if !slices.ContainsFunc(routes, func(r *ent.Route) bool { return r.Code == c }) {
				unknown = append(unknown, c)
			}
		}
		return nil, apperr.Validation(fmt.Sprintf(MsgRouteCodesUnknown, strings.Join(unknown, ", ")))
	}
	return routes, nil
}

// assignRoutes makes routes the commerce's whole set: it deletes the other
// assignments and adds the missing ones, leaving the kept ones as they are.
func assignRoutes(ctx context.Context, tx *ent.Client, tid, commerceID uuid.UUID, routes []*ent.Route) error {
	ids := make([]uuid.UUID, len(routes))
	for i, r := range routes {
		ids[i] = r.ID
	}
	if _, err := tx.CommerceRoute.Delete().Where(commerceroute.TenantID(tid), commerceroute.CommerceID(commerceID),
		commerceroute.RouteIDNotIn(ids...)).Exec(ctx); err != nil {
		return err
	}
	kept, err := tx.CommerceRoute.Query().Where(commerceroute.TenantID(tid), commerceroute.CommerceID(commerceID)).
		Select(commerceroute.FieldRouteID).All(ctx)
	if err != nil {
		return err
	}
	var adds []*ent.CommerceRouteCreate
	for _, id := range ids {
		if !slices.ContainsFunc(kept, func(l *ent.CommerceRoute) bool { return l.RouteID == id }) {
			adds = append(adds, tx.CommerceRoute.Create().SetTenantID(tid).SetCommerceID(commerceID).SetRouteID(id))
		}
	}
	return tx.CommerceRoute.CreateBulk(adds...).Exec(ctx)
}

// routesOf reads the live routes of each commerce, by code.
func routesOf(ctx context.Context, db *ent.Client, tid uuid.UUID, commerceIDs []uuid.UUID) (map[uuid.UUID][]*ent.Route, error) {
	links, err := db.CommerceRoute.Query().Where(commerceroute.TenantID(tid), commerceroute.CommerceIDIn(commerceIDs...)).
		WithRoute().All(ctx)
	if err != nil {
		return nil, err
	}
	out := make(map[uuid.UUID][]*ent.Route, len(commerceIDs))
	for _, l := range links {
		if l.Edges.Route != nil { // a route in the trash is not shown
			out[l.CommerceID] = append(out[l.CommerceID], l.Edges.Route)
		}
	}
	for _, rs := range out {
		slices.SortFunc(rs, func(a, b *ent.Route) int { return strings.Compare(a.Code, b.Code) })
	}
	return out, nil
}
