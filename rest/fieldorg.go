package rest

import (
	"encoding/json"
	"fmt"
	"net/http"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/internal/apperr"
	"github.com/reten-io/reten/internal/fieldorg"
	"github.com/reten-io/reten/internal/paging"
)

// fieldOrgHandlers maps the REST lines of tenancy.fieldOrgMatrix to their handlers.
func (a *api) fieldOrgHandlers() map[string]handler {
	return map[string]handler{
		"GET /operators":                           a.listOperators,
		"POST /operators":                          a.createOperator,
		"POST /operators/sync":                     a.syncOperators,
		"GET /operators/{id}":                      a.getOperator,
		"PATCH /operators/{id}":                    a.updateOperator,
		"DELETE /operators/{id}":                   a.deleteOperator,
		"POST /integration/operators/batch-upsert": a.batchUpsertOperators,
		"GET /routes":                              a.listRoutes,
		"POST /routes":                             a.createRoute,
		"GET /routes/{id}":                         a.getRoute,
		"PATCH /routes/{id}":                       a.updateRoute,
		"DELETE /routes/{id}":                      a.deleteRoute,
		"POST /routes/{id}/operators":              a.addRouteOperator,
		"DELETE /routes/{id}/operators/{opId}":     a.removeRouteOperator,
		"POST /integration/routes/batch-upsert":    a.batchUpsertRoutes,
		"GET /supervisors":                         a.listSupervisors,
		"POST /supervisors":                        a.createSupervisor,
		"GET /supervisors/{id}":                    a.getSupervisor,
		"PATCH /supervisors/{id}":                  a.updateSupervisor,
		"DELETE /supervisors/{id}":                 a.deleteSupervisor,
	}
}

// Messages of field organisation decoding.
const (
	msgFOItemsArray     = "items must be an array"
	msgFOOperatorsArray = "operators must be an array"
	msgFOIsActiveQuery  = "is_active must be a boolean value"
	msgFORouteIDs       = "each value in route_ids must be a UUID"
	msgFOOperatorIDs    = "each value in operator_ids must be a UUID"
)

// ---- decoding helpers (prefixed fo: the rest package is shared) ----

// foNullable reads an optional string whose null means "clear": nil when
// missing, "" when null.
func foNullable(b *body, name, notString string) *string {
	raw, ok := b.fields[name]
	if !ok {
		return nil
	}
	if string(raw) == "null" {
		empty := ""
		return &empty
	}
	var v string
	if err := json.Unmarshal(raw, &v); err != nil {
		b.fail(notString)
		return nil
	}
	return &v
}

// foObject reads a JSON object member: nil when missing, an empty map when
// null (clears on update).
func foObject(b *body, name, notObject string) map[string]any {
	m, present := b.objectMember(name, notObject)
	if present && m == nil && string(b.fields[name]) == "null" {
		return map[string]any{}
	}
	return m
}

// foUUIDs reads an array of UUIDs: nil when missing or null.
func foUUIDs(b *body, name, invalid string) []uuid.UUID {
	strs, ok := b.strs(name, invalid)
	if !ok {
		return nil
	}
	out := make([]uuid.UUID, 0, len(strs))
	for _, s := range strs {
		id, err := uuid.Parse(s)
		if err != nil {
			b.fail(invalid)
			return nil
		}
		out = append(out, id)
	}
	return out
}

// foArray reads an array member as raw elements; missing, null or another
// type adds notArray.
func foArray(b *body, name, notArray string) ([]json.RawMessage, bool) {
	if items, ok := b.array(name, notArray); ok {
		return items, true
	}
	if raw, sent := b.fields[name]; !sent || string(raw) == "null" {
		b.fail(notArray)
	}
	return nil, false
}

// foElement decodes one element of an item array as a body whose members
// must be in allowed; a non-object element carries fieldorg.MsgItemNotObject.
func foElement(raw json.RawMessage, allowed ...string) *body {
	b, ok := objectBody(raw, allowed...)
	if !ok {
		b.fail(fieldorg.MsgItemNotObject)
	}
	return b
}

// foListQuery parses page, per_page and is_active.
func foListQuery(r *http.Request) (paging.Page, *bool, error) {
	q := r.URL.Query()
	p, msgs := paging.Parse(q.Get("page"), q.Get("per_page"))
	var active *bool
	switch q.Get("is_active") {
	case "":
	case "true":
		active = new(bool)
		*active = true
	case "false":
		active = new(bool)
	default:
		msgs = append(msgs, msgFOIsActiveQuery)
	}
	if len(msgs) > 0 {
		return p, nil, apperr.Validation(msgs...)
	}
	return p, active, nil
}

// ---- operators ----

// operatorDTO is the SPEC.md operator shape.
type operatorDTO struct {
	ID            uuid.UUID `json:"id"`
	Name          string    `json:"name"`
	Email         *string   `json:"email"`
	Phone         *string   `json:"phone"`
	Type          string    `json:"type"`
	ExternalID    *string   `json:"externalId"`
	IsActive      bool      `json:"isActive"`
	IsPlaceholder bool      `json:"isPlaceholder"`
}

func presentOperator(o *ent.Operator) operatorDTO {
	return operatorDTO{ID: o.ID, Name: o.Name, Email: o.Email, Phone: o.Phone, Type: string(o.Type),
		ExternalID: o.ExternalID, IsActive: o.IsActive, IsPlaceholder: o.IsPlaceholder}
}

// foBatchDTO is the outcome of a sync ({created, updated, total}) or a
// batch upsert (plus errors).
type foBatchDTO struct {
	Created int               `json:"created"`
	Updated int               `json:"updated"`
	Total   int               `json:"total"`
	Errors  *[]foItemErrorDTO `json:"errors,omitempty"`
}

type foItemErrorDTO struct {
	Index    int      `json:"index"`
	Messages []string `json:"messages"`
}

func presentFOBatch(res *fieldorg.BatchResult, withErrors bool) foBatchDTO {
	out := foBatchDTO{Created: res.Created, Updated: res.Updated, Total: res.Total}
	if withErrors {
		errs := make([]foItemErrorDTO, len(res.Errors))
		for i, e := range res.Errors {
			errs[i] = foItemErrorDTO{Index: e.Index, Messages: e.Messages}
		}
		out.Errors = &errs
	}
	return out
}

func (a *api) createOperator(w http.ResponseWriter, r *http.Request) error {
	b, err := decodeBody(r, "type", "name", "email", "phone", "external_id", "is_placeholder", "metadata")
	if err != nil {
		return err
	}
	var in fieldorg.OperatorInput
	in.Type, _ = b.str("type", fieldorg.MsgTypeValues)
	in.Name, _ = b.str("name", msgNameString)
	in.Email = b.optStr("email", "email must be a string")
	in.Phone = b.optStr("phone", "phone must be a string")
	in.ExternalID = b.optStr("external_id", "external_id must be a string")
	in.IsPlaceholder = b.boolean("is_placeholder", "is_placeholder must be a boolean value")
	in.Metadata = foObject(b, "metadata", "metadata must be an object")
	if err := b.err(); err != nil {
		return err
	}
	o, err := a.FieldOrg.CreateOperator(r.Context(), in)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusCreated, presentOperator(o))
	return nil
}

func (a *api) listOperators(w http.ResponseWriter, r *http.Request) error {
	p, active, err := foListQuery(r)
	if err != nil {
		return err
	}
	f := fieldorg.OperatorFilter{Type: r.URL.Query().Get("type"), IsActive: active, Search: r.URL.Query().Get("search")}
	list, err := a.FieldOrg.ListOperators(r.Context(), f, p)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, presentPage(list, presentOperator))
	return nil
}

func (a *api) getOperator(w http.ResponseWriter, r *http.Request) error {
	id, err := pathUUID(r, "id")
	if err != nil {
		return err
	}
	o, err := a.FieldOrg.GetOperator(r.Context(), id)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, presentOperator(o))
	return nil
}

func (a *api) updateOperator(w http.ResponseWriter, r *http.Request) error {
	id, err := pathUUID(r, "id")
	if err != nil {
		return err
	}
	b, err := decodeBody(r, "name", "email", "phone", "external_id", "is_active", "is_placeholder", "metadata")
	if err != nil {
		return err
	}
	var in fieldorg.OperatorPatch
	in.Name = foNullable(b, "name", msgNameString)
	in.Email = foNullable(b, "email", "email must be a string")
	in.Phone = foNullable(b, "phone", "phone must be a string")
	in.ExternalID = foNullable(b, "external_id", "external_id must be a string")
	in.IsActive = b.boolean("is_active", "is_active must be a boolean value")
	in.IsPlaceholder = b.boolean("is_placeholder", "is_placeholder must be a boolean value")
	in.Metadata = foObject(b, "metadata", "metadata must be an object")
	if err := b.err(); err != nil {
		return err
	}
	o, err := a.FieldOrg.UpdateOperator(r.Context(), id, in)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, presentOperator(o))
	return nil
}

func (a *api) deleteOperator(w http.ResponseWriter, r *http.Request) error {
	id, err := pathUUID(r, "id")
	if err != nil {
		return err
	}
	if err := a.FieldOrg.DeleteOperator(r.Context(), id); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// decodeOperatorItems reads `items` of a sync or batch upsert.
func decodeOperatorItems(r *http.Request, withActive bool) ([]fieldorg.OperatorItem, error) {
	b, err := decodeBody(r, "items")
	if err != nil {
		return nil, err
	}
	raws, _ := foArray(b, "items", msgFOItemsArray)
	if err := b.err(); err != nil {
		return nil, err
	}
	if len(raws) > fieldorg.MaxBatchItems {
		return nil, apperr.Validation(fmt.Sprintf(fieldorg.MsgItemsTooManyFmt, fieldorg.MaxBatchItems))
	}
	allowed := []string{"external_id", "type", "name", "email", "phone", "metadata"}
	if withActive {
		allowed = append(allowed, "is_active")
	}
	items := make([]fieldorg.OperatorItem, len(raws))
	for i, raw := range raws {
		ib := foElement(raw, allowed...)
		it := &items[i]
		it.ExternalID, _ = ib.str("external_id", "external_id must be a string")
		it.Type, _ = ib.str("type", fieldorg.MsgTypeValues)
		it.Name, _ = ib.str("name", msgNameString)
		it.Email = foNullable(ib, "email", "email must be a string")
		it.Phone = foNullable(ib, "phone", "phone must be a string")
		if withActive {
			it.IsActive = ib.boolean("is_active", "is_active must be a boolean value")
		}
		it.Metadata = foObject(ib, "metadata", "metadata must be an object")
		it.Invalid = ib.msgs
	}
	return items, nil
}

func (a *api) syncOperators(w http.ResponseWriter, r *http.Request) error {
	items, err := decodeOperatorItems(r, false)
	if err != nil {
		return err
	}
	res, err := a.FieldOrg.SyncOperators(r.Context(), items)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusCreated, presentFOBatch(res, false))
	return nil
}

func (a *api) batchUpsertOperators(w http.ResponseWriter, r *http.Request) error {
	items, err := decodeOperatorItems(r, true)
	if err != nil {
		return err
	}
	res, err := a.FieldOrg.BatchUpsertOperators(r.Context(), items)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusCreated, presentFOBatch(res, true))
	return nil
}

// ---- routes ----

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

func (a *api) createRoute(w http.ResponseWriter, r *http.Request) error {
	b, err := decodeBody(r, "code", "name")
	if err != nil {
		return err
	}
	var in fieldorg.RouteInput
	in.Code, _ = b.str("code", "code must be a string")
	in.Name, _ = b.str("name", msgNameString)
	if err := b.err(); err != nil {
		return err
	}
	rt, err := a.FieldOrg.CreateRoute(r.Context(), in)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusCreated, presentRoute(rt))
	return nil
}

func (a *api) listRoutes(w http.ResponseWriter, r *http.Request) error {
	p, active, err := foListQuery(r)
	if err != nil {
		return err
	}
	list, err := a.FieldOrg.ListRoutes(r.Context(), fieldorg.RouteFilter{IsActive: active, Search: r.URL.Query().Get("search")}, p)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, presentPage(list, presentRoute))
	return nil
}

func (a *api) getRoute(w http.ResponseWriter, r *http.Request) error {
	id, err := pathUUID(r, "id")
	if err != nil {
		return err
	}
	d, err := a.FieldOrg.GetRoute(r.Context(), id)
	if err != nil {
		return err
	}
	out := routeDetailDTO{routeDTO: presentRoute(d.Route), Operators: make([]routeLinkDTO, len(d.Links))}
	for i, l := range d.Links {
		out.Operators[i] = presentRouteLink(l)
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}

func (a *api) updateRoute(w http.ResponseWriter, r *http.Request) error {
	id, err := pathUUID(r, "id")
	if err != nil {
		return err
	}
	b, err := decodeBody(r, "code", "name", "is_active")
	if err != nil {
		return err
	}
	var in fieldorg.RoutePatch
	in.Code = foNullable(b, "code", "code must be a string")
	in.Name = foNullable(b, "name", msgNameString)
	in.IsActive = b.boolean("is_active", "is_active must be a boolean value")
	if err := b.err(); err != nil {
		return err
	}
	rt, err := a.FieldOrg.UpdateRoute(r.Context(), id, in)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, presentRoute(rt))
	return nil
}

func (a *api) deleteRoute(w http.ResponseWriter, r *http.Request) error {
	id, err := pathUUID(r, "id")
	if err != nil {
		return err
	}
	if err := a.FieldOrg.DeleteRoute(r.Context(), id); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

func (a *api) addRouteOperator(w http.ResponseWriter, r *http.Request) error {
	id, err := pathUUID(r, "id")
	if err != nil {
		return err
	}
	b, err := decodeBody(r, "operator_id", "role")
	if err != nil {
		return err
	}
	var in fieldorg.LinkInput
	if opID := b.optUUID("operator_id", fieldorg.MsgOperatorIDRequired); opID != nil {
		in.OperatorID = *opID
	} else if !b.has("operator_id") || string(b.fields["operator_id"]) == "null" {
		b.fail(fieldorg.MsgOperatorIDRequired)
	}
	in.Role, _ = b.str("role", fieldorg.MsgRoleValues)
	if b.has("role") && string(b.fields["role"]) == "null" {
		b.fail(fieldorg.MsgRoleValues)
	}
	if err := b.err(); err != nil {
		return err
	}
	l, err := a.FieldOrg.AddRouteOperator(r.Context(), id, in)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusCreated, presentRouteLink(l))
	return nil
}

func (a *api) removeRouteOperator(w http.ResponseWriter, r *http.Request) error {
	id, err := pathUUID(r, "id")
	if err != nil {
		return err
	}
	opID, err := pathUUID(r, "opId")
	if err != nil {
		return err
	}
	if err := a.FieldOrg.RemoveRouteOperator(r.Context(), id, opID); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

func (a *api) batchUpsertRoutes(w http.ResponseWriter, r *http.Request) error {
	b, err := decodeBody(r, "items")
	if err != nil {
		return err
	}
	raws, _ := foArray(b, "items", msgFOItemsArray)
	if err := b.err(); err != nil {
		return err
	}
	if len(raws) > fieldorg.MaxBatchItems {
		return apperr.Validation(fmt.Sprintf(fieldorg.MsgItemsTooManyFmt, fieldorg.MaxBatchItems))
	}
	items := make([]fieldorg.RouteItem, len(raws))
	for i, raw := range raws {
		ib := foElement(raw, "code", "name", "is_active", "operators")
		it := &items[i]
		it.Code, _ = ib.str("code", "code must be a string")
		it.Name, _ = ib.str("name", msgNameString)
		it.IsActive = ib.boolean("is_active", "is_active must be a boolean value")
		if ib.has("operators") {
			if ops, ok := foArray(ib, "operators", msgFOOperatorsArray); ok {
				it.Operators = make([]fieldorg.RouteItemOperator, len(ops))
				for n, raw := range ops {
					ob := foElement(raw, "external_id", "type", "role")
					op := &it.Operators[n]
					op.ExternalID, _ = ob.str("external_id", "external_id must be a string")
					op.Type, _ = ob.str("type", fieldorg.MsgTypeValues)
					op.Role, _ = ob.str("role", fieldorg.MsgRoleValues)
					for _, m := range ob.msgs {
						if m == fieldorg.MsgItemNotObject {
							ib.fail(fmt.Sprintf("operators.%d %s", n, m))
						} else {
							ib.fail(fmt.Sprintf("operators.%d.%s", n, m))
						}
					}
				}
			}
		}
		it.Invalid = ib.msgs
	}
	res, err := a.FieldOrg.BatchUpsertRoutes(r.Context(), items)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusCreated, presentFOBatch(res, true))
	return nil
}

// ---- supervisors ----

type supervisorDTO struct {
	ID          uuid.UUID   `json:"id"`
	Name        string      `json:"name"`
	Email       *string     `json:"email"`
	ExternalID  *string     `json:"externalId"`
	Phone       *string     `json:"phone"`
	IsActive    bool        `json:"isActive"`
	RouteIDs    []uuid.UUID `json:"routeIds"`
	OperatorIDs []uuid.UUID `json:"operatorIds"`
}

func presentSupervisor(d *fieldorg.SupervisorDetail) supervisorDTO {
	return supervisorDTO{ID: d.ID, Name: d.Name, Email: d.Email, ExternalID: d.ExternalID, Phone: d.Phone,
		IsActive: d.IsActive, RouteIDs: d.RouteIDs, OperatorIDs: d.OperatorIDs}
}

func (a *api) createSupervisor(w http.ResponseWriter, r *http.Request) error {
	b, err := decodeBody(r, "name", "email", "external_id", "phone", "metadata", "route_ids", "operator_ids")
	if err != nil {
		return err
	}
	var in fieldorg.SupervisorInput
	in.Name, _ = b.str("name", msgNameString)
	in.Email = b.optStr("email", "email must be a string")
	in.ExternalID = b.optStr("external_id", "external_id must be a string")
	in.Phone = b.optStr("phone", "phone must be a string")
	in.Metadata = foObject(b, "metadata", "metadata must be an object")
	in.RouteIDs = foUUIDs(b, "route_ids", msgFORouteIDs)
	in.OperatorIDs = foUUIDs(b, "operator_ids", msgFOOperatorIDs)
	if err := b.err(); err != nil {
		return err
	}
	d, err := a.FieldOrg.CreateSupervisor(r.Context(), in)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusCreated, presentSupervisor(d))
	return nil
}

func (a *api) listSupervisors(w http.ResponseWriter, r *http.Request) error {
	p, active, err := foListQuery(r)
	if err != nil {
		return err
	}
	list, err := a.FieldOrg.ListSupervisors(r.Context(),
		fieldorg.SupervisorFilter{IsActive: active, Search: r.URL.Query().Get("search")}, p)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, presentPage(list, presentSupervisor))
	return nil
}

func (a *api) getSupervisor(w http.ResponseWriter, r *http.Request) error {
	id, err := pathUUID(r, "id")
	if err != nil {
		return err
	}
	d, err := a.FieldOrg.GetSupervisor(r.Context(), id)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, presentSupervisor(d))
	return nil
}

func (a *api) updateSupervisor(w http.ResponseWriter, r *http.Request) error {
	id, err := pathUUID(r, "id")
	if err != nil {
		return err
	}
	b, err := decodeBody(r, "name", "email", "external_id", "phone", "is_active", "metadata", "route_ids", "operator_ids")
	if err != nil {
		return err
	}
	var in fieldorg.SupervisorPatch
	in.Name = foNullable(b, "name", msgNameString)
	in.Email = foNullable(b, "email", "email must be a string")
	in.ExternalID = foNullable(b, "external_id", "external_id must be a string")
	in.Phone = foNullable(b, "phone", "phone must be a string")
	in.IsActive = b.boolean("is_active", "is_active must be a boolean value")
	in.Metadata = foObject(b, "metadata", "metadata must be an object")
	in.RouteIDs = foUUIDs(b, "route_ids", msgFORouteIDs)
	in.OperatorIDs = foUUIDs(b, "operator_ids", msgFOOperatorIDs)
	if err := b.err(); err != nil {
		return err
	}
	d, err := a.FieldOrg.UpdateSupervisor(r.Context(), id, in)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, presentSupervisor(d))
	return nil
}

func (a *api) deleteSupervisor(w http.ResponseWriter, r *http.Request) error {
	id, err := pathUUID(r, "id")
	if err != nil {
		return err
	}
	if err := a.FieldOrg.DeleteSupervisor(r.Context(), id); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}
