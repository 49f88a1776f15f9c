package rest

import (
	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/internal/cutoff"
	"github.com/reten-io/reten/internal/project"
	"github.com/reten-io/reten/internal/tenant"
)

// tenantDTO is the tenant shape (SPEC.md does not show it).
type tenantDTO struct {
	ID        uuid.UUID `json:"id"`
	Name      string    `json:"name"`
	TimeZone  string    `json:"timeZone"`
	DayCutoff string    `json:"dayCutoff"`
	IsActive  bool      `json:"isActive"`
	stamps
}

func presentTenant(t *ent.Tenant) tenantDTO {
	return tenantDTO{ID: t.ID, Name: t.Name, TimeZone: t.TimeZone, DayCutoff: t.DayCutoff,
		IsActive: t.IsActive, stamps: stamps{t.CreatedAt, t.UpdatedAt}}
}

var tenantBody = bodyOf(func(b *body) tenant.Input {
	return tenant.Input{Name: b.str("name").Ptr(), TimeZone: b.str("time_zone", tenant.MsgTimeZone).Ptr(),
		DayCutoff: b.str("day_cutoff", tenant.MsgDayCutoff).Ptr()}
}, "name", "time_zone", "day_cutoff")

// tenantSettingsBody is the PATCH of the tenant's day settings.
var tenantSettingsBody = bodyOf(func(b *body) cutoff.Patch {
	return cutoff.Patch{TimeZone: b.str("time_zone", tenant.MsgTimeZone).Ptr(),
		DayCutoff: b.str("day_cutoff", tenant.MsgDayCutoff).Ptr(), LifecycleRunTime: b.str("lifecycle_run_time", cutoff.MsgLifecycleRunTime)}
}, "time_zone", "day_cutoff", "lifecycle_run_time")

// projectDTO is the SPEC.md project shape.
type projectDTO struct {
	ID             uuid.UUID  `json:"id"`
	Name           string     `json:"name"`
	RootAudienceID *uuid.UUID `json:"rootAudienceId"`
	IsMain         bool       `json:"isMain"`
}

func presentProject(p *ent.Project) projectDTO {
	return projectDTO{ID: p.ID, Name: p.Name, RootAudienceID: p.RootAudienceID, IsMain: p.IsMain}
}

// projectNameBody reads the name of a new or renamed project (the naming
// rules live in the service; its wrong type is SPEC.md's Spanish text).
var projectNameBody = bodyOf(func(b *body) string { return b.str("name", project.MsgNameNotString).OrZero() }, "name")
