package insights

import (
	"context"
	"database/sql"
	"slices"
	"strings"
	"time"

	"github.com/google/uuid"

	snap "github.com/reten-io/reten/ent/commercelifecyclesnapshot"
	tr "github.com/reten-io/reten/ent/commercelifecycletransition"
	"github.com/reten-io/reten/internal/lifecycle"
)

// Distribution counts the AGC's commerces by their current state (their
// snapshots), by stage then code: one statement.
func (s *Service) Distribution(ctx context.Context, agcID uuid.UUID) ([]lifecycle.StateCount, error) {
	sc, err := s.agcOf(ctx, agcID)
	if err != nil {
		return nil, err
	}
	out := []lifecycle.StateCount{}
	err = s.query(ctx, `SELECT stage, code, count(*) FROM `+snap.Table+` WHERE tenant_id = ? AND activity_generation_config_id = ?
GROUP BY stage, code ORDER BY stage, code`, []any{sc.tenant, sc.agc}, func(rs interface{ Scan(...any) error }) error {
		var c lifecycle.StateCount
		err := rs.Scan(&c.Stage, &c.Code, &c.Count)
		out = append(out, c)
		return err
	})
	return out, err
}

// Evolution is the number of commerces in each state at the end of each
// day of a period (the tenant's days): Days[i] is a day, each series'
// Counts[i] the commerces in its state when that day ended.
type Evolution struct {
	Days   []string      `json:"days"` // YYYY-MM-DD
	Series []StateSeries `json:"series"`
}

// StateSeries is a state's count per day of an Evolution.
type StateSeries struct {
	State
	Counts []int `json:"counts"`
}

// Evolution replays the transition history of the AGC over a period (at
// most 366 days; the last 30 by default): a state's count at the end of a
// day is the transitions into it minus those out of it up to then. One
// statement sums them per day and state in the database (the history
// before the period in one sum); the running totals are added up here.
func (s *Service) Evolution(ctx context.Context, agcID uuid.UUID, p Period) (*Evolution, error) {
	sc, from, to, err := s.periodOf(ctx, agcID, p)
	if err != nil {
		return nil, err
	}
	loc, err := s.zone(ctx, sc.tenant)
	if err != nil {
		return nil, err
	}
	// The tenant's days meeting the period; day i is [ends[i-1], ends[i]).
	start := time.Date(from.In(loc).Year(), from.In(loc).Month(), from.In(loc).Day(), 0, 0, 0, 0, loc)
	var days []string
	var ends []time.Time
	for d := start; d.Before(to); d = d.AddDate(0, 0, 1) {
		days = append(days, d.Format(time.DateOnly))
		ends = append(ends, d.AddDate(0, 0, 1).UTC())
	}
	deltas := map[State][]int{}
	add := func(n int, st State, delta int) {
		if deltas[st] == nil {
			deltas[st] = make([]int, len(days)+1)
		}
		deltas[st][n] += delta
	}
	// x: +1 per transition into a state, -1 per transition out of one.
	x := `SELECT state_changed_at AS at, to_stage AS stage, to_code AS code, 1 AS delta FROM ` + tr.Table + `
  WHERE tenant_id = ? AND activity_generation_config_id = ? AND state_changed_at < ?
 UNION ALL
 SELECT state_changed_at, from_stage, from_code, -1 FROM ` + tr.Table + `
  WHERE tenant_id = ? AND activity_generation_config_id = ? AND state_changed_at < ? AND from_stage IS NOT NULL`
	last := ends[len(ends)-1]
	xArgs := []any{sc.tenant, sc.agc, last, sc.tenant, sc.agc, last}
	if s.postgres() {
		// The tenant's day of each row, computed by the server; "" before the period.
		index := make(map[string]int, len(days))
		for i, d := range days {
			index[d] = i + 1
		}
		q := `SELECT CASE WHEN x.at < ? THEN '' ELSE to_char(x.at AT TIME ZONE ?, 'YYYY-MM-DD') END, x.stage, x.code, sum(x.delta)
FROM (` + x + `) x GROUP BY 1, 2, 3`
		err = s.query(ctx, q, append([]any{start.UTC(), loc.String()}, xArgs...), func(rs interface{ Scan(...any) error }) error {
			var day string
			var st State
			var delta int
			if err := rs.Scan(&day, &st.Stage, &st.Code, &delta); err != nil {
				return err
			}
			add(index[day], st, delta)
			return nil
		})
	} else {
		// SQLite has no time zones: the days' bounds travel as a VALUES
		// list (at most 366 rows), bucket 0 before the first day.
		var values []string
		var args []any
		for i, end := range ends {
			lo := start.UTC()
			if i > 0 {
				lo = ends[i-1]
			}
			values = append(values, "(?, ?, ?)")
			args = append(args, i+1, lo, end)
		}
		q := `WITH d (n, lo, hi) AS (VALUES ` + strings.Join(values, ", ") + `)
SELECT COALESCE(d.n, 0), x.stage, x.code, sum(x.delta) FROM (` + x + `) x LEFT JOIN d ON x.at >= d.lo AND x.at < d.hi
GROUP BY COALESCE(d.n, 0), x.stage, x.code`
		err = s.query(ctx, q, append(args, xArgs...), func(rs interface{ Scan(...any) error }) error {
			var n, delta int
			var st State
			if err := rs.Scan(&n, &st.Stage, &st.Code, &delta); err != nil {
				return err
			}
			add(n, st, delta)
			return nil
		})
	}
	if err != nil {
		return nil, err
	}
	out := &Evolution{Days: days, Series: []StateSeries{}}
	for _, st := range sortedStates(deltas) {
		counts, running := make([]int, len(days)), deltas[st][0]
		for i := range days {
			running += deltas[st][i+1]
			counts[i] = running
		}
		out.Series = append(out.Series, StateSeries{State: st, Counts: counts})
	}
	return out, nil
}

// TransitionCount counts the transitions from a state (null From: the
// commerce's first state) to another.
type TransitionCount struct {
	From  *State `json:"from"`
	To    State  `json:"to"`
	Count int    `json:"count"`
}

// Transitions counts the AGC's transitions of a period (the last 30 days
// by default) per (from, to) pair, the most frequent first: one statement.
func (s *Service) Transitions(ctx context.Context, agcID uuid.UUID, p Period) ([]TransitionCount, error) {
	sc, from, to, err := s.periodOf(ctx, agcID, p)
	if err != nil {
		return nil, err
	}
	out := []TransitionCount{}
	err = s.query(ctx, `SELECT from_stage, from_code, to_stage, to_code, count(*) FROM `+tr.Table+`
WHERE tenant_id = ? AND activity_generation_config_id = ? AND state_changed_at >= ? AND state_changed_at < ?
GROUP BY from_stage, from_code, to_stage, to_code`, []any{sc.tenant, sc.agc, from, to},
		func(rs interface{ Scan(...any) error }) error {
			var fs, fc sql.NullString
			var c TransitionCount
			if err := rs.Scan(&fs, &fc, &c.To.Stage, &c.To.Code, &c.Count); err != nil {
				return err
			}
			if fs.Valid {
				c.From = &State{Stage: fs.String, Code: fc.String}
			}
			out = append(out, c)
			return nil
		})
	// The most frequent first; then by from (first states first) and to.
	slices.SortFunc(out, func(a, b TransitionCount) int {
		if a.Count != b.Count {
			return b.Count - a.Count
		}
		switch {
		case a.From == nil && b.From != nil:
			return -1
		case a.From != nil && b.From == nil:
			return 1
		case a.From != nil:
			if c := stateOrder(*a.From, *b.From); c != 0 {
				return c
			}
		}
		return stateOrder(a.To, b.To)
	})
	return out, err
}
