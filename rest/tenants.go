package rest

import (
	"net/http"
	"time"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/internal/tenant"
)

// tenantDTO is the tenant shape (SPEC.md does not show it).
type tenantDTO struct {
	ID        uuid.UUID `json:"id"`
	Name      string    `json:"name"`
	TimeZone  string    `json:"timeZone"`
	DayCutoff string    `json:"dayCutoff"`
	IsActive  bool      `json:"isActive"`
	CreatedAt time.Time `json:"createdAt"`
	UpdatedAt time.Time `json:"updatedAt"`
}

func presentTenant(t *ent.Tenant) tenantDTO {
	return tenantDTO{ID: t.ID, Name: t.Name, TimeZone: t.TimeZone, DayCutoff: t.DayCutoff,
		IsActive: t.IsActive, CreatedAt: t.CreatedAt, UpdatedAt: t.UpdatedAt}
}

func writeTenants(w http.ResponseWriter, ts []*ent.Tenant, err error) error {
	if err != nil {
		return err
	}
	out := make([]tenantDTO, len(ts))
	for i, t := range ts {
		out[i] = presentTenant(t)
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}

func (a *api) myTenants(w http.ResponseWriter, r *http.Request) error {
	ts, err := a.Tenants.Mine(r.Context())
	return writeTenants(w, ts, err)
}

func (a *api) listTenants(w http.ResponseWriter, r *http.Request) error {
	ts, err := a.Tenants.List(r.Context())
	return writeTenants(w, ts, err)
}

func decodeTenantInput(r *http.Request) (tenant.Input, error) {
	b, err := decodeBody(r, "name", "time_zone", "day_cutoff")
	if err != nil {
		return tenant.Input{}, err
	}
	in := tenant.Input{
		Name:      b.optStr("name", msgNameString),
		TimeZone:  b.optStr("time_zone", tenant.MsgTimeZone),
		DayCutoff: b.optStr("day_cutoff", tenant.MsgDayCutoff),
	}
	return in, b.err()
}

func (a *api) createTenant(w http.ResponseWriter, r *http.Request) error {
	in, err := decodeTenantInput(r)
	if err != nil {
		return err
	}
	t, err := a.Tenants.Create(r.Context(), in)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusCreated, presentTenant(t))
	return nil
}

func (a *api) updateTenant(w http.ResponseWriter, r *http.Request) error {
	id, err := pathUUID(r, "id")
	if err != nil {
		return err
	}
	in, err := decodeTenantInput(r)
	if err != nil {
		return err
	}
	t, err := a.Tenants.Update(r.Context(), id, in)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, presentTenant(t))
	return nil
}
