package engine

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"strconv"
	"time"

	"github.com/reten-io/reten/internal/dataset"
	"github.com/reten-io/reten/internal/jobs"
	qb "github.com/reten-io/reten/internal/querybuilder"
	"github.com/reten-io/reten/internal/snapshot"
)

// stream runs the classification statement on the dataset and hands its
// rows to fn in chunks of size: the population is never held whole. A
// classified row carries its metrics (metricsOf); moments are the status
// codes of the activation metrics that follow the fixed columns.
func stream(ctx context.Context, db *sql.DB, c *qb.Compiled, moments []string, size int, fn func([]snapshot.EngineRow) error) error {
	rs, err := db.QueryContext(ctx, c.Query, c.Args...)
	if err != nil {
		return fmt.Errorf("%w: %w", qb.ErrDataset, err)
	}
	defer rs.Close()
	cols, err := rs.Columns()
	if err != nil {
		return err
	}
	// identity, stage, code, then the metrics.
	var identity, stage, code sql.NullString
	dest := []any{&identity, &stage, &code}
	values := make([]sql.RawBytes, len(cols)-3)
	for i := range values {
		dest = append(dest, &values[i])
	}
	chunk := make([]snapshot.EngineRow, 0, size)
	for rs.Next() {
		if err := rs.Scan(dest...); err != nil {
			return fmt.Errorf("%w: %w", qb.ErrDataset, err)
		}
		row := snapshot.EngineRow{Identity: identity.String, Stage: stage.String, Code: code.String}
		if code.Valid {
			row.Metrics = metricsOf(values, moments, code.String)
		}
		chunk = append(chunk, row)
		if len(chunk) == size {
			if err := fn(chunk); err != nil {
				return err
			}
			chunk = chunk[:0]
		}
	}
	if err := rs.Err(); err != nil {
		return fmt.Errorf("%w: %w", qb.ErrDataset, err)
	}
	if len(chunk) > 0 {
		return fn(chunk)
	}
	return nil
}

// metricsOf is the JSON object of a row's metrics, as generation's
// templates name them (metrics.*): lifetime_actions, days_since_last_row,
// engagement and activation (the metric of the moment whose code the row
// got, else of the first moment), each a number's text ("" when null).
// values are the columns after (identity, stage, code):
// qb.LifecycleColumns' metrics, then one per moment.
func metricsOf(values []sql.RawBytes, moments []string, code string) string {
	num := func(i int) string {
		if i >= len(values) || values[i] == nil {
			return ""
		}
		s := string(values[i])
		if f, err := strconv.ParseFloat(s, 64); err == nil {
			return strconv.FormatFloat(f, 'f', -1, 64)
		}
		return s
	}
	activation := ""
	if len(moments) > 0 {
		activation = num(3)
	}
	for i, m := range moments {
		if m == code {
			activation = num(3 + i)
		}
	}
	b, _ := json.Marshal(map[string]string{"lifetime_actions": num(0), "days_since_last_row": num(1), "engagement": num(2),
		"activation": activation}) // strings only: never fails
	return string(b)
}

// RunDeadline bounds one run: its statement (dataset.EngineTimeout) and
// its writes.
const RunDeadline = dataset.EngineTimeout + 5*time.Minute

// Work claims and executes one run, if one is claimable; it returns how
// many it executed (0 or 1).
func (r *Runs) Work(ctx context.Context, at time.Time) (int, error) {
	run, err := r.Claim(ctx, at)
	if err != nil || run == nil {
		return 0, err
	}
	if _, err := r.Execute(ctx, run); err != nil {
		return 0, err
	}
	return 1, nil
}

// Run is the worker of a replica: it schedules the tenants' daily runs and
// executes claimable runs every interval, and at once when a run is queued
// on this replica.
func (r *Runs) Run(ctx context.Context, every time.Duration) {
	// One run per pass, each pass bounded by RunDeadline; a pass that ran
	// one looks again at once.
	jobs.Woken(ctx, "lifecycle runs", every, r.wake, RunDeadline, func(ctx context.Context, at time.Time) (int, error) {
		if _, err := r.Schedule(ctx, at); err != nil {
			return 0, err
		}
		n, err := r.Work(ctx, at)
		if n > 0 {
			r.Wake()
		}
		return n, err
	})
}
