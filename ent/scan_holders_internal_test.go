package ent

import (
	"reflect"
	"testing"
	"time"

	"entgo.io/ent/dialect/sql"
	"github.com/google/uuid"
)

// reuseScanHolders makes a query's holders once, zeroed between rows, but
// for the columns that are no fields, and new ones for every row when one
// is of a type it does not reset.
func TestReuseScanHolders(t *testing.T) {
	made := 0
	holders := func([]string) ([]any, error) {
		made++
		return []any{new(uuid.UUID), new(sql.NullString), new(sql.NullTime), new(sql.NullBool), new(sql.NullInt64),
			new(sql.NullFloat64), new([]byte), &sql.NullScanner{S: new(uuid.UUID)}}, nil
	}
	scan := reuseScanHolders(holders)
	first, _ := scan(nil)
	id := uuid.New()
	*first[0].(*uuid.UUID) = id
	*first[1].(*sql.NullString) = sql.NullString{String: "a", Valid: true}
	*first[2].(*sql.NullTime) = sql.NullTime{Time: time.Now(), Valid: true}
	*first[3].(*sql.NullBool) = sql.NullBool{Bool: true, Valid: true}
	*first[4].(*sql.NullInt64) = sql.NullInt64{Int64: 7, Valid: true}
	*first[5].(*sql.NullFloat64) = sql.NullFloat64{Float64: 1.5, Valid: true}
	*first[6].(*[]byte) = []byte("x")
	ns := first[7].(*sql.NullScanner)
	*ns.S.(*uuid.UUID), ns.Valid = id, true
	second, _ := scan(nil)
	if made != 1 || &second[0] != &first[0] {
		t.Fatalf("holders made %d times, want once", made)
	}
	fresh, _ := holders(nil)
	for i := range second {
		if !reflect.DeepEqual(second[i], fresh[i]) {
			t.Errorf("holder %d (%T) not reset: %v", i, second[i], second[i])
		}
	}

	// A column that is not a field gets a new holder for every row: the
	// scan replaces it with one of the column's type, which the node keeps
	// (a later row must not reset it); the fields' holders are reused.
	made = 0
	extra := reuseScanHolders(func([]string) ([]any, error) {
		made++
		return []any{new(uuid.UUID), new(sql.UnknownType)}, nil
	})
	a, _ := extra(nil)
	*a[0].(*uuid.UUID) = id
	kept := &sql.NullInt64{Int64: 42, Valid: true}
	a[1] = kept // as sqlgraph does with sql.ScanTypeOf
	b, _ := extra(nil)
	if _, ok := b[1].(*sql.UnknownType); made != 1 || &b[0] != &a[0] || *b[0].(*uuid.UUID) != uuid.Nil || !ok {
		t.Errorf("holders with a column that is no field: made %d times, %T for it, id %v; want once, a new sql.UnknownType, reset",
			made, b[1], *b[0].(*uuid.UUID))
	}
	if *kept != (sql.NullInt64{Int64: 42, Valid: true}) {
		t.Errorf("the value a node kept was reset: %v", *kept)
	}

	// A holder of a type it does not know: new holders for every row.
	made = 0
	unknown := reuseScanHolders(func([]string) ([]any, error) {
		made++
		return []any{new(uuid.UUID), new(string)}, nil
	})
	c, _ := unknown(nil)
	d, _ := unknown(nil)
	if made != 2 || c[1] == d[1] {
		t.Errorf("holders with a type it does not know made %d times, want once per row", made)
	}
}
