// Package project manages projects: the partitions of a tenant. A project is
// always created together with its root audience.
package project

import (
	"context"
	"fmt"
	"strings"
	"unicode/utf8"

	"entgo.io/ent/dialect/sql"
	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/ent/project"
	"github.com/reten-io/reten/internal/apperr"
	"github.com/reten-io/reten/internal/auth"
	"github.com/reten-io/reten/internal/tenancy"
	"github.com/reten-io/reten/internal/txn"
)

// Rules and messages of project names (SPEC.md "Errors", project update).
const (
	MaxNameLength    = 255
	MsgNameRequired  = "El nombre del proyecto es obligatorio."
	MsgNameNotString = "El nombre del proyecto debe ser texto."
	MsgNameTooLong   = "El nombre del proyecto no puede superar los 255 caracteres."
	MsgNameTakenFmt  = `Ya existe un proyecto con el nombre "%s".`
	// RootAudienceName names the root audience created with every project.
	RootAudienceName = "Audiencia raíz"
)

// Service reads and changes projects of the viewer's tenant.
type Service struct{ client *ent.Client }

// NewService returns a Service.
func NewService(client *ent.Client) *Service { return &Service{client: client} }

// ValidateName returns the broken rules of a project name.
func ValidateName(name string) []string {
	switch {
	case strings.TrimSpace(name) == "":
		return []string{MsgNameRequired}
	case utf8.RuneCountInString(strings.TrimSpace(name)) > MaxNameLength:
		return []string{MsgNameTooLong}
	}
	return nil
}

// db is the transaction client of ctx when there is one, else the pool.
func (s *Service) db(ctx context.Context) *ent.Client { return txn.Client(ctx, s.client) }

// List returns the projects of the viewer's tenant, main project first.
func (s *Service) List(ctx context.Context) ([]*ent.Project, error) {
	tid, err := tenancy.Tenant(ctx)
	if err != nil {
		return nil, err
	}
	return s.db(ctx).Project.Query().Where(project.TenantID(tid)).
		Order(project.ByIsMain(sql.OrderDesc()), project.ByNameKey(), project.ByID()).
		All(ctx)
}

// Get returns one project of the viewer's tenant.
func (s *Service) Get(ctx context.Context, id uuid.UUID) (*ent.Project, error) {
	tid, err := tenancy.Tenant(ctx)
	if err != nil {
		return nil, err
	}
	p, err := s.db(ctx).Project.Query().Where(project.ID(id), project.TenantID(tid)).Only(ctx)
	return p, apperr.FromEnt(err, tenancy.MsgProjectNotFound, "")
}

// Rename changes a project's name: required, at most 255 characters, unique in
// the tenant case-insensitively (the project may change its own casing).
func (s *Service) Rename(ctx context.Context, id uuid.UUID, name string) (*ent.Project, error) {
	tid, err := tenancy.Tenant(ctx)
	if err != nil {
		return nil, err
	}
	if msgs := ValidateName(name); msgs != nil {
		return nil, apperr.Validation(msgs...)
	}
	name = strings.TrimSpace(name)
	var out *ent.Project
	err = txn.Run(ctx, s.client, func(ctx context.Context, tx *ent.Client) error {
		p, err := tx.Project.Query().Where(project.ID(id), project.TenantID(tid)).Only(ctx)
		if err != nil {
			return apperr.FromEnt(err, tenancy.MsgProjectNotFound, "")
		}
		taken, err := tx.Project.Query().
			Where(project.NameKey(nameKey(name)), project.IDNEQ(id), project.TenantID(tid)).Exist(ctx)
		if err != nil {
			return err
		}
		if taken {
			return apperr.Conflict(fmt.Sprintf(MsgNameTakenFmt, name))
		}
		out, err = p.Update().SetName(name).SetNameKey(nameKey(name)).Save(ctx)
		return apperr.FromEnt(err, tenancy.MsgProjectNotFound, fmt.Sprintf(MsgNameTakenFmt, name))
	})
	return out, err
}

// Create creates a project of tenantID with its root audience, inside the
// caller's transaction client tx.
func Create(ctx context.Context, tx *ent.Client, tenantID uuid.UUID, name string, isMain bool, ownerID uuid.UUID) (*ent.Project, error) {
	if msgs := ValidateName(name); msgs != nil {
		return nil, apperr.Validation(msgs...)
	}
	name = strings.TrimSpace(name)
	p, err := tx.Project.Create().SetTenantID(tenantID).SetName(name).SetNameKey(nameKey(name)).
		SetIsMain(isMain).Save(ctx)
	if err != nil {
		return nil, apperr.FromEnt(err, "", fmt.Sprintf(MsgNameTakenFmt, name))
	}
	aud := tx.Audience.Create().SetTenantID(tenantID).SetProjectID(p.ID).
		SetName(RootAudienceName).SetIsRoot(true)
	if ownerID != uuid.Nil {
		aud.SetOwnerID(ownerID).SetUpdatedBy(ownerID)
	}
	root, err := aud.Save(ctx)
	if err != nil {
		return nil, fmt.Errorf("create root audience: %w", err)
	}
	return p.Update().SetRootAudienceID(root.ID).Save(ctx)
}

func nameKey(name string) string { return strings.ToLower(strings.TrimSpace(name)) }

// ViewerProjects is a convenience for the GraphQL viewer: the projects of the
// viewer's tenant when they may see them, none otherwise.
func (s *Service) ViewerProjects(ctx context.Context) ([]*ent.Project, error) {
	acc, err := tenancy.From(ctx)
	if err != nil {
		return nil, err
	}
	if perm, _ := auth.ViewPermission("Project"); !acc.Viewer.Has(perm) {
		return []*ent.Project{}, nil
	}
	return s.List(ctx)
}

// Connection pages through the projects of the viewer's tenant (GraphQL).
func (s *Service) Connection(ctx context.Context, after *ent.Cursor, first *int, before *ent.Cursor, last *int,
	orderBy *ent.ProjectOrder, where *ent.ProjectWhereInput) (*ent.ProjectConnection, error) {
	return tenancy.Connection(ctx, s.db(ctx).Project.Query(), project.TenantID, after, first, before, last,
		ent.WithProjectOrder(orderBy), ent.WithProjectFilter(where.Filter))
}

// New creates a project of the viewer's tenant with its root audience
// (POST /api/projects).
func (s *Service) New(ctx context.Context, name string) (*ent.Project, error) {
	acc, err := tenancy.From(ctx)
	if err != nil {
		return nil, err
	}
	if msgs := ValidateName(name); msgs != nil {
		return nil, apperr.Validation(msgs...)
	}
	var out *ent.Project
	err = txn.Run(ctx, s.client, func(ctx context.Context, tx *ent.Client) error {
		taken, err := tx.Project.Query().Where(project.NameKey(nameKey(name)), project.TenantID(acc.TenantID)).Exist(ctx)
		if err != nil {
			return err
		}
		if taken {
			return apperr.Conflict(fmt.Sprintf(MsgNameTakenFmt, strings.TrimSpace(name)))
		}
		out, err = Create(ctx, tx, acc.TenantID, name, false, acc.UserID())
		return err
	})
	return out, err
}
