package rest

import (
	"bytes"
	"encoding/json"
	"net/http"
	"time"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/internal/snapshot"
)

// snapshotHandlers maps the REST lines of tenancy.snapshotMatrix to their handlers.
func (a *api) snapshotHandlers() map[string]handler {
	return map[string]handler{
		"GET /commerce-lifecycle-snapshots":                      a.listSnapshots,
		"GET /commerce-lifecycle-snapshots/{commerceIdentifier}": a.snapshotsOfCommerce,
		"POST /commerce-lifecycle-snapshots/batch-lookup":        a.batchLookupSnapshots,
		"PUT /commerce-lifecycle-snapshots":                      a.upsertSnapshot,
		"POST /commerce-lifecycle-snapshots/batch-upsert":        a.batchUpsertSnapshots,
	}
}

// snapshotView is the snake_case snapshot of SPEC.md.
type snapshotView struct {
	ID                         uuid.UUID `json:"id"`
	CommerceID                 uuid.UUID `json:"commerce_id"`
	ExternalID                 *string   `json:"external_id"`
	ActivityGenerationConfigID uuid.UUID `json:"activity_generation_config_id"`
	Code                       string    `json:"code"`
	Label                      string    `json:"label"`
	Stage                      string    `json:"stage"`
	LastComputedAt             time.Time `json:"last_computed_at"`
	StateChangedAt             time.Time `json:"state_changed_at"`
}

func presentSnapshot(s *ent.CommerceLifecycleSnapshot) snapshotView {
	return snapshotView{ID: s.ID, CommerceID: s.CommerceID, ExternalID: s.ExternalID, ActivityGenerationConfigID: s.ActivityGenerationConfigID,
		Code: s.Code, Label: s.Label, Stage: string(s.Stage), LastComputedAt: s.LastComputedAt.UTC(), StateChangedAt: s.StateChangedAt.UTC()}
}

func presentSnapshots(l []*ent.CommerceLifecycleSnapshot) []snapshotView {
	out := make([]snapshotView, len(l))
	for i, s := range l {
		out[i] = presentSnapshot(s)
	}
	return out
}

// snakePagination is the snake_case pagination block of the snapshot list.
type snakePagination struct {
	Page        int  `json:"page"`
	PerPage     int  `json:"per_page"`
	Total       int  `json:"total"`
	TotalPages  int  `json:"total_pages"`
	HasNext     bool `json:"has_next"`
	HasPrevious bool `json:"has_previous"`
}

func (a *api) listSnapshots(w http.ResponseWriter, r *http.Request) error {
	p, err := pageParams(r)
	if err != nil {
		return err
	}
	q := r.URL.Query()
	l, err := a.Snapshots.List(r.Context(), snapshot.Filter{Code: q.Get("code"), Stage: q.Get("stage"),
		AGCID: q.Get("activity_generation_config_id"), StateChangedSince: q.Get("state_changed_since"), Sort: q.Get("sort")}, p)
	if err != nil {
		return err
	}
	pages := (l.Total + p.PerPage - 1) / p.PerPage
	writeJSON(w, http.StatusOK, map[string]any{"data": presentSnapshots(l.Items), "pagination": snakePagination{
		Page: p.Page, PerPage: p.PerPage, Total: l.Total, TotalPages: pages, HasNext: p.Page < pages, HasPrevious: p.Page > 1}})
	return nil
}

func (a *api) snapshotsOfCommerce(w http.ResponseWriter, r *http.Request) error {
	l, err := a.Snapshots.ForCommerce(r.Context(), urlParam(r, "commerceIdentifier"), r.URL.Query().Get("activity_generation_config_id"))
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, map[string]any{"data": presentSnapshots(l)})
	return nil
}

// batchLookupSnapshots answers 200 (a read, documented in the OpenAPI fragment).
func (a *api) batchLookupSnapshots(w http.ResponseWriter, r *http.Request) error {
	b, err := decodeBody(r, "commerce_ids", "external_ids", "activity_generation_config_id")
	if err != nil {
		return err
	}
	var in snapshot.LookupInput
	in.CommerceIDs, _ = b.strs("commerce_ids", "commerce_ids must be an array of strings")
	in.ExternalIDs, _ = b.strs("external_ids", "external_ids must be an array of strings")
	in.AGCID = b.optStr("activity_generation_config_id", snapshot.MsgAGCUUID)
	if err := b.err(); err != nil {
		return err
	}
	res, err := a.Snapshots.BatchLookup(r.Context(), in)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, map[string]any{"data": presentSnapshots(res.Snapshots), "unresolved": res.Unresolved})
	return nil
}

var snapshotItemFields = []string{"commerce_id", "external_id", "activity_generation_config_id", "code", "stage", "last_computed_at"}

// snapshotItem decodes one upsert body or batch item.
func snapshotItem(b *body) snapshot.Item {
	var it snapshot.Item
	it.CommerceID, _ = b.str("commerce_id", "commerce_id must be a string")
	it.ExternalID, _ = b.str("external_id", "external_id must be a string")
	it.AGCID, _ = b.str("activity_generation_config_id", snapshot.MsgAGCUUID)
	it.Code, _ = b.str("code", "code must be a string")
	it.Stage, _ = b.str("stage", snapshot.MsgStageValues)
	it.LastComputedAt = b.instant("last_computed_at", "last_computed_at must be a valid ISO 8601 date string")
	return it
}

func (a *api) upsertSnapshot(w http.ResponseWriter, r *http.Request) error {
	b, err := decodeBody(r, slicesWithout(snapshotItemFields, "external_id")...)
	if err != nil {
		return err
	}
	it := snapshotItem(b)
	if err := b.err(); err != nil {
		return err
	}
	sn, outcome, err := a.Snapshots.Upsert(r.Context(), it)
	if err != nil {
		return err
	}
	type out struct {
		snapshotView
		Outcome string `json:"outcome"`
	}
	writeJSON(w, http.StatusOK, out{presentSnapshot(sn), outcome})
	return nil
}

func slicesWithout(l []string, drop string) []string {
	var out []string
	for _, s := range l {
		if s != drop {
			out = append(out, s)
		}
	}
	return out
}

func (a *api) batchUpsertSnapshots(w http.ResponseWriter, r *http.Request) error {
	raw, err := readBody(r)
	if err != nil {
		return err
	}
	items, ok := decodeSnapshotBatch(raw)
	if !ok {
		if items, err = preciseSnapshotItems(raw); err != nil {
			return err
		}
	}
	res, err := a.Snapshots.BatchUpsert(r.Context(), items)
	if err != nil {
		return err
	}
	type result struct {
		Index   int    `json:"index"`
		Outcome string `json:"outcome"`
	}
	type itemErr struct {
		Index    int      `json:"index"`
		Messages []string `json:"messages"`
	}
	out := struct {
		Results   []result  `json:"results"`
		Errors    []itemErr `json:"errors"`
		Created   int       `json:"created"`
		Updated   int       `json:"updated"`
		Unchanged int       `json:"unchanged"`
		Stale     int       `json:"stale"`
	}{Results: []result{}, Errors: []itemErr{}, Created: res.Created, Updated: res.Updated, Unchanged: res.Unchanged, Stale: res.Stale}
	for _, x := range res.Results {
		out.Results = append(out.Results, result{x.Index, x.Outcome})
	}
	for _, x := range res.Errors {
		out.Errors = append(out.Errors, itemErr{x.Index, x.Messages})
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}

// snapshotItemDTO is a batch item as the engine sends it.
type snapshotItemDTO struct {
	CommerceID     *string `json:"commerce_id"`
	ExternalID     *string `json:"external_id"`
	AGCID          *string `json:"activity_generation_config_id"`
	Code           *string `json:"code"`
	Stage          *string `json:"stage"`
	LastComputedAt *string `json:"last_computed_at"`
}

// decodeSnapshotBatch decodes a well-formed batch body in one pass (10,000
// items arrive often). ok is false when the body needs preciseSnapshotItems
// to say what is wrong with it (no items array, an item that is not an
// object, an unknown property, a wrong type). A null field reads as absent,
// as in the precise decoder.
func decodeSnapshotBatch(raw []byte) ([]snapshot.Item, bool) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	var in struct {
		Items []*snapshotItemDTO `json:"items"`
	}
	if err := dec.Decode(&in); err != nil || in.Items == nil || dec.More() {
		return nil, false
	}
	dtos := in.Items
	str := func(p *string) string {
		if p == nil {
			return ""
		}
		return *p
	}
	items := make([]snapshot.Item, len(dtos))
	for i, d := range dtos {
		if d == nil {
			return nil, false
		}
		it := snapshot.Item{CommerceID: str(d.CommerceID), ExternalID: str(d.ExternalID), AGCID: str(d.AGCID),
			Code: str(d.Code), Stage: str(d.Stage)}
		if d.LastComputedAt != nil {
			t, err := time.Parse(time.RFC3339Nano, *d.LastComputedAt)
			if err != nil {
				return nil, false
			}
			it.LastComputedAt = &t
		}
		items[i] = it
	}
	return items, true
}

// preciseSnapshotItems decodes the items field by field, collecting every
// broken rule of every item (the slow path of decodeSnapshotBatch).
func preciseSnapshotItems(body []byte) ([]snapshot.Item, error) {
	b, err := parseBody(body, "items")
	if err != nil {
		return nil, err
	}
	raw, ok := b.array("items", snapshot.MsgItemsRequired)
	if !ok && b.err() == nil {
		b.fail(snapshot.MsgItemsRequired)
	}
	if err := b.err(); err != nil {
		return nil, err
	}
	items := make([]snapshot.Item, len(raw))
	for i, rm := range raw {
		ib, ok := objectBody(rm, snapshotItemFields...)
		if !ok {
			items[i].Invalid = []string{snapshot.MsgItemNotObject}
			continue
		}
		items[i] = snapshotItem(ib)
		items[i].Invalid = ib.msgs
	}
	return items, nil
}
