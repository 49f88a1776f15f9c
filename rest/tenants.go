package rest

import (
	"net/http"
	"time"

	"github.com/google/uuid"
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

func (a *api) myTenants(w http.ResponseWriter, r *http.Request) error {
	ts, err := a.Tenants.Mine(r.Context())
	if err != nil {
		return err
	}
	out := make([]tenantDTO, len(ts))
	for i, t := range ts {
		out[i] = tenantDTO{ID: t.ID, Name: t.Name, TimeZone: t.TimeZone, DayCutoff: t.DayCutoff,
			IsActive: t.IsActive, CreatedAt: t.CreatedAt, UpdatedAt: t.UpdatedAt}
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}
