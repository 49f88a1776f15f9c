package rest

import (
	"fmt"
	"net/http"
	"time"

	"github.com/reten-io/reten/internal/resulttype"
)

// Messages of result type config body decoding.
const (
	msgRTCodeString   = "code must be a string"
	msgRTItemsArray   = "items must be an array"
	msgRTItemObjectFm = "items.%d must be an object"
)

// resultTypeHandlers maps the REST lines of tenancy.resultTypeMatrix to their handlers.
func (a *api) resultTypeHandlers() map[string]handler {
	return map[string]handler{
		"GET /task-result-type-configs":             a.listResultTypeConfigs,
		"PUT /task-result-type-configs":             a.putResultTypeConfigs,
		"PUT /task-result-type-configs/{code}":      a.putResultTypeConfig,
		"GET /integration/task-result-type-configs": a.integrationResultTypeConfigs,
		"GET /tenant-settings":                      a.getTenantSettings,
		"PATCH /tenant-settings":                    a.updateTenantSettings,
	}
}

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

func (a *api) listResultTypeConfigs(w http.ResponseWriter, r *http.Request) error {
	items, err := a.ResultTypes.List(r.Context())
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, presentAll(items, presentResultTypeConfig))
	return nil
}

func (a *api) integrationResultTypeConfigs(w http.ResponseWriter, r *http.Request) error {
	items, err := a.ResultTypes.Integration(r.Context())
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, presentAll(items, presentIntegrationResultType))
	return nil
}

// resultTypeFields are the members of one config (PUT :code body, bulk item).
var resultTypeFields = []string{"is_active", "polarity", "requires_future_scheduled_at"}

// readResultTypeInput reads the config members of b into in.
func readResultTypeInput(b *body, in *resulttype.Input) {
	in.IsActive = b.boolean("is_active", resulttype.MsgIsActive)
	in.Polarity = b.optStr("polarity", resulttype.MsgPolarity)
	in.RequiresFutureScheduledAt = b.boolean("requires_future_scheduled_at", resulttype.MsgRequiresDate)
}

func (a *api) putResultTypeConfig(w http.ResponseWriter, r *http.Request) error {
	b, err := decodeBody(r, resultTypeFields...)
	if err != nil {
		return err
	}
	in := resulttype.Input{Code: urlParam(r, "code")}
	readResultTypeInput(b, &in)
	if err := b.err(); err != nil {
		return err
	}
	c, err := a.ResultTypes.Put(r.Context(), in)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, presentResultTypeConfig(c))
	return nil
}

func (a *api) putResultTypeConfigs(w http.ResponseWriter, r *http.Request) error {
	b, err := decodeBody(r, "items")
	if err != nil {
		return err
	}
	raws, present := b.array("items", msgRTItemsArray)
	if !present && !b.has("items") {
		raws = nil
	}
	items := make([]resulttype.Input, len(raws))
	for i, raw := range raws {
		ib, ok := objectBody(raw, append([]string{"code"}, resultTypeFields...)...)
		if !ok {
			b.fail(fmt.Sprintf(msgRTItemObjectFm, i))
			continue
		}
		items[i].Code, _ = ib.str("code", msgRTCodeString)
		readResultTypeInput(ib, &items[i])
		for _, m := range ib.msgs {
			b.fail(fmt.Sprintf("items.%d.%s", i, m))
		}
	}
	if err := b.err(); err != nil {
		return err
	}
	out, err := a.ResultTypes.PutBulk(r.Context(), items)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, presentAll(out, presentResultTypeConfig))
	return nil
}
