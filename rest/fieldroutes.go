package rest

import (
	"context"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/internal/commerce"
	"github.com/reten-io/reten/internal/fieldorg"
)

// Field organisation routes (sales routes), their operator links and their
// batch upsert.

type routeDTO struct {
	ID       uuid.UUID `json:"id"`
	Code     string    `json:"code"`
	Name     string    `json:"name"`
	IsActive bool      `json:"isActive"`
}

func presentRoute(rt *ent.Route) routeDTO {
	return routeDTO{ID: rt.ID, Code: rt.Code, Name: rt.Name, IsActive: rt.IsActive}
}

type routeLinkDTO struct {
	RouteID    uuid.UUID `json:"routeId"`
	OperatorID uuid.UUID `json:"operatorId"`
	Role       string    `json:"role"`
	IsActive   bool      `json:"isActive"`
}

func presentRouteLink(l *ent.RouteOperator) routeLinkDTO {
	return routeLinkDTO{RouteID: l.RouteID, OperatorID: l.OperatorID, Role: string(l.Role), IsActive: l.IsActive}
}

type routeDetailDTO struct {
	routeDTO
	Operators []routeLinkDTO `json:"operators"`
}

func presentRouteDetail(d *fieldorg.RouteDetail) routeDetailDTO {
	return routeDetailDTO{routeDTO: presentRoute(d.Route), Operators: presentAll(d.Links, presentRouteLink)}
}

func routeFilter(q *query) fieldorg.RouteFilter {
	var f fieldorg.RouteFilter
	f.IsActive, f.Search = foFilter(q)
	return f
}

var routeBody = bodyOf(func(b *body) fieldorg.RouteInput {
	return fieldorg.RouteInput{Code: b.str("code").OrZero(), Name: b.str("name").OrZero()}
}, "code", "name")

var routePatchBody = bodyOf(func(b *body) fieldorg.RoutePatch {
	return fieldorg.RoutePatch{Code: foText(b, "code"), Name: foText(b, "name"), IsActive: b.boolean("is_active").Ptr()}
}, "code", "name", "is_active")

// linkBody reads the link of an operator: operator_id is required and role,
// when sent, may not be null (absent keeps the link's role).
var linkBody = bodyOf(func(b *body) fieldorg.LinkInput {
	in := fieldorg.LinkInput{OperatorID: b.uuid("operator_id").OrZero()}
	b.require("operator_id", kindUUID)
	in.Role = b.str("role", fieldorg.MsgRoleValues).OrZero()
	b.forbidNull("role", kindString, fieldorg.MsgRoleValues)
	return in
}, "operator_id", "role")

// linkPath names a route's link to an operator.
var linkPath = []string{"id", "opId"}

func (a *api) removeRouteOperator(ctx context.Context, ids []uuid.UUID) error {
	return a.FieldOrg.RemoveRouteOperator(ctx, ids[0], ids[1])
}

// routeItemsBody reads the items of a route batch upsert; an item's
// operators are named by path in its messages ("operators.0.role ...").
var routeItemsBody = bodyOf(func(b *body) []fieldorg.RouteItem {
	return foItems(b, []string{"code", "name", "is_active", "operators"}, func(ib *body) fieldorg.RouteItem {
		it := fieldorg.RouteItem{Code: ib.str("code").OrZero(), Name: ib.str("name").OrZero(), IsActive: ib.boolean("is_active").Ptr()}
		if !ib.has("operators") {
			return it
		}
		ops := ib.requiredArray("operators") // sent, it must be an array
		if ops == nil {
			return it
		}
		it.Operators = make([]fieldorg.RouteItemOperator, len(ops))
		for n, raw := range ops {
			if ob := ib.elem("operators", n, raw, "external_id", "type", "role"); ob != nil {
				it.Operators[n] = fieldorg.RouteItemOperator{ExternalID: ob.str("external_id").OrZero(),
					Type: ob.str("type", fieldorg.MsgTypeValues).OrZero(), Role: ob.str("role", fieldorg.MsgRoleValues).OrZero()}
			}
		}
		return it
	}, func(it *fieldorg.RouteItem, msgs []string) { it.Invalid = msgs })
}, "items")

// commerceRoutesDTO is the set of routes a commerce is assigned to.
type commerceRoutesDTO struct {
	CommerceID uuid.UUID  `json:"commerceId"`
	Routes     []routeDTO `json:"routes"`
}

func presentCommerceRoutes(s *commerce.RouteSet) commerceRoutesDTO {
	return commerceRoutesDTO{CommerceID: s.CommerceID, Routes: presentAll(s.Routes, presentRoute)}
}

// commerceRoutesBody reads PUT /api/commerces/:id/routes: route_codes, an
// array of strings, is required ([] removes every assignment).
var commerceRoutesBody = bodyOf(func(b *body) []string {
	codes := b.strs("route_codes").OrZero()
	b.require("route_codes", kindStrings)
	return codes
}, "route_codes")
