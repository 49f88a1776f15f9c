package querybuilder

import "strings"

// Semi-joins are declared by the catalog; these helpers resolve and check
// them for the validator and the compiler alike.

// semiJoinList names a table's semi-joins for messages.
func semiJoinList(t *Table) string {
	if len(t.SemiJoins) == 0 {
		return "none"
	}
	names := make([]string, len(t.SemiJoins))
	for i, sj := range t.SemiJoins {
		names[i] = sj.Name
	}
	return strings.Join(names, ", ")
}

// semiKey is a resolved semi-join key: a column of the from table (or a
// sub-field of one of its records) and a column of the related table.
type semiKey struct {
	left, sub, right *Column
}

// semiJoinTarget resolves a declared semi-join's related table and checks
// its keys, so that a broken catalog fails closed.
func semiJoinTarget(cat *Catalog, t *Table, sj *SemiJoin) (*Table, string) {
	related, ok := cat.Table(sj.ToTable)
	if !ok {
		return nil, "semiJoin " + sj.Name + " points at table " + sj.ToTable + ", which does not exist in the catalog"
	}
	if _, err := semiJoinKeys(t, related, sj); err != "" {
		return nil, "semiJoin " + sj.Name + " of the catalog is invalid: " + err
	}
	return related, ""
}

// semiJoinKeys resolves the keys; at most one record may be involved.
func semiJoinKeys(t, related *Table, sj *SemiJoin) ([]semiKey, string) {
	if len(sj.On) == 0 {
		return nil, "it declares no keys"
	}
	keys := make([]semiKey, len(sj.On))
	var record *Column
	for i, k := range sj.On {
		var key semiKey
		var ok bool
		if key.right, ok = related.Column(k.Right); !ok || !scalarColumn(key.right) {
			return nil, "key " + k.Right + " is not a scalar column of " + related.Name
		}
		if key.left, ok = t.Column(k.Left); !ok {
			rec, field, _ := strings.Cut(k.Left, ".")
			if key.left, ok = t.Column(rec); ok && key.left.Type == TypeRecord {
				key.sub, ok = key.left.SubField(field)
			}
			if !ok || (record != nil && record != key.left) {
				return nil, "key " + k.Left + " is not a column of " + t.Name + " nor a field of its record"
			}
			record = key.left
		}
		lt := key.left
		if key.sub != nil {
			lt = key.sub
		}
		if !scalarColumn(lt) || !comparableTypes(lt.Type, key.right.Type) {
			return nil, "keys " + k.Left + " and " + k.Right + " cannot be compared"
		}
		keys[i] = key
	}
	return keys, ""
}

func scalarColumn(c *Column) bool { return c.Type != TypeRecord && !c.Repeated }
