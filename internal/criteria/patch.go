package criteria

import (
	"context"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/internal/apperr"
	"github.com/reten-io/reten/internal/patch"
	qb "github.com/reten-io/reten/internal/querybuilder"
)

// Patch is the PATCH of what audiences and event filters share: the name,
// the description and, when SetBlocks, the blocks (Def, decoded and checked).
type Patch struct {
	Name, Description patch.Patch[string]
	SetBlocks         bool
	Def               qb.Definition
}

// Save writes p through the owner's update: m is the update's mutation and
// exec saves it (404 notFound when the owner is gone); sent blocks then
// replace the owner's (new ids). Every update, an empty one too, sets
// updatedBy, and the TimeMixin refreshes updated_at.
func (p Patch) Save(ctx context.Context, tx *ent.Client, m metaMutation, exec func(context.Context) error,
	notFound string, owner Owner) error {
	ApplyMeta(ctx, m, p.Name, p.Description)
	if err := exec(ctx); err != nil {
		return apperr.FromEnt(err, notFound, "")
	}
	if !p.SetBlocks {
		return nil
	}
	return ReplaceBlocks(ctx, tx, owner, p.Def)
}

// DecodeSent is Decode of the blocks of a PATCH: an empty definition and no
// error when they were not sent.
func DecodeSent(sent bool, blocks any) (qb.Definition, error) {
	if !sent {
		return qb.Definition{}, nil
	}
	return Decode(blocks)
}

// PatchNameRule is NameRule of a PATCH's name: nothing to check when it was
// not sent, and a null name breaks the rule.
func PatchNameRule(name patch.Patch[string]) []string {
	if !name.Sent() {
		return nil
	}
	return NameRule(name.OrZero())
}
