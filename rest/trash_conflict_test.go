package rest_test

import (
	"testing"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent/trashrecord"
	"github.com/reten-io/reten/internal/apptest"
)

// TestRestoreConflictsOfEveryKind: deleting through the API frees a unique
// value; when it is taken meanwhile, restoring answers 409 and changes nothing.
func TestRestoreConflictsOfEveryKind(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		acme := env.Bootstrap("Acme")
		h := apptest.JWT(env.Login(acme.Email), acme.TenantID, uuid.Nil)
		cases := []struct {
			name, path string
			body       map[string]any
		}{
			{"commerce external id", "/api/commerces", map[string]any{"name": "Kiosko", "external_id": "C-1"}},
			{"operator email", "/api/operators", map[string]any{"type": "SALESMAN", "name": "Ana", "email": "ana@acme.test"}},
			{"operator type and external id", "/api/operators", map[string]any{"type": "CALLCENTER", "name": "Bo", "external_id": "OP-9"}},
			{"supervisor email", "/api/supervisors", map[string]any{"name": "Sara", "email": "sara@acme.test"}},
		}
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				res := env.Do("POST", c.path, c.body, h)
				if res.Status != 201 {
					t.Fatalf("create: %d %s", res.Status, res.Body)
				}
				id := res.Map(t)["id"].(string)
				if res := env.Do("DELETE", c.path+"/"+id, nil, h); res.Status != 204 {
					t.Fatalf("delete: %d %s", res.Status, res.Body)
				}
				// The freed value is taken by a new record.
				if res := env.Do("POST", c.path, c.body, h); res.Status != 201 {
					t.Fatalf("re-create: %d %s", res.Status, res.Body)
				}
				rec, err := env.App.DB.Client.TrashRecord.Query().Where(trashrecord.RecordID(uuid.MustParse(id))).Only(sys)
				if err != nil {
					t.Fatal(err)
				}
				apptest.ExpectError(t, env.Do("POST", "/api/trash/"+rec.ID.String()+"/restore", nil, h), 409,
					"Cannot restore: another record now uses the same unique value")
				// Still archived, still in the trash.
				if res := env.Do("GET", c.path+"/"+id, nil, h); res.Status != 404 {
					t.Fatalf("restored despite the conflict: %d %s", res.Status, res.Body)
				}
				if res := env.Do("GET", "/api/trash/"+rec.ID.String(), nil, h); res.Status != 200 {
					t.Fatalf("trash record after the conflict: %d %s", res.Status, res.Body)
				}
			})
		}
	})
}
