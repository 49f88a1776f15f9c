package rest_test

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/ent/commerce"
	"github.com/reten-io/reten/ent/commerceaddress"
	"github.com/reten-io/reten/ent/commercecontact"
	"github.com/reten-io/reten/ent/commerceuser"
	"github.com/reten-io/reten/ent/commerceuserrole"
	"github.com/reten-io/reten/internal/app"
	"github.com/reten-io/reten/internal/apptest"
	"github.com/reten-io/reten/internal/auth"
)

// cmWriteStatement matches the debug line of a statement that writes rows
// (SELECT ... FOR UPDATE starts with SELECT and does not match).
var cmWriteStatement = regexp.MustCompile(`query=(?i:insert|update|delete)\b`)

// cmStamps is every commerce row of the tenant, named by its natural key
// ("address:<commerce>/<alias>"...), with its id and updated_at: a rewritten
// row moves its updated_at, a recreated one its id.
func cmStamps(t *testing.T, env *apptest.Env, tenantID uuid.UUID, exts ...string) map[string]string {
	t.Helper()
	out := map[string]string{}
	stamp := func(key string, id uuid.UUID, at time.Time) {
		out[key] = id.String() + "@" + at.UTC().Format(time.RFC3339Nano)
	}
	for _, ext := range exts {
		c := cmCommerce(t, env, tenantID, ext)
		stamp("commerce:"+ext, c.ID, c.UpdatedAt)
		for _, a := range c.Edges.Addresses {
			stamp("address:"+ext+"/"+a.AddressAlias, a.ID, a.UpdatedAt)
		}
		for _, u := range c.Edges.Users {
			p := ext + "/" + *u.ExternalID
			stamp("user:"+p, u.ID, u.UpdatedAt)
			for _, r := range u.Edges.Roles {
				stamp("role:"+p+"/"+string(r.Role), r.ID, r.UpdatedAt)
			}
			for _, ct := range u.Edges.Contacts {
				stamp(fmt.Sprintf("contact:%s/%s:%s", p, ct.ContactType, ct.Value), ct.ID, ct.UpdatedAt)
			}
		}
	}
	return out
}

// cmMoved lists the keys whose row changed between two cmStamps.
func cmMoved(before, after map[string]string) []string {
	var out []string
	for k := range maps.Keys(after) {
		if before[k] != after[k] {
			out = append(out, k)
		}
	}
	for k := range maps.Keys(before) {
		if _, ok := after[k]; !ok {
			out = append(out, k)
		}
	}
	slices.Sort(out)
	return out
}

// TestCommerceBatchUpsertUnchangedWritesNothing: an item identical to what is
// stored (its commerce and every child it sends, primary flags included)
// runs no INSERT, UPDATE or DELETE, leaves every row's updated_at alone and
// is counted unchanged; an item that changes one child rewrites that child
// only and is counted updated.
func TestCommerceBatchUpsertUnchangedWritesNothing(t *testing.T) {
	var writes atomic.Int64
	counting := func(c *app.Config) {
		c.EntOptions = []ent.Option{ent.Debug(), ent.Log(func(args ...any) {
			if cmWriteStatement.MatchString(fmt.Sprint(args...)) {
				writes.Add(1)
			}
		})}
	}
	apptest.EachWith(t, counting, func(t *testing.T, env *apptest.Env) {
		w := newCMWorld(t, env)
		plain, _ := env.CreateKey(w.acme.TenantID, w.acme.UserID, uuid.Nil, auth.PermCommerceBatchUpsert)
		kh := apptest.Key(plain)
		tid := w.acme.TenantID
		items := []any{
			map[string]any{"external_id": "F-1", "name": "Completo", "tax_id": "7-1", "segment": "B", "is_active": true,
				"metadata": map[string]any{"n": 1.5, "tags": []any{"a", "b"}, "nested": map[string]any{"x": true}},
				"addresses": []any{
					map[string]any{"address_alias": "Casa", "city": "Uno", "street": "Calle", "latitude": -33.45, "longitude": -70.66, "is_primary": true},
					map[string]any{"address_alias": "Bodega", "city": "Dos", "is_active": false},
					map[string]any{"address_alias": "Local", "city": "Tres"},
				},
				"users": []any{
					map[string]any{"external_id": "u1", "name": "Luis", "roles": []string{"ORDERS", "OWNER"}, "contacts": []any{
						map[string]any{"contact_type": "EMAIL", "value": "a@f.cl", "is_primary": true},
						map[string]any{"contact_type": "EMAIL", "value": "b@f.cl"},
						map[string]any{"contact_type": "PHONE", "value": "+56922222222"},
					}},
					map[string]any{"external_id": "u2", "name": "Eva", "is_active": false},
				}},
			map[string]any{"external_id": "P-1", "name": "Plano", "tax_id": ""},
			map[string]any{"external_id": "P-2", "name": "Con metadata", "metadata": map[string]any{"k": "v", "n": 3}},
		}
		exts := []string{"F-1", "P-1", "P-2"}
		if got := cmBatch(t, env, kh, items); got.Created != 3 || got.Total != 3 || len(got.Errors) != 0 {
			t.Fatalf("first run = %s", cmJSON(got))
		}
		// Old timestamps: a rewrite, whenever it happens, moves them.
		past := time.Date(2001, 2, 3, 4, 5, 6, 0, time.UTC)
		db := env.App.DB.Client
		for _, err := range []error{
			db.Commerce.Update().Where(commerce.TenantID(tid)).SetUpdatedAt(past).Exec(sys),
			db.CommerceAddress.Update().Where(commerceaddress.TenantID(tid)).SetUpdatedAt(past).Exec(sys),
			db.CommerceUser.Update().Where(commerceuser.TenantID(tid)).SetUpdatedAt(past).Exec(sys),
			db.CommerceUserRole.Update().Where(commerceuserrole.TenantID(tid)).SetUpdatedAt(past).Exec(sys),
			db.CommerceContact.Update().Where(commercecontact.TenantID(tid)).SetUpdatedAt(past).Exec(sys),
		} {
			if err != nil {
				t.Fatal(err)
			}
		}
		before := cmStamps(t, env, tid, exts...)
		if len(before) != 13 {
			t.Fatalf("stored rows = %v", slices.Sorted(maps.Keys(before)))
		}
		unchanged := func(name string, items []any) {
			t.Helper()
			writes.Store(0)
			got := cmBatch(t, env, kh, items)
			if got.Created != 0 || got.Updated != 0 || got.Unchanged != len(items) || got.Total != len(items) || len(got.Errors) != 0 {
				t.Fatalf("%s = %s", name, cmJSON(got))
			}
			if n := writes.Load(); n != 0 {
				t.Fatalf("%s: %d write statements, want none", name, n)
			}
			if moved := cmMoved(before, cmStamps(t, env, tid, exts...)); len(moved) != 0 {
				t.Fatalf("%s rewrote %v", name, moved)
			}
		}
		unchanged("the same items", items)
		// The same state spelled otherwise: members left out, roles in
		// another order and repeated, contacts in another order, the primary
		// flag sent again on the stored primary.
		unchanged("equivalent items", []any{
			map[string]any{"external_id": "F-1", "name": "Completo",
				"addresses": []any{map[string]any{"address_alias": "Casa", "is_primary": true}, map[string]any{"address_alias": "Local", "is_active": true}},
				"users": []any{map[string]any{"external_id": "u1", "roles": []string{"OWNER", "ORDERS", "OWNER"}, "contacts": []any{
					map[string]any{"contact_type": "EMAIL", "value": "b@f.cl", "is_active": true},
					map[string]any{"contact_type": "EMAIL", "value": "a@f.cl", "is_primary": true},
				}}}},
			map[string]any{"external_id": "P-1", "name": "Plano", "segment": ""},
			map[string]any{"external_id": "P-2", "name": "Con metadata", "metadata": map[string]any{"n": 3.0, "k": "v"}},
		})

		// A change writes what changed, and only that.
		changed := func(name string, item map[string]any, want ...string) {
			t.Helper()
			writes.Store(0)
			got := cmBatch(t, env, kh, []any{item})
			if writes.Load() == 0 { // the counter sees writes: its zero above means something
				t.Fatalf("%s: no write statement counted", name)
			}
			if got.Created != 0 || got.Updated != 1 || got.Unchanged != 0 || got.Total != 1 || len(got.Errors) != 0 {
				t.Fatalf("%s = %s", name, cmJSON(got))
			}
			after := cmStamps(t, env, tid, exts...)
			if moved := cmMoved(before, after); cmJSON(moved) != cmJSON(want) {
				t.Fatalf("%s rewrote %v, want %v", name, moved, want)
			}
			before = after
		}
		changed("a contact deactivated", map[string]any{"external_id": "F-1", "name": "Completo", "users": []any{
			map[string]any{"external_id": "u1", "contacts": []any{map[string]any{"contact_type": "EMAIL", "value": "b@f.cl", "is_active": false}}}}},
			"contact:F-1/u1/EMAIL:b@f.cl")
		changed("the primary address moved", map[string]any{"external_id": "F-1", "name": "Completo", "addresses": []any{
			map[string]any{"address_alias": "Local", "is_primary": true}}},
			"address:F-1/Casa", "address:F-1/Local")
		changed("a role replaced", map[string]any{"external_id": "F-1", "name": "Completo", "users": []any{
			map[string]any{"external_id": "u1", "roles": []string{"OWNER", "FINANCE"}}}},
			"role:F-1/u1/FINANCE", "role:F-1/u1/ORDERS")
		changed("a commerce renamed", map[string]any{"external_id": "P-1", "name": "Plano 2"}, "commerce:P-1")
		changed("metadata replaced", map[string]any{"external_id": "P-2", "name": "Con metadata", "metadata": map[string]any{"k": "v"}}, "commerce:P-2")
	})
}

// TestCommerceBatchUpsert5000: the largest batch is accepted and written; one more item is refused.
func TestCommerceBatchUpsert5000(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		w := newCMWorld(t, env)
		plain, _ := env.CreateKey(w.acme.TenantID, w.acme.UserID, uuid.Nil, auth.PermCommerceBatchUpsert)
		kh := apptest.Key(plain)
		items := make([]any, 5000)
		for i := range items {
			it := map[string]any{"external_id": fmt.Sprintf("C%05d", i), "name": fmt.Sprintf("Comercio %d", i)}
			if i%7 == 0 {
				it["tax_id"], it["metadata"] = fmt.Sprintf("T-%d", i), map[string]any{"i": i}
			}
			if i%10 == 0 {
				it["addresses"] = []any{map[string]any{"address_alias": "main", "city": "Santiago"}}
			}
			if i%25 == 0 {
				it["users"] = []any{map[string]any{"external_id": "owner", "roles": []string{"OWNER"},
					"contacts": []any{map[string]any{"contact_type": "WHATSAPP", "value": fmt.Sprintf("+569%08d", i)}}}}
			}
			items[i] = it
		}
		if got := cmBatch(t, env, kh, items); got.Created != 5000 || got.Updated != 0 || got.Total != 5000 || len(got.Errors) != 0 {
			t.Fatalf("first run = %d created, %d updated, %d errors", got.Created, got.Updated, len(got.Errors))
		}
		db := env.App.DB.Client
		if n, _ := db.Commerce.Query().Where(commerce.TenantID(w.acme.TenantID)).Count(sys); n != 5000 {
			t.Fatalf("commerces = %d", n)
		}
		for _, ext := range []string{"C00007", "C00008"} {
			c := cmCommerce(t, env, w.acme.TenantID, ext)
			if ext == "C00007" && (c.TaxID != "T-7" || c.Metadata["i"] != 7.0) || ext == "C00008" && (c.TaxID != "" || c.Metadata != nil) {
				t.Fatalf("%s = tax %q metadata %v", ext, c.TaxID, c.Metadata)
			}
		}
		if n, _ := db.CommerceAddress.Query().Where(commerceaddress.IsPrimary(true)).Count(sys); n != 500 {
			t.Fatalf("primary addresses = %d", n)
		}
		if n, _ := db.CommerceContact.Query().Where(commercecontact.IsPrimary(true)).Count(sys); n != 200 {
			t.Fatalf("primary contacts = %d", n)
		}
		// The same batch again, one item renamed: that item is updated, the
		// 4999 others are unchanged (nothing written), nothing is duplicated.
		items[1] = map[string]any{"external_id": "C00001", "name": "Renombrado"}
		if got := cmBatch(t, env, kh, items); got.Created != 0 || got.Updated != 1 || got.Unchanged != 4999 || len(got.Errors) != 0 {
			t.Fatalf("second run = %d created, %d updated, %d unchanged, %d errors", got.Created, got.Updated, got.Unchanged, len(got.Errors))
		}
		if n, _ := db.CommerceAddress.Query().Count(sys); n != 500 {
			t.Fatalf("addresses after second run = %d", n)
		}
		if c := cmCommerce(t, env, w.acme.TenantID, "C00001"); c.Name != "Renombrado" {
			t.Fatalf("C00001 = %s", c.Name)
		}
		w.expect(kh, "POST", "/integration/commerces/batch-upsert", map[string]any{"items": append(items, map[string]any{"external_id": "X", "name": "X"})},
			400, []string{"items must contain no more than 5000 elements"})
	})
}
