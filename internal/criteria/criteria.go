// Package criteria holds what audiences and event filters share: their
// definition stored as QueryBlock rows, and the SQL, validation and preview
// operations on the tenant's dataset. The rules themselves live in
// internal/querybuilder; this package connects them to the store and to the
// dataset and maps their outcomes to typed errors.
package criteria

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/ent/queryblock"
	"github.com/reten-io/reten/internal/apperr"
	"github.com/reten-io/reten/internal/patch"
	qb "github.com/reten-io/reten/internal/querybuilder"
	"github.com/reten-io/reten/internal/tenancy"
)

// Path is the root of every definition path in messages.
const Path = "queryBlocks"

// Messages of the shared rules.
const (
	MsgBlocksRequired = qb.MsgEmptyDefinition
	MsgBlocksArray    = "queryBlocks must be an array"
	MsgCycle          = "audience compositions form a cycle: an audience cannot include itself"
)

// Dataset is the tenant dataset as the criteria need it (internal/dataset).
type Dataset interface {
	// Catalog is the tenant's catalog (404 when no dataset is configured).
	Catalog(ctx context.Context) (*qb.Catalog, *ent.TenantDataset, error)
	// Open is a read-only handle on the dataset with its engine and table
	// qualifier (422 for a compile-only BigQuery dataset).
	Open(ctx context.Context) (db *sql.DB, engine, qualifier string, err error)
}

// Decode strictly decodes a queryBlocks value (JSON already parsed by the
// adapter, numbers as json.Number or float64). Shape errors are a 400 with
// one message per issue; nil (not sent, or null) and an empty list are
// MsgBlocksRequired, another JSON type MsgBlocksArray.
func Decode(v any) (qb.Definition, error) {
	switch v.(type) {
	case nil:
		return qb.Definition{}, apperr.Validation(MsgBlocksRequired)
	case []any:
	default:
		return qb.Definition{}, apperr.Validation(MsgBlocksArray)
	}
	def, issues := qb.DecodeBlocksValue(v, Path)
	if len(issues) > 0 {
		return def, Invalid(issues)
	}
	if len(def.Blocks) == 0 {
		return def, apperr.Validation(MsgBlocksRequired)
	}
	return def, nil
}

// Invalid is the 400 of a definition that does not decode or validate: one
// message per issue, located by its path ("queryBlocks[1].where.children[0]:
// ..."), except the messages SPEC.md spells exactly and those about the
// whole list, which stand alone.
func Invalid(issues []qb.Issue) error {
	msgs := make([]string, len(issues))
	for i, is := range issues {
		msgs[i] = is.Message
		if is.Message != qb.MsgInTheFirstUnsupported && is.Path != "" && is.Path != Path {
			msgs[i] = is.Path + ": " + is.Message
		}
	}
	return apperr.Validation(msgs...)
}

// compileError maps a compile failure to its typed error.
func compileError(err error) error {
	var invalid *qb.ValidationError
	switch {
	case errors.As(err, &invalid):
		return Invalid(invalid.Issues)
	case errors.Is(err, qb.ErrCompositionCycle):
		return apperr.Validation(MsgCycle)
	}
	return err
}

// Owner is the record blocks belong to: exactly one of the two is set.
type Owner struct {
	AudienceID    *uuid.UUID
	EventFilterID *uuid.UUID
}

// CreateBlocks stores def as the owner's blocks (fresh ids) inside tx; the
// tenant and project mixins stamp each row.
func CreateBlocks(ctx context.Context, tx *ent.Client, owner Owner, def qb.Definition) error {
	builders := make([]*ent.QueryBlockCreate, 0, len(def.Blocks))
	var enc encoder
	for _, b := range def.Sorted() {
		c := tx.QueryBlock.Create().SetNillableAudienceID(owner.AudienceID).SetNillableEventFilterID(owner.EventFilterID).
			SetOrder(b.Order).SetFromClause(enc.json(b.From)).SetSelectClause(enc.json(b.Select))
		if b.SetOperator != nil {
			c.SetSetOperator(queryblock.SetOperator(*b.SetOperator))
		}
		if b.TimeWindow != nil {
			c.SetTimeWindow(enc.json(b.TimeWindow))
		}
		if b.Where != nil {
			c.SetWhereClause(enc.json(b.Where))
		}
		if b.GroupBy != nil {
			c.SetGroupBy(enc.json(b.GroupBy))
		}
		if b.Having != nil {
			c.SetHaving(enc.json(b.Having))
		}
		builders = append(builders, c)
	}
	if enc.err != nil {
		return enc.err
	}
	return tx.QueryBlock.CreateBulk(builders...).Exec(ctx)
}

// ReplaceBlocks deletes the owner's blocks and stores def's in their place
// (SPEC.md: no merge, new block ids), inside tx.
func ReplaceBlocks(ctx context.Context, tx *ent.Client, owner Owner, def qb.Definition) error {
	q := tx.QueryBlock.Delete()
	if owner.AudienceID != nil {
		q.Where(queryblock.AudienceID(*owner.AudienceID))
	} else {
		q.Where(queryblock.EventFilterID(*owner.EventFilterID))
	}
	if _, err := q.Exec(ctx); err != nil {
		return err
	}
	return CreateBlocks(ctx, tx, owner, def)
}

// encoder encodes AST nodes, keeping the first error.
type encoder struct{ err error }

func (e *encoder) json(v any) json.RawMessage {
	raw, err := json.Marshal(v)
	if err != nil && e.err == nil {
		e.err = fmt.Errorf("criteria: encode %T: %w", v, err)
	}
	return raw
}

// ConditionCount is SPEC.md conditionCount over stored blocks.
func ConditionCount(blocks []*ent.QueryBlock) (int, error) {
	def, err := Definition(blocks)
	if err != nil {
		return 0, err
	}
	return qb.ConditionCount(def), nil
}

// Definition rebuilds a stored definition from its blocks (any order). A
// stored definition always decoded once; a failure here means the row was
// changed behind the service, and is an internal error.
func Definition(blocks []*ent.QueryBlock) (qb.Definition, error) {
	arr := make([]any, len(blocks))
	for i, b := range blocks {
		arr[i] = BlockJSON(b)
	}
	raw, err := json.Marshal(arr)
	if err != nil {
		return qb.Definition{}, err
	}
	def, issues := qb.DecodeBlocks(raw, Path)
	if len(issues) > 0 {
		return def, fmt.Errorf("criteria: stored definition does not decode: %s: %s", issues[0].Path, issues[0].Message)
	}
	return def, nil
}

// Block is a stored query block as both adapters present it (SPEC.md
// "Query block"): the clauses are the stored JSON documents.
type Block struct {
	ID          uuid.UUID       `json:"id"`
	Order       int             `json:"order"`
	SetOperator *string         `json:"setOperator"`
	From        json.RawMessage `json:"from"`
	Select      json.RawMessage `json:"select"`
	TimeWindow  json.RawMessage `json:"timeWindow"`
	Where       json.RawMessage `json:"where"`
	GroupBy     json.RawMessage `json:"groupBy"`
	Having      json.RawMessage `json:"having"`
}

// BlockJSON presents a stored block; absent clauses are JSON null.
func BlockJSON(b *ent.QueryBlock) Block {
	out := Block{ID: b.ID, Order: b.Order, From: b.FromClause, Select: b.SelectClause, TimeWindow: orNull(b.TimeWindow),
		Where: orNull(b.WhereClause), GroupBy: orNull(b.GroupBy), Having: orNull(b.Having)}
	if b.SetOperator != nil {
		op := b.SetOperator.String()
		out.SetOperator = &op
	}
	return out
}

func orNull(raw json.RawMessage) json.RawMessage {
	if len(raw) == 0 {
		return json.RawMessage("null")
	}
	return raw
}

// metaMutation is what audience and event filter updates share.
type metaMutation interface {
	SetName(string)
	SetDescription(string)
	ClearDescription()
	SetUpdatedBy(uuid.UUID)
}

// ApplyMeta writes a PATCH of the shared fields: name (trimmed) when sent
// (a null one was refused), description set or, null, cleared, and the
// caller as updatedBy.
func ApplyMeta(ctx context.Context, m metaMutation, name, description patch.Patch[string]) {
	if v, ok := name.Get(); ok {
		m.SetName(strings.TrimSpace(v))
	}
	if description.IsNull() {
		m.ClearDescription()
	} else if v, ok := description.Get(); ok {
		m.SetDescription(v)
	}
	if by := tenancy.Actor(ctx); by != nil {
		m.SetUpdatedBy(*by)
	}
}

// MsgDescriptionExclusive refuses a GraphQL update that both sets and clears
// the description.
const MsgDescriptionExclusive = "description and clearDescription cannot be sent together"

// DescriptionArgs is the description patch of the GraphQL arguments
// description and clearDescription (a null cannot be sent there).
func DescriptionArgs(description *string, clear *bool) (patch.Patch[string], error) {
	p, ok := patch.FromArgs(description, clear)
	if !ok {
		return p, apperr.Validation(MsgDescriptionExclusive)
	}
	return p, nil
}
