package trash

import (
	"testing"

	"github.com/reten-io/reten/ent/trashrecord"
	"github.com/reten-io/reten/internal/tenancy"
)

// TestEveryKindRestoresWithItsDeleteLine: the permission a restore needs is
// the one of the kind's delete line in tenancy.Matrix (no second statement
// of it), so every kind must name an existing DELETE line that needs one.
func TestEveryKindRestoresWithItsDeleteLine(t *testing.T) {
	for _, name := range KindValues {
		k := trashrecord.Kind(name)
		ops, err := opsOf(k)
		if err != nil {
			t.Fatal(err)
		}
		e, ok := tenancy.Lookup(ops.deleteLine)
		if !ok || e.Method != "DELETE" || e.Permission == "" || DeletePermission(k) != e.Permission {
			t.Fatalf("%s: delete line %q = %+v (found %v)", k, ops.deleteLine, e, ok)
		}
	}
}
