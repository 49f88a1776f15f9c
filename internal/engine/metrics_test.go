package engine

import (
	"database/sql"
	"testing"
)

// TestMetricsOf: a classified row's metrics as generation's templates name
// them, numbers without a needless fraction, the activation metric of the
// moment whose code the row got (else the first moment's), "" for null.
func TestMetricsOf(t *testing.T) {
	raw := func(vs ...string) []sql.RawBytes {
		out := make([]sql.RawBytes, len(vs))
		for i, v := range vs {
			if v != "NULL" {
				out[i] = sql.RawBytes(v)
			}
		}
		return out
	}
	for _, c := range []struct {
		values  []sql.RawBytes
		moments []string
		code    string
		want    string
	}{
		{raw("12.0", "3", "4.5", "1", "2"), []string{"new", "activated"}, "activated",
			`{"activation":"2","days_since_last_row":"3","engagement":"4.5","lifetime_actions":"12"}`},
		{raw("12", "40", "0", "1", "2"), []string{"new", "activated"}, "at_risk",
			`{"activation":"1","days_since_last_row":"40","engagement":"0","lifetime_actions":"12"}`},
		{raw("0", "NULL", "0"), nil, "dormant",
			`{"activation":"","days_since_last_row":"","engagement":"0","lifetime_actions":"0"}`},
	} {
		if got := metricsOf(c.values, c.moments, c.code); got != c.want {
			t.Errorf("metricsOf(%s) = %s, want %s", c.code, got, c.want)
		}
	}
}
