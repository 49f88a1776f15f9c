package catalog

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/ent/activityreasonconfig"
	"github.com/reten-io/reten/internal/apperr"
	"github.com/reten-io/reten/internal/fields"
	"github.com/reten-io/reten/internal/tenancy"
	"github.com/reten-io/reten/internal/txn"
)

// Messages of the activity reason configs.
const (
	MsgReasonNotFound     = "Activity reason config not found"
	MsgReasonDuplicateFmt = "An activity reason config with code %q already exists"
)

// ReasonDefault is one entry of the platform defaults catalog.
type ReasonDefault struct {
	Code  string `json:"code"`
	Label string `json:"label"`
}

// reasonDefaults is the constant platform defaults catalog (never persisted).
var reasonDefaults = []ReasonDefault{
	{"no_stock", "Sin stock"},
	{"closed_store", "Local cerrado"},
	{"owner_absent", "Dueño ausente"},
	{"no_budget", "Sin presupuesto"},
	{"price_too_high", "Precio muy alto"},
	{"competitor_product", "Trabaja con la competencia"},
	{"not_interested", "No le interesa"},
	{"already_ordered", "Ya realizó su pedido"},
	{"wrong_contact", "Contacto incorrecto"},
	{"call_back_later", "Volver a contactar más tarde"},
}

// Defaults returns a copy of the platform defaults catalog.
func Defaults() []ReasonDefault { return slices.Clone(reasonDefaults) }

// ReasonInput is the body of POST /api/activity-reason-configs and of one bulk item.
type ReasonInput struct {
	Code  string
	Label string
}

func (in *ReasonInput) normalize() {
	in.Code, in.Label = strings.TrimSpace(in.Code), strings.TrimSpace(in.Label)
}

// ReasonPatch is the body of PATCH /api/activity-reason-configs/:id; nil fields are unchanged.
type ReasonPatch struct {
	Label    *string
	IsActive *bool
}

// ReasonDefaults returns the platform defaults; it writes nothing.
func (s *Service) ReasonDefaults(ctx context.Context) ([]ReasonDefault, error) {
	if _, err := tenancy.Tenant(ctx); err != nil {
		return nil, err
	}
	return Defaults(), nil
}

// ListReasons returns every reason config of the tenant (active or not), ordered by code.
func (s *Service) ListReasons(ctx context.Context) ([]*ent.ActivityReasonConfig, error) {
	tenantID, err := tenancy.Tenant(ctx)
	if err != nil {
		return nil, err
	}
	return s.db(ctx).ActivityReasonConfig.Query().Where(activityreasonconfig.TenantID(tenantID)).
		Order(activityreasonconfig.ByCode(), activityreasonconfig.ByID()).All(ctx)
}

// ReasonConnection is the GraphQL connection of the tenant's reason configs.
func (s *Service) ReasonConnection(ctx context.Context, after *ent.Cursor, first *int, before *ent.Cursor, last *int,
	orderBy *ent.ActivityReasonConfigOrder, where *ent.ActivityReasonConfigWhereInput) (*ent.ActivityReasonConfigConnection, error) {
	return tenancy.Connection(ctx, s.db(ctx).ActivityReasonConfig.Query(), activityreasonconfig.TenantID, after, first, before, last,
		ent.WithActivityReasonConfigOrder(orderBy), ent.WithActivityReasonConfigFilter(where.Filter))
}

// GetReason returns one reason config of the tenant.
func (s *Service) GetReason(ctx context.Context, id uuid.UUID) (*ent.ActivityReasonConfig, error) {
	return tenancy.Get(ctx, s.db(ctx), id, reasonOf)
}

func reasonOf(ctx context.Context, c *ent.Client, tenantID, id uuid.UUID) (*ent.ActivityReasonConfig, error) {
	r, err := c.ActivityReasonConfig.Query().Where(activityreasonconfig.ID(id), activityreasonconfig.TenantID(tenantID)).Only(ctx)
	return r, apperr.FromEnt(err, MsgReasonNotFound, "")
}

// CreateReason adds a reason config to the tenant; 409 on a duplicate code.
func (s *Service) CreateReason(ctx context.Context, in ReasonInput) (*ent.ActivityReasonConfig, error) {
	tenantID, err := tenancy.Tenant(ctx)
	if err != nil {
		return nil, err
	}
	in.normalize()
	if msgs := codeLabel(in.Code, in.Label); len(msgs) > 0 {
		return nil, apperr.Validation(msgs...)
	}
	return txn.Value(ctx, s.client, func(ctx context.Context, tx *ent.Client) (*ent.ActivityReasonConfig, error) {
		return createReason(ctx, tx, tenantID, in)
	})
}

func createReason(ctx context.Context, c *ent.Client, tenantID uuid.UUID, in ReasonInput) (*ent.ActivityReasonConfig, error) {
	dup := fmt.Sprintf(MsgReasonDuplicateFmt, in.Code)
	if err := apperr.ConflictIfExists(ctx, c.ActivityReasonConfig.Query().
		Where(activityreasonconfig.TenantID(tenantID), activityreasonconfig.Code(in.Code)), dup); err != nil {
		return nil, err
	}
	r, err := c.ActivityReasonConfig.Create().SetTenantID(tenantID).SetCode(in.Code).SetLabel(in.Label).Save(ctx)
	return r, apperr.FromEnt(err, MsgReasonNotFound, dup)
}

// BulkCreateReasons adds every item in one transaction:
// one invalid or duplicate item (in the request or in the catalog) and
// nothing is written.
func (s *Service) BulkCreateReasons(ctx context.Context, items []ReasonInput) ([]*ent.ActivityReasonConfig, error) {
	tenantID, err := tenancy.Tenant(ctx)
	if err != nil {
		return nil, err
	}
	msgs := fields.ItemCount(len(items), MaxBulkItems)
	codes := fields.Codes{}
	for i := range items {
		items[i].normalize()
		msgs = append(msgs, itemMsgs(i, codeLabel(items[i].Code, items[i].Label))...)
		if items[i].Code == "" {
			continue
		}
		if msg, repeated := codes.Repeat(i, items[i].Code); repeated {
			msgs = append(msgs, msg)
		}
	}
	if len(msgs) > 0 {
		return nil, apperr.Validation(msgs...)
	}
	out := make([]*ent.ActivityReasonConfig, 0, len(items))
	err = txn.Run(ctx, s.client, func(ctx context.Context, tx *ent.Client) error {
		for _, it := range items {
			r, err := createReason(ctx, tx, tenantID, it)
			if err != nil {
				return err
			}
			out = append(out, r)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// itemMsgs prefixes an item's messages with its index: "items.2.code should not be empty".
func itemMsgs(i int, msgs []string) []string {
	out := make([]string, len(msgs))
	for k, m := range msgs {
		out[k] = fmt.Sprintf("items.%d.%s", i, m)
	}
	return out
}

// UpdateReason changes the label or the active flag of a reason config.
func (s *Service) UpdateReason(ctx context.Context, id uuid.UUID, in ReasonPatch) (*ent.ActivityReasonConfig, error) {
	tenantID, err := tenancy.Tenant(ctx)
	if err != nil {
		return nil, err
	}
	in.Label = trimPtr(in.Label)
	if in.Label != nil {
		if msgs := labelRule(*in.Label); len(msgs) > 0 {
			return nil, apperr.Validation(msgs...)
		}
	}
	r, err := reasonOf(ctx, s.db(ctx), tenantID, id)
	if err != nil {
		return nil, err
	}
	r, err = txn.Value(ctx, s.client, func(ctx context.Context, tx *ent.Client) (*ent.ActivityReasonConfig, error) {
		return tx.ActivityReasonConfig.UpdateOne(r).SetNillableLabel(in.Label).SetNillableIsActive(in.IsActive).Save(ctx)
	})
	return r, apperr.FromEnt(err, MsgReasonNotFound, "")
}

// DeactivateReason sets is_active false; the row stays.
func (s *Service) DeactivateReason(ctx context.Context, id uuid.UUID) (*ent.ActivityReasonConfig, error) {
	f := false
	return s.UpdateReason(ctx, id, ReasonPatch{IsActive: &f})
}
