package rest_test

import (
	"fmt"
	"testing"

	"github.com/google/uuid"
)

// BenchmarkTransitionList checks GET /api/commerce-lifecycle-transitions
// and the history route on BENCH_LIST_ROWS transitions (1,000,000 over
// 100,000 commerces, 5 AGCs, three quarters written by 4 engine runs): for
// every documented filter the request runs at most two statements on the
// transitions table, no plan has a sort node, and page 1,000 (per_page 100)
// costs at most 1.5x page 1.
func BenchmarkTransitionList(b *testing.B) {
	rows := benchSize("BENCH_LIST_ROWS", 1_000_000)
	s := newSnapBench(b, rows/10, 5)
	l := newListProbe(b, s.env, s.rec, "/api/commerce-lifecycle-transitions", "commerce_lifecycle_transitions")
	// A fifth of the transitions belong to the first commerce, under the
	// first AGC (its history, under that AGC or not, reaches page 1,000);
	// two transitions share each instant, so the order's ties are broken
	// by id.
	runs := []uuid.UUID{uuid.New(), uuid.New(), uuid.New(), uuid.New()}
	for lo := 1; lo <= rows; lo += 100_000 {
		l.exec(`INSERT INTO commerce_lifecycle_transitions (id, created_at, updated_at, tenant_id, commerce_id, activity_generation_config_id,
			from_stage, from_code, to_stage, to_code, state_changed_at, last_computed_at, config_hash, run_id, source)
			SELECT gen_random_uuid(), now(), now(), $1, c.ids[CASE WHEN g % 5 = 0 THEN 1 ELSE 2 + g % (cardinality(c.ids) - 1) END],
				CASE WHEN g % 5 = 0 THEN $8::uuid ELSE a.ids[1 + (g / 5) % cardinality(a.ids)] END, 'ACTIVATION', 'new', 'ENGAGEMENT', 'engaged',
				timestamptz '2025-01-01' + (g / 2) * interval '30 seconds', timestamptz '2025-01-01' + (g / 2) * interval '30 seconds',
				'h', CASE WHEN g % 4 <> 0 THEN r.ids[1 + (g / 7) % 4] END, CASE WHEN g % 4 <> 0 THEN 'ENGINE' ELSE 'API' END
			FROM generate_series($2::int, $3::int) g,
				(SELECT array_agg(id ORDER BY external_id) AS ids FROM commerces WHERE tenant_id = $1) c,
				(SELECT array_agg(id ORDER BY id) AS ids FROM activity_generation_configs WHERE tenant_id = $1) a,
				(SELECT ARRAY[$4::uuid, $5::uuid, $6::uuid, $7::uuid] AS ids) r`,
			s.tenantID, lo, min(lo+99_999, rows), runs[0], runs[1], runs[2], runs[3], s.agcs[0])
	}
	l.exec("VACUUM ANALYZE commerce_lifecycle_transitions")
	first, agc := s.commerces[0].String(), s.agcs[2].String()
	b.ResetTimer()
	for range b.N {
		fmt.Printf("transitions=%d\n", rows)
		l.path = "/api/commerce-lifecycle-transitions"
		l.check(s.key, "", "commerce_id="+first, "activity_generation_config_id="+agc, "since=2025-03-01T00:00:00Z",
			"source=API", "source=ENGINE", "run_id="+runs[1].String(), "source=API&since=2025-02-01T00:00:00Z")
		l.path = "/api/commerce-lifecycle-snapshots/EXT-0000001/history"
		l.check(s.key, "", "activity_generation_config_id="+s.agcs[0].String()) // a commerce's history under one AGC
	}
}
