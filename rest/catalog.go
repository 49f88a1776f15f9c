package rest

import (
	"net/http"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/internal/catalog"
)

// reasonConfigDTO is the SPEC.md activity reason config shape.
type reasonConfigDTO struct {
	ID       uuid.UUID `json:"id"`
	Code     string    `json:"code"`
	Label    string    `json:"label"`
	IsActive bool      `json:"isActive"`
	stamps
}

func presentReasonConfig(r *ent.ActivityReasonConfig) reasonConfigDTO {
	return reasonConfigDTO{ID: r.ID, Code: r.Code, Label: r.Label, IsActive: r.IsActive, stamps: stamps{r.CreatedAt, r.UpdatedAt}}
}

// statusConfigDTO is the designed retention status config shape.
type statusConfigDTO struct {
	ID          uuid.UUID `json:"id"`
	Code        string    `json:"code"`
	Label       string    `json:"label"`
	Stage       string    `json:"stage"`
	Description *string   `json:"description"`
	IsActive    bool      `json:"isActive"`
	stamps
}

func presentStatusConfig(r *ent.RetentionStatusConfig) statusConfigDTO {
	return statusConfigDTO{ID: r.ID, Code: r.Code, Label: r.Label, Stage: string(r.Stage), Description: nullable(r.Description),
		IsActive: r.IsActive, stamps: stamps{r.CreatedAt, r.UpdatedAt}}
}

// reasonMembers are the members of a new reason config (body or bulk item).
var reasonMembers = []string{"code", "label"}

func readReason(b *body) catalog.ReasonInput {
	return catalog.ReasonInput{Code: b.str("code").OrZero(), Label: b.str("label").OrZero()}
}

var reasonBody = bodyOf(readReason, reasonMembers...)

// reasonItemsBody is the bulk creation: {items: [reason...]}.
var reasonItemsBody = bodyOf(func(b *body) []catalog.ReasonInput {
	raws := b.array("items").OrZero()
	items := make([]catalog.ReasonInput, len(raws))
	for i, raw := range raws {
		if ib := b.elem("items", i, raw, reasonMembers...); ib != nil {
			items[i] = readReason(ib)
		}
	}
	return items
}, "items")

var reasonPatchBody = bodyOf(func(b *body) catalog.ReasonPatch {
	return catalog.ReasonPatch{Label: b.str("label").Ptr(), IsActive: b.boolean("is_active").Ptr()}
}, "label", "is_active")

var statusBody = bodyOf(func(b *body) catalog.StatusInput {
	return catalog.StatusInput{Code: b.str("code").OrZero(), Label: b.str("label").OrZero(),
		Stage: b.str("stage", catalog.MsgStageValues).OrZero(), Description: b.str("description").Ptr()}
}, "code", "label", "stage", "description")

var statusPatchBody = bodyOf(func(b *body) catalog.StatusPatch {
	return catalog.StatusPatch{Label: b.str("label").Ptr(), Stage: b.str("stage", catalog.MsgStageValues).Ptr(),
		Description: b.str("description").Ptr(), IsActive: b.boolean("is_active").Ptr()}
}, "label", "stage", "description", "is_active")

func (a *api) listStatusConfigs(w http.ResponseWriter, r *http.Request) error {
	q := queryOf(r)
	f := catalog.StatusFilter{Stage: q.Get("stage"), IsActive: q.flag("is_active")}
	if err := q.err(); err != nil {
		return err
	}
	return writer(w, http.StatusOK, each(presentStatusConfig))(a.Catalog.ListStatuses(r.Context(), f))
}
