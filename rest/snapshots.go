package rest

import (
	"bytes"
	"encoding/json"
	"net/http"
	"time"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/internal/paging"
	"github.com/reten-io/reten/internal/snapshot"
)

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

func (a *api) listSnapshots() handler {
	return snakePaged(func(r *http.Request, p paging.Page) (*paging.List[*ent.CommerceLifecycleSnapshot], error) {
		q := r.URL.Query()
		return a.Snapshots.List(r.Context(), snapshot.Filter{Code: q.Get("code"), Stage: q.Get("stage"),
			AGCID: q.Get("activity_generation_config_id"), StateChangedSince: q.Get("state_changed_since"), Sort: q.Get("sort")}, p)
	}, presentSnapshot)
}

// snapshotsDTO is a list of snapshots that is not paginated.
type snapshotsDTO struct {
	Data []snapshotView `json:"data"`
}

func (a *api) snapshotsOfCommerce(w http.ResponseWriter, r *http.Request) error {
	l, err := a.Snapshots.ForCommerce(r.Context(), urlParam(r, "commerceIdentifier"), r.URL.Query().Get("activity_generation_config_id"))
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, snapshotsDTO{Data: presentAll(l, presentSnapshot)})
	return nil
}

// lookupDTO answers the batch lookup (a read: 200, documented in the
// OpenAPI fragment).
type lookupDTO struct {
	Data       []snapshotView `json:"data"`
	Unresolved []string       `json:"unresolved"`
}

func presentLookup(res *snapshot.LookupResult) lookupDTO {
	return lookupDTO{Data: presentAll(res.Snapshots, presentSnapshot), Unresolved: res.Unresolved}
}

var lookupBody = bodyOf(func(b *body) snapshot.LookupInput {
	return snapshot.LookupInput{CommerceIDs: b.strs("commerce_ids").OrZero(), ExternalIDs: b.strs("external_ids").OrZero(),
		AGCID: b.str("activity_generation_config_id", snapshot.MsgAGCUUID).Ptr()}
}, "commerce_ids", "external_ids", "activity_generation_config_id")

var snapshotItemFields = []string{"commerce_id", "external_id", "activity_generation_config_id", "code", "stage", "last_computed_at"}

// snapshotItem decodes one upsert body or batch item.
func snapshotItem(b *body) snapshot.Item {
	return snapshot.Item{CommerceID: b.str("commerce_id").OrZero(), ExternalID: b.str("external_id").OrZero(),
		AGCID: b.str("activity_generation_config_id", snapshot.MsgAGCUUID).OrZero(), Code: b.str("code").OrZero(),
		Stage: b.str("stage", snapshot.MsgStageValues).OrZero(), LastComputedAt: b.instant("last_computed_at").Ptr()}
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
	raw, ok := b.array("items").Get()
	if !ok && !b.failed() { // a missing items only counts when nothing else is wrong
		b.fail("items", snapshot.MsgItemsRequired)
	}
	if err := b.err(); err != nil {
		return nil, err
	}
	items := make([]snapshot.Item, len(raw))
	for i, rm := range raw {
		ib, ok := itemBody(rm, snapshotItemFields...)
		if !ok {
			items[i].Invalid = []string{snapshot.MsgItemNotObject}
			continue
		}
		items[i] = snapshotItem(ib)
		items[i].Invalid = ib.messages()
	}
	return items, nil
}
