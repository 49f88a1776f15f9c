package catalog

import (
	"context"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/ent/retentionstatusconfig"
	"github.com/reten-io/reten/internal/apperr"
	"github.com/reten-io/reten/internal/tenancy"
	"github.com/reten-io/reten/internal/txn"
)

// Messages of the retention status configs.
const (
	MsgStatusNotFound     = "Retention status config not found"
	MsgStatusDuplicateFmt = "A retention status config with code %q already exists"
	MsgStageValues        = "stage must be one of the following values: ACTIVATION, ENGAGEMENT, RESURRECTION"
	// MsgStatusInactiveFmt is the 400 of a pillar referencing a missing or inactive code.
	MsgStatusInactiveFmt = "Retention status config %q does not exist or is inactive"
)

// Stages of a retention status config.
var Stages = []string{"ACTIVATION", "ENGAGEMENT", "RESURRECTION"}

func validStage(s string) bool {
	return retentionstatusconfig.StageValidator(retentionstatusconfig.Stage(s)) == nil
}

// StatusFilter narrows ListStatuses; zero values mean no filter.
type StatusFilter struct {
	Stage    string
	IsActive *bool
}

// StatusInput is the body of POST /api/retention-status-configs.
type StatusInput struct {
	Code        string
	Label       string
	Stage       string
	Description *string
}

// StatusPatch is the body of PATCH /api/retention-status-configs/:id; nil
// fields are unchanged, a blank description clears it. The code is immutable.
type StatusPatch struct {
	Label       *string
	Stage       *string
	Description *string
	IsActive    *bool
}

func descriptionRule(d *string) []string {
	if d != nil && utf8.RuneCountInString(*d) > maxDescriptionLen {
		return []string{MsgDescriptionLong}
	}
	return nil
}

// ListStatuses returns the tenant's retention status configs ordered by code.
func (s *Service) ListStatuses(ctx context.Context, f StatusFilter) ([]*ent.RetentionStatusConfig, error) {
	tenantID, err := tenancy.Tenant(ctx)
	if err != nil {
		return nil, err
	}
	q := s.db(ctx).RetentionStatusConfig.Query().Where(retentionstatusconfig.TenantID(tenantID))
	if f.Stage != "" {
		if !validStage(f.Stage) {
			return nil, apperr.Validation(MsgStageValues)
		}
		q.Where(retentionstatusconfig.StageEQ(retentionstatusconfig.Stage(f.Stage)))
	}
	if f.IsActive != nil {
		q.Where(retentionstatusconfig.IsActive(*f.IsActive))
	}
	return q.Order(retentionstatusconfig.ByCode(), retentionstatusconfig.ByID()).All(ctx)
}

// StatusConnection is the GraphQL connection of the tenant's retention status
// configs.
func (s *Service) StatusConnection(ctx context.Context, after *ent.Cursor, first *int, before *ent.Cursor, last *int,
	orderBy *ent.RetentionStatusConfigOrder, where *ent.RetentionStatusConfigWhereInput) (*ent.RetentionStatusConfigConnection, error) {
	return tenancy.Connection(ctx, s.db(ctx).RetentionStatusConfig.Query(), retentionstatusconfig.TenantID, after, first, before, last,
		ent.WithRetentionStatusConfigOrder(orderBy), ent.WithRetentionStatusConfigFilter(where.Filter))
}

// GetStatus returns one retention status config of the tenant.
func (s *Service) GetStatus(ctx context.Context, id uuid.UUID) (*ent.RetentionStatusConfig, error) {
	return tenancy.Get(ctx, s.db(ctx), id, statusOf)
}

func statusOf(ctx context.Context, c *ent.Client, tenantID, id uuid.UUID) (*ent.RetentionStatusConfig, error) {
	r, err := c.RetentionStatusConfig.Query().Where(retentionstatusconfig.ID(id), retentionstatusconfig.TenantID(tenantID)).Only(ctx)
	return r, apperr.FromEnt(err, MsgStatusNotFound, "")
}

// CreateStatus adds a retention status config; 409 on a duplicate code.
func (s *Service) CreateStatus(ctx context.Context, in StatusInput) (*ent.RetentionStatusConfig, error) {
	tenantID, err := tenancy.Tenant(ctx)
	if err != nil {
		return nil, err
	}
	in.Code, in.Label, in.Description = strings.TrimSpace(in.Code), strings.TrimSpace(in.Label), trimPtr(in.Description)
	msgs := codeLabel(in.Code, in.Label)
	if !validStage(in.Stage) {
		msgs = append(msgs, MsgStageValues)
	}
	msgs = append(msgs, descriptionRule(in.Description)...)
	if len(msgs) > 0 {
		return nil, apperr.Validation(msgs...)
	}
	dup := fmt.Sprintf(MsgStatusDuplicateFmt, in.Code)
	r, err := txn.Value(ctx, s.client, func(ctx context.Context, tx *ent.Client) (*ent.RetentionStatusConfig, error) {
		if err := apperr.ConflictIfExists(ctx, tx.RetentionStatusConfig.Query().
			Where(retentionstatusconfig.TenantID(tenantID), retentionstatusconfig.Code(in.Code)), dup); err != nil {
			return nil, err
		}
		create := tx.RetentionStatusConfig.Create().SetTenantID(tenantID).SetCode(in.Code).SetLabel(in.Label).
			SetStage(retentionstatusconfig.Stage(in.Stage))
		if in.Description != nil && *in.Description != "" {
			create.SetDescription(*in.Description)
		}
		return create.Save(ctx)
	})
	return r, apperr.FromEnt(err, MsgStatusNotFound, dup)
}

// UpdateStatus changes a retention status config.
func (s *Service) UpdateStatus(ctx context.Context, id uuid.UUID, in StatusPatch) (*ent.RetentionStatusConfig, error) {
	tenantID, err := tenancy.Tenant(ctx)
	if err != nil {
		return nil, err
	}
	in.Label, in.Description = trimPtr(in.Label), trimPtr(in.Description)
	var msgs []string
	if in.Label != nil {
		msgs = append(msgs, labelRule(*in.Label)...)
	}
	if in.Stage != nil && !validStage(*in.Stage) {
		msgs = append(msgs, MsgStageValues)
	}
	msgs = append(msgs, descriptionRule(in.Description)...)
	if len(msgs) > 0 {
		return nil, apperr.Validation(msgs...)
	}
	r, err := statusOf(ctx, s.db(ctx), tenantID, id)
	if err != nil {
		return nil, err
	}
	r, err = txn.Value(ctx, s.client, func(ctx context.Context, tx *ent.Client) (*ent.RetentionStatusConfig, error) {
		upd := tx.RetentionStatusConfig.UpdateOne(r).SetNillableLabel(in.Label).SetNillableIsActive(in.IsActive)
		if in.Stage != nil {
			upd.SetStage(retentionstatusconfig.Stage(*in.Stage))
		}
		switch {
		case in.Description == nil:
		case *in.Description == "":
			upd.ClearDescription()
		default:
			upd.SetDescription(*in.Description)
		}
		return upd.Save(ctx)
	})
	return r, apperr.FromEnt(err, MsgStatusNotFound, "")
}

// DeactivateStatus sets is_active false; the row stays.
func (s *Service) DeactivateStatus(ctx context.Context, id uuid.UUID) (*ent.RetentionStatusConfig, error) {
	f := false
	return s.UpdateStatus(ctx, id, StatusPatch{IsActive: &f})
}

// ActiveStatus returns the active retention status config of the tenant
// with this code, or a 400 naming the code, for the AGC pillar validation
// (under its line's access).
func (s *Service) ActiveStatus(ctx context.Context, code string) (*ent.RetentionStatusConfig, error) {
	tenantID, err := tenancy.Tenant(ctx)
	if err != nil {
		return nil, err
	}
	r, err := s.db(ctx).RetentionStatusConfig.Query().Where(retentionstatusconfig.TenantID(tenantID),
		retentionstatusconfig.Code(code), retentionstatusconfig.IsActive(true)).Only(ctx)
	if ent.IsNotFound(err) {
		return nil, apperr.Invalidf(MsgStatusInactiveFmt, code)
	}
	return r, err
}

// ActiveStatusByID is ActiveStatus by id; the 400 names the code when the
// config exists but is inactive, else the id.
func (s *Service) ActiveStatusByID(ctx context.Context, id uuid.UUID) (*ent.RetentionStatusConfig, error) {
	tenantID, err := tenancy.Tenant(ctx)
	if err != nil {
		return nil, err
	}
	r, err := s.db(ctx).RetentionStatusConfig.Query().Where(retentionstatusconfig.TenantID(tenantID),
		retentionstatusconfig.ID(id)).Only(ctx)
	switch {
	case ent.IsNotFound(err):
		return nil, apperr.Invalidf(MsgStatusInactiveFmt, id.String())
	case err != nil:
		return nil, err
	case !r.IsActive:
		return nil, apperr.Invalidf(MsgStatusInactiveFmt, r.Code)
	}
	return r, nil
}
