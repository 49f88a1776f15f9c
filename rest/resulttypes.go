package rest

import (
	"net/http"
	"time"

	"github.com/reten-io/reten/internal/resulttype"
)

// resultTypeConfigDTO is the designed shape of a tenant's result type config.
type resultTypeConfigDTO struct {
	Code                      string     `json:"code"`
	Label                     string     `json:"label"`
	IsActive                  bool       `json:"isActive"`
	Polarity                  string     `json:"polarity"`
	RequiresFutureScheduledAt bool       `json:"requiresFutureScheduledAt"`
	IsDefault                 bool       `json:"isDefault"`
	UpdatedAt                 *time.Time `json:"updatedAt"`
}

func presentResultTypeConfig(c resulttype.Config) resultTypeConfigDTO {
	return resultTypeConfigDTO{Code: c.Code, Label: c.Label, IsActive: c.IsActive, Polarity: c.Polarity,
		RequiresFutureScheduledAt: c.RequiresFutureScheduledAt, IsDefault: c.IsDefault, UpdatedAt: c.UpdatedAt}
}

// integrationResultTypeDTO is what an integrator needs of an active type.
type integrationResultTypeDTO struct {
	Code                      string `json:"code"`
	Label                     string `json:"label"`
	Polarity                  string `json:"polarity"`
	RequiresFutureScheduledAt bool   `json:"requiresFutureScheduledAt"`
}

func presentIntegrationResultType(c resulttype.Config) integrationResultTypeDTO {
	return integrationResultTypeDTO{Code: c.Code, Label: c.Label, Polarity: c.Polarity,
		RequiresFutureScheduledAt: c.RequiresFutureScheduledAt}
}

// resultTypeFields are the members of one config (PUT :code body, bulk item).
var resultTypeFields = []string{"is_active", "polarity", "requires_future_scheduled_at"}

// readResultType reads the config members of b into in.
func readResultType(b *body, in resulttype.Input) resulttype.Input {
	in.IsActive = b.boolean("is_active").Ptr()
	in.Polarity = b.str("polarity", resulttype.MsgPolarity).Ptr()
	in.RequiresFutureScheduledAt = b.boolean("requires_future_scheduled_at").Ptr()
	return in
}

var resultTypeBody = bodyOf(func(b *body) resulttype.Input { return readResultType(b, resulttype.Input{}) }, resultTypeFields...)

func (a *api) putResultTypeConfig(w http.ResponseWriter, r *http.Request) error {
	in, err := resultTypeBody(r)
	if err != nil {
		return err
	}
	in.Code = urlParam(r, "code")
	return writer(w, http.StatusOK, presentResultTypeConfig)(a.ResultTypes.Put(r.Context(), in))
}

// resultTypeItemsBody is the bulk PUT: {items: [{code, ...config}]}.
var resultTypeItemsBody = bodyOf(func(b *body) []resulttype.Input {
	raws := b.array("items").OrZero()
	items := make([]resulttype.Input, len(raws))
	for i, raw := range raws {
		if ib := b.elem("items", i, raw, append([]string{"code"}, resultTypeFields...)...); ib != nil {
			items[i] = readResultType(ib, resulttype.Input{Code: ib.str("code").OrZero()})
		}
	}
	return items
}, "items")
