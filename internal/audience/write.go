package audience

import (
	"context"
	"errors"
	"strings"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/ent/audience"
	"github.com/reten-io/reten/ent/audiencecomposition"
	"github.com/reten-io/reten/internal/apperr"
	"github.com/reten-io/reten/internal/auth"
	"github.com/reten-io/reten/internal/clock"
	"github.com/reten-io/reten/internal/criteria"
	"github.com/reten-io/reten/internal/patch"
	qb "github.com/reten-io/reten/internal/querybuilder"
	"github.com/reten-io/reten/internal/trash"
	"github.com/reten-io/reten/internal/txn"
)

// Messages of the audience write rules (SPEC.md "Endpoints > Audiences"
// spells the delete ones).
const (
	MsgNameEmpty   = criteria.MsgNameEmpty
	MsgNameTooLong = criteria.MsgNameTooLong
	// MsgRootDelete is the 409 of DELETE on the project's root audience.
	MsgRootDelete = "La audiencia raíz de un proyecto no se puede eliminar."
	// MsgReferenced is the 400 of DELETE on an audience that a live
	// audience uses as a composition operand.
	MsgReferenced = "Cannot delete an audience criteria that is referenced by another active audience criteria; remove that composition from the referencing audience criteria first."
)

func validName(name string) []string { return criteria.NameRule(name) }

// CreateInput is the body of a new audience; QueryBlocks is the parsed JSON
// of the queryBlocks array (nil when it was not sent).
type CreateInput struct {
	Name         string
	Description  *string
	QueryBlocks  any
	Compositions []CompositionInput
}

// Create validates the definition against the tenant's catalog (identity
// column, no unnests, operands live audiences of the project, compatible
// subject columns) and stores the audience with its blocks and compositions
// in one transaction (audience-criteria:create). Shape errors (name, block
// structure, compositions) come first, as one 400 listing them all; then the
// catalog rules (404 when the tenant has no dataset).
func (s *Service) Create(ctx context.Context, in CreateInput) (*Detail, error) {
	tid, pid, err := scope(ctx, auth.PermAudienceCreate)
	if err != nil {
		return nil, err
	}
	msgs := validName(in.Name)
	def, err := criteria.Decode(in.QueryBlocks)
	if err := joinDTO(msgs, err, in.Compositions); err != nil {
		return nil, err
	}
	if err := s.check(ctx, tid, pid, uuid.Nil, def, in.Compositions); err != nil {
		return nil, err
	}
	var out *Detail
	err = txn.Run(ctx, s.client, func(ctx context.Context, tx *ent.Client) error {
		a, err := tx.Audience.Create().SetTenantID(tid).SetProjectID(pid).
			SetName(strings.TrimSpace(in.Name)).SetNillableDescription(in.Description).
			SetNillableOwnerID(criteria.Actor(ctx)).SetNillableUpdatedBy(criteria.Actor(ctx)).Save(ctx)
		if err != nil {
			return err
		}
		if err := criteria.CreateBlocks(ctx, tx, criteria.Owner{AudienceID: &a.ID}, def); err != nil {
			return err
		}
		if err := createCompositions(ctx, tx, a.ID, in.Compositions); err != nil {
			return err
		}
		out, err = s.get(ctx, tx, tid, pid, a.ID)
		return err
	})
	return out, err
}

// joinDTO merges the caller's own DTO messages, those of a shape error and
// those of the compositions (a 400 listing every broken rule); other errors
// pass through.
func joinDTO(msgs []string, err error, comps []CompositionInput) error {
	if err != nil {
		var e *apperr.Error
		if !errors.As(err, &e) || e.Kind != apperr.KindInvalid {
			return err
		}
		msgs = append(msgs, e.Messages...)
	}
	if issues := compositionIssues(comps); len(issues) > 0 {
		var e *apperr.Error
		if errors.As(criteria.Invalid(issues), &e) {
			msgs = append(msgs, e.Messages...)
		}
	}
	if len(msgs) == 0 {
		return nil
	}
	return apperr.Validation(msgs...)
}

func createCompositions(ctx context.Context, tx *ent.Client, id uuid.UUID, comps []CompositionInput) error {
	if len(comps) == 0 {
		return nil
	}
	builders := make([]*ent.AudienceCompositionCreate, len(comps))
	for i, c := range comps {
		builders[i] = tx.AudienceComposition.Create().SetAudienceID(id).SetOperandAudienceID(c.OperandID).
			SetSetOperator(audiencecomposition.SetOperator(c.SetOperator)).SetOrder(i)
	}
	return tx.AudienceComposition.CreateBulk(builders...).Exec(ctx)
}

// UpdateInput is a PATCH: absent fields are unchanged; a null name breaks
// the name rule, a null description clears it; QueryBlocks replaces every
// block when SetBlocks, Compositions every composition when SetCompositions.
type UpdateInput struct {
	Name            patch.Patch[string]
	Description     patch.Patch[string]
	SetBlocks       bool
	QueryBlocks     any
	SetCompositions bool
	Compositions    []CompositionInput
}

// Update applies a PATCH (audience-criteria:update), the root audience
// included: a sent definition part (blocks, compositions or both) is
// validated together with the stored rest before anything is deleted, and
// replaces the stored part (new block ids); every update, an empty one too,
// sets updatedBy and refreshes updatedAt. A name or description change does
// not revalidate the stored definition.
func (s *Service) Update(ctx context.Context, id uuid.UUID, in UpdateInput) (*Detail, error) {
	tid, pid, err := scope(ctx, auth.PermAudienceUpdate)
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
	if err := joinDTO(msgs, shape, in.Compositions); err != nil {
		return nil, err
	}
	cur, err := s.get(ctx, s.db(ctx), tid, pid, id)
	if err != nil {
		return nil, err
	}
	if in.SetBlocks || in.SetCompositions {
		if !in.SetBlocks {
			if def, err = criteria.Definition(cur.Edges.QueryBlocks); err != nil {
				return nil, err
			}
		}
		comps := storedCompositions(cur.Audience)
		if in.SetCompositions {
			comps = in.Compositions
		}
		if err := s.check(ctx, tid, pid, id, def, comps); err != nil {
			return nil, err
		}
	}
	var out *Detail
	err = txn.Run(ctx, s.client, func(ctx context.Context, tx *ent.Client) error {
		u := tx.Audience.UpdateOneID(id).Where(inProject(tid, pid))
		criteria.ApplyMeta(ctx, u.Mutation(), in.Name, in.Description)
		// updated_at is refreshed by the TimeMixin on every update.
		if _, err := u.Save(ctx); err != nil {
			return apperr.FromEnt(err, MsgNotFound, "")
		}
		if in.SetBlocks {
			if err := criteria.ReplaceBlocks(ctx, tx, criteria.Owner{AudienceID: &id}, def); err != nil {
				return err
			}
		}
		if in.SetCompositions {
			if _, err := tx.AudienceComposition.Delete().Where(audiencecomposition.AudienceID(id)).Exec(ctx); err != nil {
				return err
			}
			if err := createCompositions(ctx, tx, id, in.Compositions); err != nil {
				return err
			}
		}
		out, err = s.get(ctx, tx, tid, pid, id)
		return err
	})
	return out, err
}

// Delete archives the audience into the trash (audience-criteria:delete);
// its blocks and compositions stay with it until the trash purges it. The
// checks run in the SPEC.md order, the first failure aborting: not a live
// audience of the project 404, the project's root audience 409, an operand
// of another live audience 400.
func (s *Service) Delete(ctx context.Context, id uuid.UUID) error {
	tid, pid, err := scope(ctx, auth.PermAudienceDelete)
	if err != nil {
		return err
	}
	return txn.Run(ctx, s.client, func(ctx context.Context, tx *ent.Client) error {
		a, err := tx.Audience.Query().Where(audience.ID(id), inProject(tid, pid)).Only(ctx)
		if err != nil {
			return apperr.FromEnt(err, MsgNotFound, "")
		}
		if a.IsRoot {
			return apperr.Conflict(MsgRootDelete)
		}
		referenced, err := tx.AudienceComposition.Query().Where(audiencecomposition.OperandAudienceID(id),
			audiencecomposition.HasAudienceWith(audience.ArchivedAtIsNil(), audience.IDNEQ(id))).Exist(ctx)
		if err != nil {
			return err
		}
		if referenced {
			return apperr.Invalid(MsgReferenced)
		}
		if err := tx.Audience.UpdateOneID(id).Where(inProject(tid, pid)).SetArchivedAt(clock.Now()).Exec(ctx); err != nil {
			return apperr.FromEnt(err, MsgNotFound, "")
		}
		return trash.Archive(ctx, tx, trash.Record{Kind: trash.KindAudience, RecordID: id, Label: a.Name, ProjectID: &pid})
	})
}
