package graph

import (
	"strings"

	"entgo.io/contrib/entgql"
	"github.com/google/uuid"

	"github.com/reten-io/reten/graph/model"
	"github.com/reten-io/reten/internal/snapshot"
)

// snapshotOutcome maps a service outcome ("created") to its enum value.
func snapshotOutcome(o string) model.CommerceLifecycleSnapshotOutcome {
	return model.CommerceLifecycleSnapshotOutcome(strings.ToUpper(o))
}

// snapshotFilter maps the connection's filter and order to the service's
// filter (the REST list's values).
func snapshotFilter(f *model.CommerceLifecycleSnapshotsFilter, o *model.CommerceLifecycleSnapshotsOrder) snapshot.Filter {
	out := snapshot.Filter{Sort: snapshot.SortDesc}
	if f != nil {
		out.Code, out.StateChangedSince = deref(f.Code), deref(f.StateChangedSince)
		if f.Stage != nil {
			out.Stage = f.Stage.String()
		}
		if f.ActivityGenerationConfigID != nil {
			out.AGCID = f.ActivityGenerationConfigID.String()
		}
	}
	if o != nil && o.Direction == entgql.OrderDirectionAsc {
		out.Sort = snapshot.SortAsc
	}
	return out
}

// snapshotItems maps batch items to the service's items (an omitted
// identifier is "", as on REST).
func snapshotItems(items []*model.CommerceLifecycleSnapshotItemInput) []snapshot.Item {
	out := make([]snapshot.Item, len(items))
	for i, it := range items {
		at := it.LastComputedAt
		out[i] = snapshot.Item{ExternalID: deref(it.ExternalID), AGCID: it.ActivityGenerationConfigID.String(),
			Code: it.Code, Stage: it.Stage.String(), LastComputedAt: &at}
		if it.CommerceID != nil {
			out[i].CommerceID = it.CommerceID.String()
		}
	}
	return out
}

// snapshotBatch presents the outcome of batchUpsertCommerceLifecycleSnapshots.
func snapshotBatch(res *snapshot.BatchResult, err error) (*model.CommerceLifecycleSnapshotBatchResult, error) {
	if err != nil {
		return nil, err
	}
	out := &model.CommerceLifecycleSnapshotBatchResult{Results: []*model.CommerceLifecycleSnapshotItemResult{},
		Errors: []*model.BatchItemError{}, Created: res.Created, Updated: res.Updated, Unchanged: res.Unchanged, Stale: res.Stale}
	for _, r := range res.Results {
		out.Results = append(out.Results, &model.CommerceLifecycleSnapshotItemResult{Index: r.Index, Outcome: snapshotOutcome(r.Outcome)})
	}
	for _, e := range res.Errors {
		out.Errors = append(out.Errors, &model.BatchItemError{Index: e.Index, Messages: e.Messages})
	}
	return out, nil
}

// uuidStrings converts ids to their text; nil (argument omitted) stays nil.
func uuidStrings(ids []uuid.UUID) []string {
	if ids == nil {
		return nil
	}
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = id.String()
	}
	return out
}

// optUUID is the text of an optional id ("" when omitted).
func optUUID(id *uuid.UUID) string {
	if id == nil {
		return ""
	}
	return id.String()
}
