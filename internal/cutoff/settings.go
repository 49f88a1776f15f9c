package cutoff

import (
	"context"
	"fmt"
	"time"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
	enttenant "github.com/reten-io/reten/ent/tenant"
	"github.com/reten-io/reten/internal/apperr"
	"github.com/reten-io/reten/internal/patch"
	"github.com/reten-io/reten/internal/tenancy"
	"github.com/reten-io/reten/internal/tenant"
	"github.com/reten-io/reten/internal/txn"
)

// The 400 messages of the settings are those of PATCH /api/tenants/:id (one
// rule, one message): tenant.MsgTimeZone and tenant.MsgDayCutoff.

// ForTenant loads the day settings of a tenant with the caller's context (a
// request viewer of that tenant, or viewer.SystemContext for sweeps).
func ForTenant(ctx context.Context, client *ent.Client, tenantID uuid.UUID) (Settings, error) {
	t, err := txn.Client(ctx, client).Tenant.Query().Where(enttenant.ID(tenantID)).
		Select(enttenant.FieldTimeZone, enttenant.FieldDayCutoff).Only(ctx)
	if err != nil {
		return Settings{}, fmt.Errorf("cutoff: tenant %s: %w", tenantID, err)
	}
	return Parse(t.TimeZone, t.DayCutoff)
}

// CheckOpen answers 422 MsgDayClosed when the day of scheduledAt is closed at now.
func CheckOpen(scheduledAt, now time.Time, s Settings) error {
	if Closed(scheduledAt, now, s) {
		return apperr.Unprocessable(MsgDayClosed)
	}
	return nil
}

// CheckFuture applies the future_scheduled_at rules of a result: 422
// MsgFutureRequired when the result type requires it and it is missing,
// 422 MsgFutureInPast when it falls on a day before today.
func CheckFuture(required bool, future *time.Time, now time.Time, s Settings) error {
	switch {
	case future == nil && required:
		return apperr.Unprocessable(MsgFutureRequired)
	case future != nil && BeforeToday(*future, now, s):
		return apperr.Unprocessable(MsgFutureInPast)
	}
	return nil
}

// TenantSettings is the body of GET and PATCH /api/tenant-settings.
type TenantSettings struct {
	TimeZone  string `json:"timeZone"`
	DayCutoff string `json:"dayCutoff"`
	// LifecycleRunTime is the local time (HH:MM) of the daily lifecycle
	// engine run of every active AGC; nil: no scheduled run.
	LifecycleRunTime *string `json:"lifecycleRunTime"`
}

// Messages of the settings that PATCH /api/tenants/:id does not have.
const (
	MsgLifecycleRunTime = "lifecycle_run_time must be a time of day in HH:MM format or null"
	// MsgLifecycleRunTimeExclusive refuses a GraphQL update that both sets
	// and clears the run time.
	MsgLifecycleRunTimeExclusive = "lifecycleRunTime and clearLifecycleRunTime cannot be sent together"
)

// Patch is the body of PATCH /api/tenant-settings; nil (absent) fields are
// unchanged; LifecycleRunTime null clears it.
type Patch struct {
	TimeZone         *string
	DayCutoff        *string
	LifecycleRunTime patch.Patch[string]
}

// Validate returns the broken rules of the patch, in field order.
func (p Patch) Validate() []string {
	var msgs []string
	if p.TimeZone != nil {
		if _, ok := LoadZone(*p.TimeZone); !ok {
			msgs = append(msgs, tenant.MsgTimeZone)
		}
	}
	if p.DayCutoff != nil {
		if _, ok := ParseClock(*p.DayCutoff); !ok {
			msgs = append(msgs, tenant.MsgDayCutoff)
		}
	}
	if v, ok := p.LifecycleRunTime.Get(); ok {
		if _, ok := ParseClock(v); !ok {
			msgs = append(msgs, MsgLifecycleRunTime)
		}
	}
	return msgs
}

// Service reads and changes the day settings of the viewer's tenant.
type Service struct{ client *ent.Client }

// NewService returns a Service.
func NewService(client *ent.Client) *Service { return &Service{client: client} }

func (s *Service) db(ctx context.Context) *ent.Client { return txn.Client(ctx, s.client) }

// Get returns the settings of the viewer's tenant; any member may read them
// (operators need to know when their day closes).
func (s *Service) Get(ctx context.Context) (TenantSettings, error) {
	tenantID, err := tenancy.Tenant(ctx)
	if err != nil {
		return TenantSettings{}, err
	}
	return s.load(ctx, s.db(ctx), tenantID)
}

func (s *Service) load(ctx context.Context, c *ent.Client, tenantID uuid.UUID) (TenantSettings, error) {
	t, err := c.Tenant.Query().Where(enttenant.ID(tenantID)).Only(ctx)
	if err != nil {
		return TenantSettings{}, apperr.FromEnt(err, tenant.MsgNotFound, "")
	}
	return settingsOf(t), nil
}

func settingsOf(t *ent.Tenant) TenantSettings {
	return TenantSettings{TimeZone: t.TimeZone, DayCutoff: t.DayCutoff, LifecycleRunTime: t.LifecycleRunTime}
}

// Update changes the zone and/or the cutoff of the viewer's tenant.
// The new rules apply from the next check on:
// days already closed are not reopened by the auto-close job, which has
// already acted on them.
func (s *Service) Update(ctx context.Context, p Patch) (TenantSettings, error) {
	tenantID, err := tenancy.Tenant(ctx)
	if err != nil {
		return TenantSettings{}, err
	}
	if msgs := p.Validate(); len(msgs) > 0 {
		return TenantSettings{}, apperr.Validation(msgs...)
	}
	var out TenantSettings
	err = txn.Run(ctx, s.client, func(ctx context.Context, tx *ent.Client) error {
		// The tenant row is read through the privacy rule first: a member only.
		if _, err := s.load(ctx, tx, tenantID); err != nil {
			return err
		}
		upd := tx.Tenant.UpdateOneID(tenantID).SetNillableTimeZone(p.TimeZone).SetNillableDayCutoff(p.DayCutoff)
		switch v, ok := p.LifecycleRunTime.Get(); {
		case ok:
			upd.SetLifecycleRunTime(v)
		case p.LifecycleRunTime.IsNull():
			upd.ClearLifecycleRunTime()
		}
		t, err := upd.Save(ctx)
		if err != nil {
			return apperr.FromEnt(err, tenant.MsgNotFound, "")
		}
		out = settingsOf(t)
		return nil
	})
	return out, err
}
