package app_test

import (
	"strings"
	"testing"

	"github.com/reten-io/reten/graph/generated"
	"github.com/reten-io/reten/internal/auth"
	"github.com/reten-io/reten/internal/tenancy"
)

// TestReadPermissionsAgreeWithTheMatrix: the one permission stated outside
// tenancy.Matrix is an entity's read permission (auth.ViewPermission), which
// the GraphQL field guard asks on the fields below a root field, on where
// filters and in node(). A Query line that returns an entity (or a
// connection or list of it) must need that same permission, so that
// reaching the entity through an edge or node() asks what the typed query
// asks (an entity readable by any member leaves its line free to ask more).
func TestReadPermissionsAgreeWithTheMatrix(t *testing.T) {
	query := generated.NewExecutableSchema(generated.Config{}).Schema().Types["Query"]
	checked := 0
	for _, e := range tenancy.Matrix {
		if e.Method != "Query" {
			continue
		}
		f := query.Fields.ForName(e.Path)
		if f == nil {
			t.Fatalf("%s: no such field", e.Key())
		}
		entity := strings.TrimSuffix(strings.TrimSuffix(f.Type.Name(), "Connection"), "Edge")
		perm, known := auth.ViewPermission(entity)
		if !known || perm == "" {
			continue
		}
		checked++
		if e.Permission != perm {
			t.Errorf("%s returns %s, read with %q, but its line needs %q", e.Key(), entity, perm, e.Permission)
		}
	}
	if checked == 0 {
		t.Fatal("no Query line returns an entity")
	}
}
