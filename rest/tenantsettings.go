package rest

import (
	"net/http"

	"github.com/reten-io/reten/internal/cutoff"
	"github.com/reten-io/reten/internal/tenant"
)

func (a *api) getTenantSettings(w http.ResponseWriter, r *http.Request) error {
	s, err := a.TenantSettings.Get(r.Context())
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, s)
	return nil
}

func (a *api) updateTenantSettings(w http.ResponseWriter, r *http.Request) error {
	b, err := decodeBody(r, "time_zone", "day_cutoff")
	if err != nil {
		return err
	}
	var p cutoff.Patch
	p.TimeZone = b.optStr("time_zone", tenant.MsgTimeZone)
	p.DayCutoff = b.optStr("day_cutoff", tenant.MsgDayCutoff)
	if err := b.err(); err != nil {
		return err
	}
	s, err := a.TenantSettings.Update(r.Context(), p)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, s)
	return nil
}
