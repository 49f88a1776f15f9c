package snapshot

import (
	"context"
	"fmt"
	"slices"
	"time"

	"strings"

	"entgo.io/ent/dialect"
	"entgo.io/ent/dialect/sql"
	"github.com/google/uuid"
	"github.com/lib/pq"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/ent/activitygenerationconfig"
	"github.com/reten-io/reten/ent/commerce"
	snap "github.com/reten-io/reten/ent/commercelifecyclesnapshot"
	"github.com/reten-io/reten/ent/retentionstatusconfig"
	"github.com/reten-io/reten/internal/clock"
	"github.com/reten-io/reten/internal/txn"
)

type key struct{ commerce, agc uuid.UUID }

func (k key) less(o key) int {
	if c := slices.Compare(k.commerce[:], o.commerce[:]); c != 0 {
		return c
	}
	return slices.Compare(k.agc[:], o.agc[:])
}

// itemFail is a per-item resolution failure; notFound says whether a single
// upsert answers 404 (else 400).
type itemFail struct {
	msgs     []string
	notFound bool
}

// chunkOut is the outcome of one chunk: per position, an outcome or a failure.
type chunkOut struct {
	outcomes []string
	fails    []*itemFail
	keys     []key
}

// row is one snapshot to write; id is fresh, so a returned id equal to it
// means the row was inserted rather than updated.
type row struct {
	pos        int
	id         uuid.UUID
	k          key
	externalID *string
	code       string
	label      string
	stage      string
	at         time.Time
	hash       *string // the configuration hash of the stage's pillar
	metrics    *string // the engine's metrics (JSON), kept on a transition
}

// refs are the tenant's rows an item refers to, read once per chunk.
type refs struct {
	commerces map[string]*ent.Commerce              // by UUID text or external id
	agcs      map[uuid.UUID]map[string]string       // the AGC's config hashes, by pillar
	statuses  map[string]*ent.RetentionStatusConfig // active, by code
}

// loadRefs reads, with one query each, the commerces, AGCs and active status
// configs of the tenant that the items name.
func loadRefs(ctx context.Context, tx *ent.Client, dialectName string, tenantID uuid.UUID, items []Item, byExternal bool) (*refs, error) {
	var cids, agcIDs []uuid.UUID
	var exts, codes []string
	for _, it := range items {
		if byExternal {
			exts = append(exts, it.ExternalID)
		} else {
			cids = append(cids, uuid.MustParse(it.CommerceID))
		}
		agcIDs = append(agcIDs, uuid.MustParse(it.AGCID))
		codes = append(codes, it.Code)
	}
	// A chunk names a handful of AGCs and codes, each many times.
	slices.SortFunc(agcIDs, func(a, b uuid.UUID) int { return slices.Compare(a[:], b[:]) })
	agcIDs = slices.Compact(agcIDs)
	slices.Sort(codes)
	codes = slices.Compact(codes)
	cq := tx.Commerce.Query().Where(commerce.TenantID(tenantID))
	switch {
	case dialectName == dialect.Postgres && byExternal:
		cq.Where(anyOf(commerce.FieldExternalID, "text", pq.Array(exts)))
	case dialectName == dialect.Postgres:
		cq.Where(anyOf(commerce.FieldID, "uuid", pq.Array(uuidStrings(cids))))
	case byExternal:
		cq.Where(commerce.ExternalIDIn(exts...))
	default:
		cq.Where(commerce.IDIn(cids...))
	}
	cs, err := cq.Select(commerce.FieldID, commerce.FieldExternalID).All(ctx)
	if err != nil {
		return nil, err
	}
	r := &refs{commerces: map[string]*ent.Commerce{}, agcs: map[uuid.UUID]map[string]string{}, statuses: map[string]*ent.RetentionStatusConfig{}}
	for _, c := range cs {
		switch {
		case !byExternal:
			r.commerces[c.ID.String()] = c
		case c.ExternalID != nil:
			r.commerces[*c.ExternalID] = c
		}
	}
	agcs, err := tx.ActivityGenerationConfig.Query().Where(activitygenerationconfig.TenantID(tenantID),
		activitygenerationconfig.IDIn(agcIDs...)).
		Select(activitygenerationconfig.FieldID, activitygenerationconfig.FieldConfigHashes).All(ctx)
	if err != nil {
		return nil, err
	}
	for _, a := range agcs {
		r.agcs[a.ID] = a.ConfigHashes
		if r.agcs[a.ID] == nil {
			r.agcs[a.ID] = map[string]string{}
		}
	}
	sts, err := tx.RetentionStatusConfig.Query().Where(retentionstatusconfig.TenantID(tenantID),
		retentionstatusconfig.CodeIn(codes...), retentionstatusconfig.IsActive(true)).All(ctx)
	if err != nil {
		return nil, err
	}
	for _, st := range sts {
		r.statuses[st.Code] = st
	}
	return r, nil
}

// anyOf is "column = ANY($n::cast[])": on PostgreSQL one array parameter
// replaces an IN list of up to 1,000 parameters (parsed and planned anew on
// every chunk).
func anyOf(column, cast string, array any) func(*sql.Selector) {
	return func(s *sql.Selector) {
		s.Where(sql.P(func(b *sql.Builder) {
			b.Ident(s.C(column)).WriteString(" = ANY(").Arg(array).WriteString("::" + cast + "[])")
		}))
	}
}

func uuidStrings(ids []uuid.UUID) []string {
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = id.String()
	}
	return out
}

// resolve turns a validated item into a row, or says why it cannot be written.
func (r *refs) resolve(it Item, byExternal bool) (*row, *itemFail) {
	ident := it.ExternalID
	if !byExternal {
		ident = uuid.MustParse(it.CommerceID).String()
	}
	agcID := uuid.MustParse(it.AGCID)
	f := &itemFail{}
	c, ok := r.commerces[ident]
	if !ok {
		f.notFound = true
		if byExternal {
			f.msgs = append(f.msgs, fmt.Sprintf(MsgCommerceExtFmt, ident))
		} else {
			f.msgs = append(f.msgs, fmt.Sprintf(MsgCommerceIDFmt, ident))
		}
	}
	hashes, ok := r.agcs[agcID]
	if !ok {
		f.notFound = f.notFound || len(f.msgs) == 0
		f.msgs = append(f.msgs, fmt.Sprintf(MsgAGCNotFoundFmt, agcID))
	}
	st, ok := r.statuses[it.Code]
	switch {
	case !ok:
		f.msgs = append(f.msgs, fmt.Sprintf(MsgStatusInactiveFmt, it.Code))
	case string(st.Stage) != it.Stage:
		f.msgs = append(f.msgs, fmt.Sprintf(MsgStageMismatchFmt, it.Stage, it.Code, st.Stage))
	}
	if len(f.msgs) > 0 {
		return nil, f
	}
	w := &row{id: newID(), k: key{c.ID, agcID}, externalID: c.ExternalID, code: it.Code, label: st.Label,
		stage: it.Stage, at: it.LastComputedAt.UTC().Truncate(time.Microsecond)}
	if h, ok := hashes[strings.ToLower(it.Stage)]; ok {
		w.hash = &h
	}
	if it.metrics != "" {
		w.metrics = &it.metrics
	}
	return w, nil
}

// upsertChunk resolves and writes validated items inside one transaction:
// three reads (commerces, AGCs, status configs), then one guarded
// INSERT ... ON CONFLICT DO UPDATE ... WHERE per round, where round n holds
// the n-th occurrence of each (commerce, AGC) key, so duplicates apply in
// request order and the last one wins. Without duplicates a chunk is one
// statement. The database decides every outcome, so concurrent writers can
// neither move a state backwards nor lose a change of state_changed_at.
func (s *Service) upsertChunk(ctx context.Context, tenantID uuid.UUID, items []Item, byExternal bool, o origin) (*chunkOut, error) {
	out := &chunkOut{outcomes: make([]string, len(items)), fails: make([]*itemFail, len(items)), keys: make([]key, len(items))}
	err := txn.Run(ctx, s.client, func(ctx context.Context, tx *ent.Client) error {
		r, err := loadRefs(ctx, tx, s.dialect, tenantID, items, byExternal)
		if err != nil {
			return err
		}
		var rounds [][]*row
		seen := map[key]int{}
		for i, it := range items {
			w, f := r.resolve(it, byExternal)
			if f != nil {
				out.fails[i] = f
				continue
			}
			w.pos, out.keys[i] = i, w.k
			n := seen[w.k]
			seen[w.k] = n + 1
			if n == len(rounds) {
				rounds = append(rounds, nil)
			}
			rounds[n] = append(rounds[n], w)
		}
		for _, rows := range rounds {
			if err := s.writeRound(ctx, tx, tenantID, rows, out.outcomes, o); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// writeRound upserts rows (one per key) with one statement and records each
// row's outcome at its position: a returned fresh id is an insert, another
// returned id an update; skipped rows are stale or unchanged.
func (s *Service) writeRound(ctx context.Context, tx *ent.Client, tenantID uuid.UUID, rows []*row, outcomes []string, o origin) error {
	// One lock order for every writer: concurrent chunks cannot deadlock.
	slices.SortFunc(rows, func(a, b *row) int { return a.k.less(b.k) })
	now := clock.Now()
	query, args := s.upsertStatement(tenantID, now, rows, o)
	rs, err := tx.QueryContext(ctx, query, args...)
	if err != nil {
		return fmt.Errorf("upsert snapshots: %w", err)
	}
	done, err := s.scanWritten(rs)
	rs.Close()
	if err != nil {
		return err
	}
	if err := s.appendTransitions(ctx, tx, tenantID, now, rows, done, o); err != nil {
		return err
	}
	var skipped []*row
	for _, w := range rows {
		switch d, ok := done[w.k]; {
		case !ok:
			skipped = append(skipped, w)
		case d.id == w.id:
			outcomes[w.pos] = Created
		default:
			outcomes[w.pos] = Updated
		}
	}
	return s.classifySkipped(ctx, tx, tenantID, skipped, outcomes)
}

// classifySkipped tells stale rows (the stored snapshot is newer) from
// unchanged ones with one read.
func (s *Service) classifySkipped(ctx context.Context, tx *ent.Client, tenantID uuid.UUID, skipped []*row, outcomes []string) error {
	if len(skipped) == 0 {
		return nil
	}
	cids := make([]uuid.UUID, 0, len(skipped))
	for _, w := range skipped {
		cids = append(cids, w.k.commerce)
	}
	stored, err := tx.CommerceLifecycleSnapshot.Query().
		Where(snap.TenantID(tenantID), snap.CommerceIDIn(cids...)).
		Select(snap.FieldCommerceID, snap.FieldActivityGenerationConfigID, snap.FieldLastComputedAt).All(ctx)
	if err != nil {
		return err
	}
	at := map[key]time.Time{}
	for _, sn := range stored {
		at[key{sn.CommerceID, sn.ActivityGenerationConfigID}] = sn.LastComputedAt
	}
	for _, w := range skipped {
		if w.at.Before(at[w.k]) {
			outcomes[w.pos] = Stale
		} else {
			outcomes[w.pos] = Unchanged
		}
	}
	return nil
}
