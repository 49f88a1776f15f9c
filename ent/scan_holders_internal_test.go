package ent

import (
	"reflect"
	"testing"
	"time"

	"entgo.io/ent/dialect/sql"
	"github.com/google/uuid"
)

// reuseScanHolders makes a query's holders once, zeroed between rows, and
// new ones for every row when one is of a type it does not reset.
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

	made = 0
	unknown := reuseScanHolders(func([]string) ([]any, error) {
		made++
		return []any{new(uuid.UUID), new(sql.UnknownType)}, nil
	})
	a, _ := unknown(nil)
	b, _ := unknown(nil)
	if made != 2 || a[1] == b[1] {
		t.Errorf("holders with an unknown type made %d times, want once per row", made)
	}
}
