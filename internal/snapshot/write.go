package snapshot

import (
	"context"
	"slices"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/ent/commercelifecyclesnapshot"
	"github.com/reten-io/reten/internal/apperr"
	"github.com/reten-io/reten/internal/tenancy"
)

// Outcomes of an upsert.
const (
	Created   = "created"
	Updated   = "updated"
	Unchanged = "unchanged"
	// Stale: last_computed_at is older than the stored one; nothing changed.
	Stale = "stale"
)

// Messages of the upserts.
const (
	MsgStatusInactiveFmt = "Retention status config %q does not exist or is inactive"
	MsgItemsRequired     = "items must be an array"
	MsgItemsEmpty        = "items should not be empty"
	MsgItemsTooMany      = "items must contain no more than 10000 elements"
	MsgItemsMixed        = "every item must use the same identifier type: commerce_id or external_id"
	MsgItemIdentifier    = "commerce_id or external_id is required"
	MsgItemNotObject     = "each item must be an object"
	MsgCommerceIDUUID    = "commerce_id must be a UUID"
	MsgCommerceIDEmpty   = "commerce_id should not be empty"
	MsgAGCEmpty          = "activity_generation_config_id should not be empty"
	MsgCodeEmpty         = "code should not be empty"
	MsgLastComputedEmpty = "last_computed_at should not be empty"
	MsgStageMismatchFmt  = "stage %s does not match retention status config %q (stage %s)"
	MaxBatchItems        = 10000
	chunkSize            = 1000
)

// Item is one upsert: CommerceID (UUID text) or ExternalID identifies the
// commerce. Invalid carries the decode (type) errors the adapter found.
type Item struct {
	CommerceID     string
	ExternalID     string
	AGCID          string
	Code           string
	Stage          string
	LastComputedAt *time.Time
	Invalid        []string
	metrics        string // an engine row's metrics (JSON; "" for none)
}

// ItemResult is the outcome of a valid item.
type ItemResult struct {
	Index   int
	Outcome string
}

// ItemError lists why an item was rejected (it changed nothing).
type ItemError struct {
	Index    int
	Messages []string
}

// BatchResult is the answer of BatchUpsert.
type BatchResult struct {
	Results                            []ItemResult
	Errors                             []ItemError
	Created, Updated, Unchanged, Stale int
}

// validate checks an item's DTO rules (byExternal: identified by external_id).
func validate(it Item, byExternal bool) []string {
	if slices.Contains(it.Invalid, MsgItemNotObject) {
		return []string{MsgItemNotObject}
	}
	msgs := append([]string{}, it.Invalid...)
	// rule adds msg when broken, unless the field already failed to decode
	// (messages start with the field name).
	rule := func(field string, broken bool, msg string) {
		if broken && !slices.ContainsFunc(it.Invalid, func(m string) bool { return strings.HasPrefix(m, field+" ") }) {
			msgs = append(msgs, msg)
		}
	}
	if byExternal {
		rule("external_id", it.ExternalID == "", MsgItemIdentifier)
	} else {
		rule("commerce_id", it.CommerceID == "", MsgCommerceIDEmpty)
		rule("commerce_id", it.CommerceID != "" && uuid.Validate(it.CommerceID) != nil, MsgCommerceIDUUID)
	}
	rule("activity_generation_config_id", it.AGCID == "", MsgAGCEmpty)
	rule("activity_generation_config_id", it.AGCID != "" && uuid.Validate(it.AGCID) != nil, MsgAGCUUID)
	rule("code", it.Code == "", MsgCodeEmpty)
	rule("stage", !validStage(it.Stage), MsgStageValues)
	rule("last_computed_at", it.LastComputedAt == nil, MsgLastComputedEmpty)
	return msgs
}

// Upsert writes one snapshot identified by commerce UUID
// and returns the stored snapshot with the outcome (created, updated,
// unchanged, or stale when last_computed_at is older than the stored one).
func (s *Service) Upsert(ctx context.Context, it Item) (*ent.CommerceLifecycleSnapshot, string, error) {
	acc, err := tenancy.From(ctx)
	if err != nil {
		return nil, "", err
	}
	// Tenant-level: the AGC may be of any project of the tenant.
	ctx, tenantID := acc.TenantWide(ctx), acc.TenantID
	it.ExternalID = ""
	if msgs := validate(it, false); len(msgs) > 0 {
		return nil, "", apperr.Validation(msgs...)
	}
	out, err := s.upsertChunk(ctx, tenantID, []Item{it}, false, apiOrigin)
	if err != nil {
		return nil, "", err
	}
	if f := out.fails[0]; f != nil {
		if f.notFound {
			return nil, "", apperr.NotFound(f.msgs[0])
		}
		return nil, "", apperr.Invalid(f.msgs[0])
	}
	k := out.keys[0]
	sn, err := s.db(ctx).CommerceLifecycleSnapshot.Query().Where(commercelifecyclesnapshot.TenantID(tenantID),
		commercelifecyclesnapshot.CommerceID(k.commerce), commercelifecyclesnapshot.ActivityGenerationConfigID(k.agc)).Only(ctx)
	if err != nil {
		return nil, "", err
	}
	return sn, out.outcomes[0], nil
}

// byExternal says which identifier the items use: every item commerce_id or
// every item external_id; mixing them is a 400.
func byExternal(items []Item) (bool, error) {
	var ids, exts bool
	for _, it := range items {
		ids = ids || it.CommerceID != ""
		exts = exts || it.ExternalID != ""
	}
	if ids && exts {
		return false, apperr.Validation(MsgItemsMixed)
	}
	return exts, nil
}

// BatchUpsert writes 1 to MaxBatchItems snapshots, every item identified by
// commerce_id or every item by external_id. Invalid items are reported and
// change nothing; valid ones are written in chunks of 1,000 (one transaction
// and one guarded INSERT ... ON CONFLICT per chunk, see upsertChunk).
func (s *Service) BatchUpsert(ctx context.Context, items []Item) (*BatchResult, error) {
	acc, err := tenancy.From(ctx)
	if err != nil {
		return nil, err
	}
	// Tenant-level: the AGCs may be of any project of the tenant.
	ctx, tenantID := acc.TenantWide(ctx), acc.TenantID
	switch {
	case len(items) == 0:
		return nil, apperr.Validation(MsgItemsEmpty)
	case len(items) > MaxBatchItems:
		return nil, apperr.Validation(MsgItemsTooMany)
	}
	byExternal, err := byExternal(items)
	if err != nil {
		return nil, err
	}
	res := &BatchResult{Results: []ItemResult{}, Errors: []ItemError{}}
	var valid []Item
	var idx []int
	for i, it := range items {
		if msgs := validate(it, byExternal); len(msgs) > 0 {
			res.Errors = append(res.Errors, ItemError{Index: i, Messages: msgs})
			continue
		}
		valid = append(valid, it)
		idx = append(idx, i)
	}
	for start := 0; start < len(valid); start += chunkSize {
		end := min(start+chunkSize, len(valid))
		out, err := s.upsertChunk(ctx, tenantID, valid[start:end], byExternal, apiOrigin)
		if err != nil {
			return nil, err
		}
		for j := range out.outcomes {
			i := idx[start+j]
			if f := out.fails[j]; f != nil {
				res.Errors = append(res.Errors, ItemError{Index: i, Messages: f.msgs})
				continue
			}
			res.Results = append(res.Results, ItemResult{Index: i, Outcome: out.outcomes[j]})
			switch out.outcomes[j] {
			case Created:
				res.Created++
			case Updated:
				res.Updated++
			case Unchanged:
				res.Unchanged++
			case Stale:
				res.Stale++
			}
		}
	}
	slices.SortStableFunc(res.Errors, func(a, b ItemError) int { return a.Index - b.Index })
	return res, nil
}
