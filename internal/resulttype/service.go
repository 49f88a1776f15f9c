package resulttype

import (
	"context"
	"fmt"
	"time"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/ent/tenantresulttypeconfig"
	"github.com/reten-io/reten/internal/apperr"
	"github.com/reten-io/reten/internal/clock"
	"github.com/reten-io/reten/internal/fields"
	"github.com/reten-io/reten/internal/tenancy"
	"github.com/reten-io/reten/internal/txn"
)

// Messages of the result type configs.
const (
	// MsgInactive is the exact SPEC.md 422: the code does not exist or is inactive.
	MsgInactive      = "El tipo de resultado seleccionado no está activo."
	MsgNotFound      = "Task result type not found"
	MsgIsActive      = "is_active must be a boolean value"
	MsgPolarity      = "polarity must be one of the following values: POSITIVE, NEGATIVE"
	MsgRequiresDate  = "requires_future_scheduled_at must be a boolean value"
	MsgItemsMin      = fields.MsgItemsMin
	msgItemCodeFmt   = "items.%d.code must be one of the following values: %s"
	msgItemPrefixFmt = "items.%d.%s"
)

// Config is a result type as a tenant has it: its configuration, or the
// catalog default when the tenant never configured it (IsDefault).
type Config struct {
	Code                      string
	Label                     string
	IsActive                  bool
	Polarity                  string
	RequiresFutureScheduledAt bool
	IsDefault                 bool
	// UpdatedAt is when the tenant last configured the type; nil for a default.
	UpdatedAt *time.Time
}

// Input configures one type (PUT replaces the whole configuration, so every
// field is required; nil means not sent).
type Input struct {
	Code                      string
	IsActive                  *bool
	Polarity                  *string
	RequiresFutureScheduledAt *bool
}

// validate returns the broken rules of the fields (not of the code).
func (in Input) validate() []string {
	var msgs []string
	if in.IsActive == nil {
		msgs = append(msgs, MsgIsActive)
	}
	if in.Polarity == nil || (*in.Polarity != Positive && *in.Polarity != Negative) {
		msgs = append(msgs, MsgPolarity)
	}
	if in.RequiresFutureScheduledAt == nil {
		msgs = append(msgs, MsgRequiresDate)
	}
	return msgs
}

// Service manages the result type configs of the viewer's tenant.
type Service struct{ client *ent.Client }

// NewService returns a Service.
func NewService(client *ent.Client) *Service { return &Service{client: client} }

func (s *Service) db(ctx context.Context) *ent.Client { return txn.Client(ctx, s.client) }

// List returns every catalog type with the tenant's configuration or its
// default, in catalog order.
func (s *Service) List(ctx context.Context) ([]Config, error) {
	tenantID, err := tenancy.Tenant(ctx)
	if err != nil {
		return nil, err
	}
	return configs(ctx, s.db(ctx), tenantID)
}

// Integration returns the active types of the tenant, in catalog order: what
// an integrator needs to submit results.
func (s *Service) Integration(ctx context.Context) ([]Config, error) {
	all, err := s.List(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]Config, 0, len(all))
	for _, c := range all {
		if c.IsActive {
			out = append(out, c)
		}
	}
	return out, nil
}

// Rule is what a result submission needs of a result type as its tenant
// has it (an active one: an inactive type is refused).
type Rule struct{ RequiresFutureScheduledAt bool }

// Configured is a tenant's stored configuration of a type, as a submission
// reads it (with another statement's columns, see RuleOf).
type Configured struct{ IsActive, RequiresFutureScheduledAt bool }

// RuleOf is the rule of code for a result submission, given the tenant's
// configuration of it (nil: never configured, the catalog default), or 422
// MsgInactive when the code is not in the catalog or the tenant deactivated
// it.
func RuleOf(code string, configured *Configured) (Rule, error) {
	def, ok := Lookup(code)
	switch {
	case !ok || configured != nil && !configured.IsActive:
		return Rule{}, apperr.Unprocessable(MsgInactive)
	case configured != nil:
		return Rule{RequiresFutureScheduledAt: configured.RequiresFutureScheduledAt}, nil
	}
	return Rule{RequiresFutureScheduledAt: def.RequiresFutureScheduledAt}, nil
}

// Active reads the tenant's configuration of code and returns RuleOf it. It
// checks no permission (the caller checked its own) and reads through the
// transaction of ctx, if any.
func (s *Service) Active(ctx context.Context, tenantID uuid.UUID, code string) (Rule, error) {
	if _, ok := Lookup(code); !ok {
		return RuleOf(code, nil)
	}
	row, err := s.db(ctx).TenantResultTypeConfig.Query().Where(tenantresulttypeconfig.TenantID(tenantID),
		tenantresulttypeconfig.ResultTypeCode(code)).Only(ctx)
	switch {
	case ent.IsNotFound(err):
		return RuleOf(code, nil)
	case err != nil:
		return Rule{}, fmt.Errorf("result type %s: %w", code, err)
	}
	return RuleOf(code, &Configured{IsActive: row.IsActive, RequiresFutureScheduledAt: row.RequiresFutureScheduledAt})
}

// Put configures one type of the tenant: 404 for
// a code outside the catalog, 400 with every broken rule.
func (s *Service) Put(ctx context.Context, in Input) (Config, error) {
	tenantID, err := tenancy.Tenant(ctx)
	if err != nil {
		return Config{}, err
	}
	def, ok := Lookup(in.Code)
	if !ok {
		return Config{}, apperr.NotFound(MsgNotFound)
	}
	if msgs := in.validate(); len(msgs) > 0 {
		return Config{}, apperr.Validation(msgs...)
	}
	if err := txn.Run(ctx, s.client, func(ctx context.Context, tx *ent.Client) error {
		return upsert(ctx, tx, tenantID, in)
	}); err != nil {
		return Config{}, err
	}
	row, err := s.db(ctx).TenantResultTypeConfig.Query().Where(tenantresulttypeconfig.TenantID(tenantID),
		tenantresulttypeconfig.ResultTypeCode(in.Code)).Only(ctx)
	if err != nil {
		return Config{}, fmt.Errorf("result type %s: %w", in.Code, err)
	}
	return rowConfig(def, row), nil
}

// PutBulk configures several types in one transaction:
// one broken item and nothing is written. It
// returns the whole list, as List.
func (s *Service) PutBulk(ctx context.Context, items []Input) ([]Config, error) {
	tenantID, err := tenancy.Tenant(ctx)
	if err != nil {
		return nil, err
	}
	msgs := fields.ItemCount(len(items), len(types))
	codes := fields.Codes{}
	for i, it := range items {
		if _, ok := Lookup(it.Code); !ok {
			msgs = append(msgs, fmt.Sprintf(msgItemCodeFmt, i, codeList))
		} else if msg, repeated := codes.Repeat(i, it.Code); repeated {
			msgs = append(msgs, msg)
		}
		for _, m := range it.validate() {
			msgs = append(msgs, fmt.Sprintf(msgItemPrefixFmt, i, m))
		}
	}
	if len(msgs) > 0 {
		return nil, apperr.Validation(msgs...)
	}
	var out []Config
	err = txn.Run(ctx, s.client, func(ctx context.Context, tx *ent.Client) error {
		for _, it := range items {
			if err := upsert(ctx, tx, tenantID, it); err != nil {
				return err
			}
		}
		out, err = configs(ctx, tx, tenantID)
		return err
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// upsert writes the tenant's row of one type (one statement: concurrent PUTs
// of the same code never collide on the unique index).
func upsert(ctx context.Context, c *ent.Client, tenantID uuid.UUID, in Input) error {
	pol := tenantresulttypeconfig.Polarity(*in.Polarity)
	err := c.TenantResultTypeConfig.Create().SetTenantID(tenantID).SetResultTypeCode(in.Code).
		SetIsActive(*in.IsActive).SetPolarity(pol).SetRequiresFutureScheduledAt(*in.RequiresFutureScheduledAt).
		OnConflictColumns(tenantresulttypeconfig.FieldTenantID, tenantresulttypeconfig.FieldResultTypeCode).
		Update(func(u *ent.TenantResultTypeConfigUpsert) {
			u.SetIsActive(*in.IsActive).SetPolarity(pol).SetRequiresFutureScheduledAt(*in.RequiresFutureScheduledAt).
				SetUpdatedAt(clock.Now())
		}).Exec(ctx)
	if err != nil {
		return fmt.Errorf("result type %s: %w", in.Code, err)
	}
	return nil
}

// configs merges the tenant's rows over the catalog defaults.
func configs(ctx context.Context, c *ent.Client, tenantID uuid.UUID) ([]Config, error) {
	rows, err := c.TenantResultTypeConfig.Query().Where(tenantresulttypeconfig.TenantID(tenantID)).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("result type configs: %w", err)
	}
	byCode := make(map[string]*ent.TenantResultTypeConfig, len(rows))
	for _, r := range rows {
		byCode[r.ResultTypeCode] = r
	}
	out := make([]Config, len(types))
	for i, t := range types {
		if r, ok := byCode[t.Code]; ok {
			out[i] = rowConfig(t, r)
		} else {
			out[i] = defaultConfig(t)
		}
	}
	return out, nil
}

func defaultConfig(t Type) Config {
	return Config{Code: t.Code, Label: t.Label, IsActive: true, Polarity: t.Polarity,
		RequiresFutureScheduledAt: t.RequiresFutureScheduledAt, IsDefault: true}
}

func rowConfig(t Type, r *ent.TenantResultTypeConfig) Config {
	at := r.UpdatedAt
	return Config{Code: t.Code, Label: t.Label, IsActive: r.IsActive, Polarity: string(r.Polarity),
		RequiresFutureScheduledAt: r.RequiresFutureScheduledAt, UpdatedAt: &at}
}
