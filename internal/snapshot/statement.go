package snapshot

import (
	"context"
	stdsql "database/sql"
	"fmt"
	"strings"
	"time"

	"entgo.io/ent/dialect"
	"github.com/google/uuid"
	"github.com/lib/pq"

	"github.com/reten-io/reten/ent"
	snap "github.com/reten-io/reten/ent/commercelifecyclesnapshot"
	tr "github.com/reten-io/reten/ent/commercelifecycletransition"
	outbox "github.com/reten-io/reten/ent/generationoutbox"
)

// Sources of a write, as the transition history records them.
const (
	SourceAPI    = string(tr.SourceAPI)
	SourceEngine = string(tr.SourceENGINE)
)

// origin says who writes: a client through the API (an external engine) or
// a run of Reten's engine.
type origin struct {
	source string
	run    *uuid.UUID
}

var apiOrigin = origin{source: SourceAPI}

// upsertColumns are the columns every upsert statement writes, in order.
const upsertColumns = "id, created_at, updated_at, tenant_id, commerce_id, external_id, " +
	"activity_generation_config_id, code, label, stage, last_computed_at, state_changed_at"

// upsertGuard is the conflict clause shared by both dialects. A stored row
// changes only when the incoming one is not older and differs from it; its
// state_changed_at moves only when (stage, code) changes, and prior_stage and
// prior_code keep the state it replaced (read from the locked row, so a
// concurrent writer cannot make the history miss or invent a change).
const upsertGuard = ` ON CONFLICT (commerce_id, activity_generation_config_id) DO UPDATE SET
 external_id = excluded.external_id, code = excluded.code, label = excluded.label, stage = excluded.stage,
 last_computed_at = excluded.last_computed_at, updated_at = excluded.updated_at,
 state_changed_at = CASE WHEN s.stage = excluded.stage AND s.code = excluded.code THEN s.state_changed_at ELSE excluded.last_computed_at END,
 prior_stage = s.stage, prior_code = s.code
WHERE s.tenant_id = excluded.tenant_id AND s.last_computed_at <= excluded.last_computed_at AND (
 s.stage IS DISTINCT FROM excluded.stage OR s.code IS DISTINCT FROM excluded.code OR s.label IS DISTINCT FROM excluded.label OR
 s.external_id IS DISTINCT FROM excluded.external_id OR s.last_computed_at IS DISTINCT FROM excluded.last_computed_at)
RETURNING `

// changed is the condition of a written row whose (stage, code) changed: a
// created row has no prior state.
const changed = `(prior_stage IS NULL OR prior_stage <> stage OR prior_code <> code)`

// transitionColumns are the columns of a transition row, in order.
const transitionColumns = "id, created_at, updated_at, tenant_id, commerce_id, activity_generation_config_id, " +
	"from_stage, from_code, to_stage, to_code, state_changed_at, last_computed_at, config_hash, run_id, source, metrics"

// upsertStatement is the guarded upsert of rows.
//
// PostgreSQL gets the rows as arrays through unnest (a short constant
// statement that parses and plans in no time whatever the chunk size) and
// appends the transitions of the rows whose state changed in the same
// statement, with one generation outbox row per transition (the queue that
// activity generation reads); it returns the written rows' (id, commerce_id, AGC).
//
// SQLite gets a multi-row VALUES list (12 parameters per row, under its
// 32,766-parameter limit at 1,000 rows) and returns what the transitions
// need, which writeRound appends in the same transaction.
func (s *Service) upsertStatement(tenantID uuid.UUID, now time.Time, rows []*row, o origin) (string, []any) {
	if s.dialect == dialect.Postgres {
		var ids, transitionIDs, commerces, agcs, codes, labels, stages, ats []string
		externals := make([]stdsql.NullString, 0, len(rows))
		hashes := make([]stdsql.NullString, 0, len(rows))
		metrics := make([]stdsql.NullString, 0, len(rows))
		for _, w := range rows {
			ids, transitionIDs = append(ids, w.id.String()), append(transitionIDs, newID().String())
			commerces = append(commerces, w.k.commerce.String())
			agcs = append(agcs, w.k.agc.String())
			codes, labels, stages = append(codes, w.code), append(labels, w.label), append(stages, w.stage)
			ats = append(ats, w.at.Format(time.RFC3339Nano))
			externals = append(externals, nullString(w.externalID))
			hashes = append(hashes, nullString(w.hash))
			metrics = append(metrics, nullString(w.metrics))
		}
		return `WITH u AS (SELECT * FROM unnest($3::uuid[], $4::uuid[], $5::text[], $6::uuid[], $7::text[], $8::text[], $9::text[], $10::timestamptz[], $11::text[], $14::uuid[], $15::text[])
 AS u(id, commerce_id, external_id, agc, code, label, stage, at, hash, transition_id, metrics)),
w AS (INSERT INTO ` + snap.Table + ` AS s (` + upsertColumns + `)
SELECT u.id, $1, $1, $2, u.commerce_id, u.external_id, u.agc, u.code, u.label, u.stage, u.at, u.at FROM u` + upsertGuard +
				`id, commerce_id, activity_generation_config_id, stage, code, prior_stage, prior_code, state_changed_at, last_computed_at),
t AS (INSERT INTO ` + tr.Table + ` (` + transitionColumns + `)
SELECT u.transition_id, $1, $1, $2, w.commerce_id, w.activity_generation_config_id, w.prior_stage, w.prior_code, w.stage, w.code,
 w.state_changed_at, w.last_computed_at, u.hash, $12::uuid, $13, u.metrics::jsonb
FROM w JOIN u ON u.commerce_id = w.commerce_id AND u.agc = w.activity_generation_config_id
WHERE w.prior_stage IS NULL OR w.prior_stage <> w.stage OR w.prior_code <> w.code
RETURNING id),
o AS (INSERT INTO ` + outbox.Table + ` (id, tenant_id, created_at) SELECT id, $2, $1 FROM t)
SELECT id, commerce_id, activity_generation_config_id FROM w`,
			[]any{now, tenantID, pq.Array(ids), pq.Array(commerces), pq.GenericArray{A: externals}, pq.Array(agcs),
				pq.Array(codes), pq.Array(labels), pq.Array(stages), pq.Array(ats), pq.GenericArray{A: hashes}, o.run, o.source, pq.Array(transitionIDs), pq.GenericArray{A: metrics}}
	}
	var b strings.Builder
	b.WriteString(`INSERT INTO ` + snap.Table + ` AS s (` + upsertColumns + `) VALUES `)
	args := make([]any, 0, len(rows)*12)
	for i, w := range rows {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString("(?,?,?,?,?,?,?,?,?,?,?,?)")
		args = append(args, w.id, now, now, tenantID, w.k.commerce, w.externalID, w.k.agc, w.code, w.label, w.stage, w.at, w.at)
	}
	b.WriteString(upsertGuard + `id, commerce_id, activity_generation_config_id, ` + changed + `, prior_stage, prior_code, state_changed_at`)
	return b.String(), args
}

// newID is the id of a snapshot or transition row: a UUIDv7, time-ordered,
// so a chunk's rows append to the primary key (and to every transition index
// that orders by time) instead of landing on random pages of it.
func newID() uuid.UUID { return uuid.Must(uuid.NewV7()) }

func nullString(p *string) stdsql.NullString {
	if p == nil {
		return stdsql.NullString{}
	}
	return stdsql.NullString{String: *p, Valid: true}
}

// written is a row the upsert wrote; on SQLite it carries what the
// transition needs.
type written struct {
	id                   uuid.UUID
	changed              bool
	priorStage, priorCod stdsql.NullString
	stateChangedAt       time.Time
}

// scanWritten reads the upsert's RETURNING rows.
func (s *Service) scanWritten(rs *stdsql.Rows) (map[key]written, error) {
	out := map[key]written{}
	for rs.Next() {
		var w written
		var k key
		dest := []any{&w.id, &k.commerce, &k.agc}
		if s.dialect != dialect.Postgres {
			dest = append(dest, &w.changed, &w.priorStage, &w.priorCod, &w.stateChangedAt)
		}
		if err := rs.Scan(dest...); err != nil {
			return nil, err
		}
		out[k] = w
	}
	return out, rs.Err()
}

// appendTransitions writes, on SQLite, the transitions of the rows whose
// state the upsert changed and their generation outbox rows (PostgreSQL
// wrote both in the upsert statement).
func (s *Service) appendTransitions(ctx context.Context, tx *ent.Client, tenantID uuid.UUID, now time.Time, rows []*row, done map[key]written, o origin) error {
	if s.dialect == dialect.Postgres {
		return nil
	}
	var b, ob strings.Builder
	var args, oargs []any
	for _, r := range rows {
		w, ok := done[r.k]
		if !ok || !w.changed {
			continue
		}
		if len(args) > 0 {
			b.WriteByte(',')
			ob.WriteByte(',')
		}
		id := newID()
		b.WriteString("(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)")
		args = append(args, id, now, now, tenantID, r.k.commerce, r.k.agc, w.priorStage, w.priorCod,
			r.stage, r.code, w.stateChangedAt, r.at, nullString(r.hash), o.run, o.source, nullString(r.metrics))
		ob.WriteString("(?,?,?)")
		oargs = append(oargs, id, tenantID, now)
	}
	if len(args) == 0 {
		return nil
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO `+tr.Table+` (`+transitionColumns+`) VALUES `+b.String(), args...); err != nil {
		return fmt.Errorf("append transitions: %w", err)
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO `+outbox.Table+` (id, tenant_id, created_at) VALUES `+ob.String(), oargs...); err != nil {
		return fmt.Errorf("append generation outbox: %w", err)
	}
	return nil
}
