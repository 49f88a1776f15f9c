package eventfilter

import (
	"context"
	"errors"
	"strings"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/ent/eventfilter"
	"github.com/reten-io/reten/internal/apperr"
	"github.com/reten-io/reten/internal/auth"
	"github.com/reten-io/reten/internal/clock"
	"github.com/reten-io/reten/internal/criteria"
	"github.com/reten-io/reten/internal/patch"
	qb "github.com/reten-io/reten/internal/querybuilder"
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
// the filter with its blocks in one transaction (event-criteria:create).
// Shape errors (name, block structure) come first, as one 400 listing them
// all; then the catalog rules (404 when the tenant has no dataset).
func (s *Service) Create(ctx context.Context, in CreateInput) (*Detail, error) {
	tid, pid, err := scope(ctx, auth.PermEventCriteriaCreate)
	if err != nil {
		return nil, err
	}
	msgs := validName(in.Name)
	def, err := criteria.Decode(in.QueryBlocks)
	if err := joinDTO(msgs, err); err != nil {
		return nil, err
	}
	if err := criteria.Check(ctx, s.ds, def, qb.EventFilter); err != nil {
		return nil, err
	}
	var out *Detail
	err = txn.Run(ctx, s.client, func(ctx context.Context, tx *ent.Client) error {
		c := tx.EventFilter.Create().SetTenantID(tid).SetProjectID(pid).
			SetName(strings.TrimSpace(in.Name)).SetNillableDescription(in.Description).
			SetNillableOwnerID(criteria.Actor(ctx)).SetNillableUpdatedBy(criteria.Actor(ctx))
		f, err := c.Save(ctx)
		if err != nil {
			return err
		}
		if err := criteria.CreateBlocks(ctx, tx, criteria.Owner{EventFilterID: &f.ID}, def); err != nil {
			return err
		}
		out, err = s.get(ctx, tx, tid, pid, f.ID)
		return err
	})
	return out, err
}

// joinDTO merges the messages of the caller's own DTO rules with those of a
// shape error (a 400 listing every broken rule); other errors pass through.
func joinDTO(msgs []string, err error) error {
	if err != nil {
		var e *apperr.Error
		if !errors.As(err, &e) || e.Kind != apperr.KindInvalid {
			return err
		}
		msgs = append(msgs, e.Messages...)
	}
	if len(msgs) == 0 {
		return nil
	}
	return apperr.Validation(msgs...)
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

// Update applies a PATCH (event-criteria:update): a sent definition is
// validated before anything is deleted and replaces all blocks (new ids);
// every update, an empty one too, sets updatedBy and refreshes updatedAt.
// A name or description change does not revalidate the stored definition.
func (s *Service) Update(ctx context.Context, id uuid.UUID, in UpdateInput) (*Detail, error) {
	tid, pid, err := scope(ctx, auth.PermEventCriteriaUpdate)
	if err != nil {
		return nil, err
	}
	var msgs []string
	if in.Name.Sent() {
		msgs = validName(in.Name.OrZero())
	}
	var def qb.Definition
	var shape error
	if in.SetBlocks {
		def, shape = criteria.Decode(in.QueryBlocks)
	}
	if err := joinDTO(msgs, shape); err != nil {
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
	var out *Detail
	err = txn.Run(ctx, s.client, func(ctx context.Context, tx *ent.Client) error {
		u := tx.EventFilter.UpdateOneID(id).Where(inProject(tid, pid))
		criteria.ApplyMeta(ctx, u.Mutation(), in.Name, in.Description)
		// updated_at is refreshed by the TimeMixin on every update.
		if _, err := u.Save(ctx); err != nil {
			return apperr.FromEnt(err, MsgNotFound, "")
		}
		if in.SetBlocks {
			if err := criteria.ReplaceBlocks(ctx, tx, criteria.Owner{EventFilterID: &id}, def); err != nil {
				return err
			}
		}
		out, err = s.get(ctx, tx, tid, pid, id)
		return err
	})
	return out, err
}

// Delete archives the filter into the trash (event-criteria:delete); its
// blocks stay with it until the trash purges it. An archived filter is not
// found again.
func (s *Service) Delete(ctx context.Context, id uuid.UUID) error {
	tid, pid, err := scope(ctx, auth.PermEventCriteriaDelete)
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
