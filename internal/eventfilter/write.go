package eventfilter

import (
	"context"
	"strings"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/ent/eventfilter"
	"github.com/reten-io/reten/internal/apperr"
	"github.com/reten-io/reten/internal/clock"
	"github.com/reten-io/reten/internal/criteria"
	"github.com/reten-io/reten/internal/patch"
	qb "github.com/reten-io/reten/internal/querybuilder"
	"github.com/reten-io/reten/internal/tenancy"
	"github.com/reten-io/reten/internal/trash"
	"github.com/reten-io/reten/internal/txn"
)

// CreateInput is the body of a new event filter; QueryBlocks is the parsed
// JSON of the queryBlocks array (nil when it was not sent).
type CreateInput struct {
	Name        string
	Description *string
	QueryBlocks any
}

// Create validates the definition against the tenant's catalog and stores
// the filter with its blocks in one transaction.
// Shape errors (name, block structure) come first, as one 400 listing them
// all; then the catalog rules (404 when the tenant has no dataset).
func (s *Service) Create(ctx context.Context, in CreateInput) (*Detail, error) {
	tid, pid, err := tenancy.Project(ctx)
	if err != nil {
		return nil, err
	}
	msgs := criteria.NameRule(in.Name)
	def, err := criteria.Decode(in.QueryBlocks)
	if err := criteria.JoinDTO(msgs, err); err != nil {
		return nil, err
	}
	if err := criteria.Check(ctx, s.ds, def, qb.EventFilter); err != nil {
		return nil, err
	}
	return txn.Value(ctx, s.client, func(ctx context.Context, tx *ent.Client) (*Detail, error) {
		c := tx.EventFilter.Create().SetTenantID(tid).SetProjectID(pid).
			SetName(strings.TrimSpace(in.Name)).SetNillableDescription(in.Description).
			SetNillableOwnerID(tenancy.Actor(ctx)).SetNillableUpdatedBy(tenancy.Actor(ctx))
		f, err := c.Save(ctx)
		if err != nil {
			return nil, err
		}
		if err := criteria.CreateBlocks(ctx, tx, criteria.Owner{EventFilterID: &f.ID}, def); err != nil {
			return nil, err
		}
		return s.get(ctx, tx, tid, pid, f.ID)
	})
}

// UpdateInput is a PATCH: absent fields are unchanged; a null name breaks
// the name rule, a null description clears it; QueryBlocks, when SetBlocks,
// replaces every block.
type UpdateInput struct {
	Name        patch.Patch[string]
	Description patch.Patch[string]
	SetBlocks   bool
	QueryBlocks any
}

// Update applies a PATCH: a sent definition is
// validated before anything is deleted and replaces all blocks (new ids);
// every update, an empty one too, sets updatedBy and refreshes updatedAt.
// A name or description change does not revalidate the stored definition.
func (s *Service) Update(ctx context.Context, id uuid.UUID, in UpdateInput) (*Detail, error) {
	tid, pid, err := tenancy.Project(ctx)
	if err != nil {
		return nil, err
	}
	def, shape := criteria.DecodeSent(in.SetBlocks, in.QueryBlocks)
	if err := criteria.JoinDTO(criteria.PatchNameRule(in.Name), shape); err != nil {
		return nil, err
	}
	if _, err := s.get(ctx, s.db(ctx), tid, pid, id); err != nil {
		return nil, err
	}
	if in.SetBlocks {
		if err := criteria.Check(ctx, s.ds, def, qb.EventFilter); err != nil {
			return nil, err
		}
	}
	return txn.Value(ctx, s.client, func(ctx context.Context, tx *ent.Client) (*Detail, error) {
		u := tx.EventFilter.UpdateOneID(id).Where(inProject(tid, pid))
		p := criteria.Patch{Name: in.Name, Description: in.Description, SetBlocks: in.SetBlocks, Def: def}
		if err := p.Save(ctx, tx, u.Mutation(), u.Exec, MsgNotFound, criteria.Owner{EventFilterID: &id}); err != nil {
			return nil, err
		}
		return s.get(ctx, tx, tid, pid, id)
	})
}

// Delete archives the filter into the trash; its
// blocks stay with it until the trash purges it. An archived filter is not
// found again.
func (s *Service) Delete(ctx context.Context, id uuid.UUID) error {
	tid, pid, err := tenancy.Project(ctx)
	if err != nil {
		return err
	}
	return txn.Run(ctx, s.client, func(ctx context.Context, tx *ent.Client) error {
		f, err := tx.EventFilter.UpdateOneID(id).Where(inProject(tid, pid), eventfilter.ArchivedAtIsNil()).
			SetArchivedAt(clock.Now()).Save(ctx)
		if err != nil {
			return apperr.FromEnt(err, MsgNotFound, "")
		}
		return trash.Archive(ctx, tx, trash.Record{Kind: trash.KindEventFilter, RecordID: id, Label: f.Name, ProjectID: &pid})
	})
}
