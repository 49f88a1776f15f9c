package audience

import (
	"context"
	"strings"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/ent/audience"
	"github.com/reten-io/reten/ent/audiencecomposition"
	"github.com/reten-io/reten/internal/apperr"
	"github.com/reten-io/reten/internal/clock"
	"github.com/reten-io/reten/internal/criteria"
	"github.com/reten-io/reten/internal/patch"
	"github.com/reten-io/reten/internal/tenancy"
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
// in one transaction. Shape errors (name, block
// structure, compositions) come first, as one 400 listing them all; then the
// catalog rules (404 when the tenant has no dataset).
func (s *Service) Create(ctx context.Context, in CreateInput) (*Detail, error) {
	tid, pid, err := tenancy.Project(ctx)
	if err != nil {
		return nil, err
	}
	msgs := criteria.NameRule(in.Name)
	def, err := criteria.Decode(in.QueryBlocks)
	if err := joinDTO(msgs, err, in.Compositions); err != nil {
		return nil, err
	}
	if err := s.check(ctx, tid, pid, uuid.Nil, def, in.Compositions); err != nil {
		return nil, err
	}
	return txn.Value(ctx, s.client, func(ctx context.Context, tx *ent.Client) (*Detail, error) {
		a, err := tx.Audience.Create().SetTenantID(tid).SetProjectID(pid).
			SetName(strings.TrimSpace(in.Name)).SetNillableDescription(in.Description).
			SetNillableOwnerID(tenancy.Actor(ctx)).SetNillableUpdatedBy(tenancy.Actor(ctx)).Save(ctx)
		if err != nil {
			return nil, err
		}
		if err := criteria.CreateBlocks(ctx, tx, criteria.Owner{AudienceID: &a.ID}, def); err != nil {
			return nil, err
		}
		if err := createCompositions(ctx, tx, a.ID, in.Compositions); err != nil {
			return nil, err
		}
		return s.get(ctx, tx, tid, pid, a.ID)
	})
}

// joinDTO is criteria.JoinDTO with the messages of the compositions last.
func joinDTO(msgs []string, err error, comps []CompositionInput) error {
	var invalid error
	if issues := compositionIssues(comps); len(issues) > 0 {
		invalid = criteria.Invalid(issues)
	}
	return criteria.JoinDTO(msgs, err, invalid)
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
	// ConfirmDefaultRoot confirms a definition edit of the root audience
	// that changes the population of the configs falling back on it.
	ConfirmDefaultRoot bool
}

// Update applies a PATCH, the root audience
// included: a sent definition part (blocks, compositions or both) is
// validated together with the stored rest before anything is deleted, and
// replaces the stored part (new block ids); every update, an empty one too,
// sets updatedBy and refreshes updatedAt. A name or description change does
// not revalidate the stored definition. A definition part sent for the
// project's root audience while activity generation configs of the project
// fall back on it (audienceId null) is refused with the 409
// DEFAULT_ROOT_CONFIRMATION_REQUIRED naming them, after the definition's
// own rules, unless ConfirmDefaultRoot.
func (s *Service) Update(ctx context.Context, id uuid.UUID, in UpdateInput) (*Detail, error) {
	tid, pid, err := tenancy.Project(ctx)
	if err != nil {
		return nil, err
	}
	def, shape := criteria.DecodeSent(in.SetBlocks, in.QueryBlocks)
	if err := joinDTO(criteria.PatchNameRule(in.Name), shape, in.Compositions); err != nil {
		return nil, err
	}
	cur, err := s.get(ctx, s.db(ctx), tid, pid, id)
	if err != nil {
		return nil, err
	}
	if in.SetBlocks || in.SetCompositions {
		if _, _, err := s.checkChange(ctx, tid, pid, cur, in.SetBlocks, def, in.SetCompositions, in.Compositions); err != nil {
			return nil, err
		}
	}
	return txn.Value(ctx, s.client, func(ctx context.Context, tx *ent.Client) (*Detail, error) {
		if err := confirmRootEdit(ctx, tx, cur.Audience, in); err != nil {
			return nil, err
		}
		u := tx.Audience.UpdateOneID(id).Where(inProject(tid, pid))
		p := criteria.Patch{Name: in.Name, Description: in.Description, SetBlocks: in.SetBlocks, Def: def}
		if err := p.Save(ctx, tx, u.Mutation(), u.Exec, MsgNotFound, criteria.Owner{AudienceID: &id}); err != nil {
			return nil, err
		}
		if in.SetCompositions {
			if _, err := tx.AudienceComposition.Delete().Where(audiencecomposition.AudienceID(id)).Exec(ctx); err != nil {
				return nil, err
			}
			if err := createCompositions(ctx, tx, id, in.Compositions); err != nil {
				return nil, err
			}
		}
		return s.get(ctx, tx, tid, pid, id)
	})
}

// Delete archives the audience into the trash;
// its blocks and compositions stay with it until the trash purges it. The
// checks run in the SPEC.md order, the first failure aborting: not a live
// audience of the project 404, the project's root audience 409, an operand
// of another live audience 400.
func (s *Service) Delete(ctx context.Context, id uuid.UUID) error {
	tid, pid, err := tenancy.Project(ctx)
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
