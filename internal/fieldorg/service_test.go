package fieldorg_test

import (
	"context"
	"fmt"
	"net/http"
	"reflect"
	"testing"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/ent/operator"
	"github.com/reten-io/reten/internal/auth"
	"github.com/reten-io/reten/internal/dbtest"
	"github.com/reten-io/reten/internal/fieldorg"
	"github.com/reten-io/reten/internal/tenancy"
)

// mustRoute creates a route that must be valid.
func mustRoute(t *testing.T, svc *fieldorg.Service, ctx context.Context, code, name string) *ent.Route {
	t.Helper()
	r, err := svc.CreateRoute(ctx, fieldorg.RouteInput{Code: code, Name: name})
	dbtest.NoError(t, err)
	return r
}

// mustOperator creates a salesman that must be valid.
func mustOperator(t *testing.T, svc *fieldorg.Service, ctx context.Context, name string) *ent.Operator {
	t.Helper()
	op, err := svc.CreateOperator(ctx, fieldorg.OperatorInput{Type: "SALESMAN", Name: name})
	dbtest.NoError(t, err)
	return op
}

// TestOperatorRules: one message per broken rule; the email is unique
// case-insensitively and (type, external_id) per type among the tenant's
// live operators; on PATCH "" clears an optional field and {} the metadata.
func TestOperatorRules(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *dbtest.DB) {
		svc, acme := fieldorg.NewService(db.Client), db.Tenant(t, "Acme")
		admin := acme.Admin()
		_, err := svc.CreateOperator(admin, fieldorg.OperatorInput{Type: "DRIVER", Name: " ", Email: new("nope"),
			Phone: new(fmt.Sprint(make([]int, 30)))})
		dbtest.ExpectError(t, err, http.StatusBadRequest, fieldorg.MsgTypeValues, fieldorg.MsgNameRequired,
			fieldorg.MsgEmailInvalid, fieldorg.MsgPhoneTooLong)

		ana, err := svc.CreateOperator(admin, fieldorg.OperatorInput{Type: "SALESMAN", Name: " Ana ", Email: new(" Ana@X.test "),
			ExternalID: new("E1"), Phone: new(" "), Metadata: map[string]any{"zone": "N"}})
		dbtest.NoError(t, err)
		if ana.Name != "Ana" || *ana.Email != "Ana@X.test" || ana.Phone != nil || *ana.ExternalID != "E1" {
			t.Fatalf("created = %+v", ana)
		}
		_, err = svc.CreateOperator(admin, fieldorg.OperatorInput{Type: "ACTIVATOR", Name: "Other", Email: new("ana@x.TEST")})
		dbtest.ExpectError(t, err, http.StatusConflict, fmt.Sprintf(fieldorg.MsgOperatorEmailTakenFmt, "ana@x.TEST"))
		_, err = svc.CreateOperator(admin, fieldorg.OperatorInput{Type: "SALESMAN", Name: "Other", ExternalID: new("E1")})
		dbtest.ExpectError(t, err, http.StatusConflict, fmt.Sprintf(fieldorg.MsgOperatorExternalIDTakenFmt, "SALESMAN", "E1"))
		bob, err := svc.CreateOperator(admin, fieldorg.OperatorInput{Type: "ACTIVATOR", Name: "Bob", ExternalID: new("E1")})
		dbtest.NoError(t, err)
		_, err = svc.UpdateOperator(admin, bob.ID, fieldorg.OperatorPatch{Email: new("ANA@x.test")})
		dbtest.ExpectError(t, err, http.StatusConflict, fmt.Sprintf(fieldorg.MsgOperatorEmailTakenFmt, "ANA@x.test"))

		up, err := svc.UpdateOperator(admin, ana.ID, fieldorg.OperatorPatch{Email: new(""), ExternalID: new(" "),
			Phone: new(" +56 9 "), Metadata: map[string]any{}})
		dbtest.NoError(t, err)
		if up.Email != nil || up.EmailKey != nil || up.ExternalID != nil || *up.Phone != "+56 9" || up.Metadata != nil || up.Name != "Ana" {
			t.Fatalf("updated = %+v", up)
		}
		// Archived operators free their email at once.
		dbtest.NoError(t, svc.DeleteOperator(admin, bob.ID))
		if _, err := svc.CreateOperator(admin, fieldorg.OperatorInput{Type: "ACTIVATOR", Name: "Bob 2", ExternalID: new("E1")}); err != nil {
			t.Fatalf("reuse an archived operator's external id: %v", err)
		}
	})
}

// TestSupervisorAssignments: the routes and operators supervised must be
// live records of the tenant; an update replaces the sent kind only.
func TestSupervisorAssignments(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *dbtest.DB) {
		svc, acme := fieldorg.NewService(db.Client), db.Tenant(t, "Acme")
		admin := acme.Admin()
		r1, r2 := mustRoute(t, svc, admin, "R1", "North"), mustRoute(t, svc, admin, "R2", "South")
		op, foreign := mustOperator(t, svc, admin, "Ana"), mustRoute(t, svc, db.Tenant(t, "Beta").Admin(), "R9", "Far")

		_, err := svc.CreateSupervisor(admin, fieldorg.SupervisorInput{Name: "Sue", RouteIDs: []uuid.UUID{r1.ID, foreign.ID}})
		dbtest.ExpectError(t, err, http.StatusNotFound, fieldorg.MsgRouteNotFound)
		sup, err := svc.CreateSupervisor(admin, fieldorg.SupervisorInput{Name: "Sue", Email: new("sue@x.test"),
			RouteIDs: []uuid.UUID{r1.ID, r1.ID}, OperatorIDs: []uuid.UUID{op.ID}})
		dbtest.NoError(t, err)
		if !reflect.DeepEqual(sup.RouteIDs, []uuid.UUID{r1.ID}) || !reflect.DeepEqual(sup.OperatorIDs, []uuid.UUID{op.ID}) {
			t.Fatalf("assignments = %v %v", sup.RouteIDs, sup.OperatorIDs)
		}
		_, err = svc.UpdateSupervisor(admin, sup.ID, fieldorg.SupervisorPatch{OperatorIDs: []uuid.UUID{uuid.New()}})
		dbtest.ExpectError(t, err, http.StatusNotFound, fieldorg.MsgOperatorNotFound)
		up, err := svc.UpdateSupervisor(admin, sup.ID, fieldorg.SupervisorPatch{RouteIDs: []uuid.UUID{r2.ID}, Email: new("")})
		dbtest.NoError(t, err)
		if !reflect.DeepEqual(up.RouteIDs, []uuid.UUID{r2.ID}) || !reflect.DeepEqual(up.OperatorIDs, []uuid.UUID{op.ID}) || up.Email != nil {
			t.Fatalf("updated = %v %v %v", up.RouteIDs, up.OperatorIDs, up.Email)
		}
		// An archived route's assignment is hidden, not lost.
		dbtest.NoError(t, svc.DeleteRoute(admin, r2.ID))
		got, err := svc.GetSupervisor(admin, sup.ID)
		dbtest.NoError(t, err)
		if len(got.RouteIDs) != 0 || db.Client.SupervisorAssignment.Query().CountX(admin) != 2 {
			t.Fatalf("after archiving the route: %v", got.RouteIDs)
		}
	})
}

// TestOperatorBatches: the batch upsert writes the valid items and reports
// the others by index; the sync is all or nothing.
func TestOperatorBatches(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *dbtest.DB) {
		svc, acme := fieldorg.NewService(db.Client), db.Tenant(t, "Acme")
		admin := acme.Admin()
		_, err := svc.CreateOperator(admin, fieldorg.OperatorInput{Type: "SALESMAN", Name: "Ana", Email: new("ana@x.test")})
		dbtest.NoError(t, err)
		items := func() []fieldorg.OperatorItem {
			return []fieldorg.OperatorItem{
				{ExternalID: "E1", Type: "SALESMAN", Name: "One"},
				{ExternalID: "E2", Type: "SALESMAN", Name: ""},
				{ExternalID: "E1", Type: "SALESMAN", Name: "Again"},
				{ExternalID: "E3", Type: "ACTIVATOR", Name: "Three", Email: new("ANA@x.test")},
				{ExternalID: "E4", Type: "ACTIVATOR", Name: "Four", Email: new("four@x.test")},
				{ExternalID: "E5", Type: "ACTIVATOR", Name: "Five", Email: new("Four@x.test")},
			}
		}
		_, err = svc.SyncOperators(admin, items())
		dbtest.ExpectError(t, err, http.StatusBadRequest, "items.1.name should not be empty",
			"items.2.external_id duplicates item 0 (same type and external_id)")
		res, err := svc.BatchUpsertOperators(admin, items())
		dbtest.NoError(t, err)
		want := []fieldorg.ItemError{
			{Index: 1, Messages: []string{fieldorg.MsgNameRequired}},
			{Index: 2, Messages: []string{fmt.Sprintf(fieldorg.MsgDuplicateOperatorFmt, 0)}},
			{Index: 3, Messages: []string{fmt.Sprintf(fieldorg.MsgOperatorEmailTakenFmt, "ANA@x.test")}},
			{Index: 5, Messages: []string{fmt.Sprintf(fieldorg.MsgEmailInBatchFmt, "Four@x.test", 4, 5)}},
		}
		if res.Created != 2 || res.Updated != 0 || res.Total != 6 || !reflect.DeepEqual(res.Errors, want) {
			t.Fatalf("batch = %+v", res)
		}
		// A second run matches on (type, external_id) and writes only changes.
		res, err = svc.BatchUpsertOperators(admin, []fieldorg.OperatorItem{{ExternalID: "E1", Type: "SALESMAN", Name: "Uno"},
			{ExternalID: "E4", Type: "ACTIVATOR", Name: "Four", Email: new(""), IsActive: new(false)}})
		dbtest.NoError(t, err)
		if res.Created != 0 || res.Updated != 2 || len(res.Errors) != 0 {
			t.Fatalf("second batch = %+v", res)
		}
		four := db.Client.Operator.Query().Where(operator.ExternalID("E4")).OnlyX(admin)
		one := db.Client.Operator.Query().Where(operator.ExternalID("E1")).OnlyX(admin)
		if four.Email != nil || four.EmailKey != nil || four.IsActive || four.Name != "Four" || one.Name != "Uno" {
			t.Fatalf("after the second batch: %+v %+v", four, one)
		}
	})
}

// TestTenancy: another tenant's records are not found, a link needs both
// records in the caller's tenant, and a caller needs the permission.
func TestTenancy(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *dbtest.DB) {
		svc, acme := fieldorg.NewService(db.Client), db.Tenant(t, "Acme")
		admin, beta := acme.Admin(), db.Tenant(t, "Beta").Admin()
		op, r, betaOp := mustOperator(t, svc, admin, "Ana"), mustRoute(t, svc, admin, "R1", "North"), mustOperator(t, svc, beta, "Bea")

		_, err := svc.GetOperator(beta, op.ID)
		dbtest.ExpectError(t, err, http.StatusNotFound, fieldorg.MsgOperatorNotFound)
		_, err = svc.UpdateRoute(beta, r.ID, fieldorg.RoutePatch{Name: new("Mine")})
		dbtest.ExpectError(t, err, http.StatusNotFound, fieldorg.MsgRouteNotFound)
		dbtest.ExpectError(t, svc.DeleteOperator(beta, op.ID), http.StatusNotFound, fieldorg.MsgOperatorNotFound)
		_, err = svc.AddRouteOperator(admin, r.ID, fieldorg.LinkInput{OperatorID: betaOp.ID})
		dbtest.ExpectError(t, err, http.StatusNotFound, fieldorg.MsgOperatorNotFound)
		// The same route code is free in another tenant.
		if _, err := svc.CreateRoute(beta, fieldorg.RouteInput{Code: "R1", Name: "North"}); err != nil {
			t.Fatalf("another tenant's route code: %v", err)
		}
		_, err = svc.CreateRoute(admin, fieldorg.RouteInput{Code: " R1 ", Name: "Again"})
		dbtest.ExpectError(t, err, http.StatusConflict, fmt.Sprintf(fieldorg.MsgRouteCodeTakenFmt, "R1"))

		link, err := svc.AddRouteOperator(acme.As(auth.PermRouteManage), r.ID, fieldorg.LinkInput{OperatorID: op.ID, Role: "LEAD"})
		dbtest.NoError(t, err)
		again, err := svc.AddRouteOperator(admin, r.ID, fieldorg.LinkInput{OperatorID: op.ID})
		dbtest.NoError(t, err)
		if again.ID != link.ID || again.Role != "LEAD" {
			t.Fatalf("link again = %+v, want the existing LEAD link", again)
		}
		// The permission is the matrix line's, applied on entering it.
		_, err = tenancy.Enter(acme.As(auth.PermRouteView), "POST /routes/{id}/operators")
		dbtest.ExpectError(t, err, http.StatusForbidden, "Required permissions: "+auth.PermRouteManage)
		dbtest.ExpectError(t, svc.RemoveRouteOperator(beta, r.ID, op.ID), http.StatusNotFound, fieldorg.MsgRouteNotFound)
		dbtest.NoError(t, svc.RemoveRouteOperator(admin, r.ID, op.ID))
		dbtest.ExpectError(t, svc.RemoveRouteOperator(admin, r.ID, op.ID), http.StatusNotFound, fieldorg.MsgLinkNotFound)
	})
}
