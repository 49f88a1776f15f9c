package fieldorg

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/ent/operator"
	"github.com/reten-io/reten/ent/route"
	"github.com/reten-io/reten/ent/supervisor"
	"github.com/reten-io/reten/ent/supervisorassignment"
	"github.com/reten-io/reten/internal/apperr"
	"github.com/reten-io/reten/internal/auth"
	"github.com/reten-io/reten/internal/clock"
	"github.com/reten-io/reten/internal/paging"
	"github.com/reten-io/reten/internal/trash"
	"github.com/reten-io/reten/internal/txn"
)

// SupervisorInput is the body of POST /api/supervisors. RouteIDs and
// OperatorIDs are the routes and operators supervised (live records of the
// tenant; others answer 404).
type SupervisorInput struct {
	Name                     string
	Email, ExternalID, Phone *string
	Metadata                 map[string]any
	RouteIDs, OperatorIDs    []uuid.UUID
}

// SupervisorPatch is the body of PATCH /api/supervisors/:id: nil fields are
// unchanged; "" clears email, external_id or phone; a non-nil Metadata
// replaces the metadata (empty clears it); a non-nil RouteIDs or OperatorIDs
// (even empty) replaces those assignments.
type SupervisorPatch struct {
	Name                     *string
	Email, ExternalID, Phone *string
	IsActive                 *bool
	Metadata                 map[string]any
	RouteIDs, OperatorIDs    []uuid.UUID
}

// SupervisorDetail is a supervisor with the live routes and operators it
// supervises.
type SupervisorDetail struct {
	*ent.Supervisor
	RouteIDs, OperatorIDs []uuid.UUID
}

// SupervisorFilter narrows GET /api/supervisors.
type SupervisorFilter struct {
	IsActive *bool
	Search   string // name, email or external id contains (case-insensitive)
}

func checkSupervisor(name *string, email, externalID, phone *string) []string {
	var msgs []string
	if name != nil {
		msgs = append(msgs, checkName(*name)...)
	}
	msgs = append(msgs, checkContact(email, phone)...)
	if externalID != nil && tooLong(*externalID, maxText) {
		msgs = append(msgs, MsgExternalIDTooLong)
	}
	return msgs
}

// supervisorUnique answers 409 when another live supervisor of the tenant
// holds the email (case-insensitively) or the external id.
func supervisorUnique(ctx context.Context, tx *ent.Client, tenantID, self uuid.UUID, email, externalID *string) error {
	if email != nil {
		taken, err := tx.Supervisor.Query().Where(supervisor.TenantID(tenantID), supervisor.EmailKey(*emailKey(email)),
			supervisor.IDNEQ(self)).Exist(ctx)
		if err != nil || taken {
			return conflictOr(err, fmt.Sprintf(MsgSupervisorEmailTakenFmt, *email))
		}
	}
	if externalID != nil {
		taken, err := tx.Supervisor.Query().Where(supervisor.TenantID(tenantID), supervisor.ExternalID(*externalID),
			supervisor.IDNEQ(self)).Exist(ctx)
		if err != nil || taken {
			return conflictOr(err, fmt.Sprintf(MsgSupervisorExternalTakenFmt, *externalID))
		}
	}
	return nil
}

func supervisorConflictMsg(email, externalID *string) string {
	if email != nil {
		return fmt.Sprintf(MsgSupervisorEmailTakenFmt, *email)
	}
	if externalID != nil {
		return fmt.Sprintf(MsgSupervisorExternalTakenFmt, *externalID)
	}
	return "Supervisor already exists"
}

func uniqueIDs(ids []uuid.UUID) []uuid.UUID {
	out := slices.Clone(ids)
	slices.SortFunc(out, func(a, b uuid.UUID) int { return strings.Compare(a.String(), b.String()) })
	return slices.Compact(out)
}

// assign replaces the live route (when routeIDs is non-nil) and operator
// (when operatorIDs is non-nil) assignments of a supervisor; every id must
// be a live record of the tenant. Assignments of archived records are kept
// so that restoring them brings the assignment back.
func assign(ctx context.Context, tx *ent.Client, tenantID, supervisorID uuid.UUID, routeIDs, operatorIDs []uuid.UUID) error {
	if routeIDs != nil {
		routeIDs = uniqueIDs(routeIDs)
		n, err := tx.Route.Query().Where(route.TenantID(tenantID), route.IDIn(routeIDs...)).Count(ctx)
		if err != nil {
			return err
		}
		if len(routeIDs) > 0 && n != len(routeIDs) {
			return apperr.NotFound(MsgRouteNotFound)
		}
		if _, err := tx.SupervisorAssignment.Delete().Where(supervisorassignment.TenantID(tenantID),
			supervisorassignment.SupervisorID(supervisorID), supervisorassignment.OperatorIDIsNil(),
			supervisorassignment.HasRouteWith(route.ArchivedAtIsNil())).Exec(ctx); err != nil {
			return err
		}
		builders := make([]*ent.SupervisorAssignmentCreate, len(routeIDs))
		for n, id := range routeIDs {
			builders[n] = tx.SupervisorAssignment.Create().SetTenantID(tenantID).SetSupervisorID(supervisorID).SetRouteID(id)
		}
		for chunk := range slices.Chunk(builders, lookupChunk) {
			if err := tx.SupervisorAssignment.CreateBulk(chunk...).Exec(ctx); err != nil {
				return err
			}
		}
	}
	if operatorIDs != nil {
		operatorIDs = uniqueIDs(operatorIDs)
		n, err := tx.Operator.Query().Where(operator.TenantID(tenantID), operator.IDIn(operatorIDs...)).Count(ctx)
		if err != nil {
			return err
		}
		if n != len(operatorIDs) {
			return apperr.NotFound(MsgOperatorNotFound)
		}
		if _, err := tx.SupervisorAssignment.Delete().Where(supervisorassignment.TenantID(tenantID),
			supervisorassignment.SupervisorID(supervisorID), supervisorassignment.RouteIDIsNil(),
			supervisorassignment.HasOperatorWith(operator.ArchivedAtIsNil())).Exec(ctx); err != nil {
			return err
		}
		builders := make([]*ent.SupervisorAssignmentCreate, len(operatorIDs))
		for n, id := range operatorIDs {
			builders[n] = tx.SupervisorAssignment.Create().SetTenantID(tenantID).SetSupervisorID(supervisorID).SetOperatorID(id)
		}
		for chunk := range slices.Chunk(builders, lookupChunk) {
			if err := tx.SupervisorAssignment.CreateBulk(chunk...).Exec(ctx); err != nil {
				return err
			}
		}
	}
	return nil
}

// CreateSupervisor creates a supervisor with its assignments.
func (s *Service) CreateSupervisor(ctx context.Context, in SupervisorInput) (*SupervisorDetail, error) {
	tenantID, err := auth.TenantFor(ctx, auth.PermSupervisorManage)
	if err != nil {
		return nil, err
	}
	in.Name = strings.TrimSpace(in.Name)
	in.Email, in.ExternalID, in.Phone = nilIfEmpty(trimPtr(in.Email)), nilIfEmpty(trimPtr(in.ExternalID)), nilIfEmpty(trimPtr(in.Phone))
	if msgs := checkSupervisor(&in.Name, in.Email, in.ExternalID, in.Phone); len(msgs) > 0 {
		return nil, apperr.Validation(msgs...)
	}
	var out *SupervisorDetail
	err = txn.Run(ctx, s.client, func(ctx context.Context, tx *ent.Client) error {
		if err := supervisorUnique(ctx, tx, tenantID, uuid.Nil, in.Email, in.ExternalID); err != nil {
			return err
		}
		c := tx.Supervisor.Create().SetTenantID(tenantID).SetName(in.Name).SetNillableEmail(in.Email).
			SetNillableEmailKey(emailKey(in.Email)).SetNillableExternalID(in.ExternalID).SetNillablePhone(in.Phone)
		if in.Metadata != nil {
			c.SetMetadata(in.Metadata)
		}
		sup, err := c.Save(ctx)
		if err != nil {
			return apperr.FromEnt(err, "", supervisorConflictMsg(in.Email, in.ExternalID))
		}
		if err := assign(ctx, tx, tenantID, sup.ID, orEmpty(in.RouteIDs), orEmpty(in.OperatorIDs)); err != nil {
			return err
		}
		ds, err := supervisorDetails(ctx, tx, tenantID, []*ent.Supervisor{sup})
		if err != nil {
			return err
		}
		out = ds[0]
		return nil
	})
	return out, err
}

func orEmpty(ids []uuid.UUID) []uuid.UUID {
	if ids == nil {
		return []uuid.UUID{}
	}
	return ids
}

// supervisorOf loads a live supervisor of the tenant (404 otherwise).
func supervisorOf(ctx context.Context, c *ent.Client, tenantID, id uuid.UUID) (*ent.Supervisor, error) {
	sup, err := c.Supervisor.Query().Where(supervisor.ID(id), supervisor.TenantID(tenantID)).Only(ctx)
	if err != nil {
		return nil, apperr.FromEnt(err, MsgSupervisorNotFound, "")
	}
	return sup, nil
}

// supervisorDetails adds the live routes and operators each supervisor
// supervises (one query for the whole list).
func supervisorDetails(ctx context.Context, c *ent.Client, tenantID uuid.UUID, sups []*ent.Supervisor) ([]*SupervisorDetail, error) {
	ids := make([]uuid.UUID, len(sups))
	out := make([]*SupervisorDetail, len(sups))
	byID := map[uuid.UUID]*SupervisorDetail{}
	for i, sup := range sups {
		ids[i] = sup.ID
		out[i] = &SupervisorDetail{Supervisor: sup, RouteIDs: []uuid.UUID{}, OperatorIDs: []uuid.UUID{}}
		byID[sup.ID] = out[i]
	}
	if len(ids) == 0 {
		return out, nil
	}
	as, err := c.SupervisorAssignment.Query().Where(supervisorassignment.TenantID(tenantID),
		supervisorassignment.SupervisorIDIn(ids...),
		supervisorassignment.Or(supervisorassignment.HasRouteWith(route.ArchivedAtIsNil()),
			supervisorassignment.HasOperatorWith(operator.ArchivedAtIsNil()))).
		Order(supervisorassignment.ByCreatedAt(), supervisorassignment.ByID()).All(ctx)
	if err != nil {
		return nil, err
	}
	for _, a := range as {
		d := byID[a.SupervisorID]
		if a.RouteID != nil {
			d.RouteIDs = append(d.RouteIDs, *a.RouteID)
		}
		if a.OperatorID != nil {
			d.OperatorIDs = append(d.OperatorIDs, *a.OperatorID)
		}
	}
	return out, nil
}

// GetSupervisor returns a supervisor of the active tenant with its assignments.
func (s *Service) GetSupervisor(ctx context.Context, id uuid.UUID) (*SupervisorDetail, error) {
	tenantID, err := auth.TenantFor(ctx, auth.PermSupervisorView)
	if err != nil {
		return nil, err
	}
	sup, err := supervisorOf(ctx, s.db(ctx), tenantID, id)
	if err != nil {
		return nil, err
	}
	ds, err := supervisorDetails(ctx, s.db(ctx), tenantID, []*ent.Supervisor{sup})
	if err != nil {
		return nil, err
	}
	return ds[0], nil
}

// ListSupervisors returns a page of the tenant's supervisors, by name.
func (s *Service) ListSupervisors(ctx context.Context, f SupervisorFilter, p paging.Page) (*paging.List[*SupervisorDetail], error) {
	tenantID, err := auth.TenantFor(ctx, auth.PermSupervisorView)
	if err != nil {
		return nil, err
	}
	q := s.db(ctx).Supervisor.Query().Where(supervisor.TenantID(tenantID))
	if f.IsActive != nil {
		q.Where(supervisor.IsActive(*f.IsActive))
	}
	if term := strings.TrimSpace(f.Search); term != "" {
		q.Where(supervisor.Or(supervisor.NameContainsFold(term), supervisor.EmailContainsFold(term),
			supervisor.ExternalIDContainsFold(term)))
	}
	total, err := q.Clone().Count(ctx)
	if err != nil {
		return nil, err
	}
	sups, err := q.Order(supervisor.ByName(), supervisor.ByID()).Offset(p.Offset()).Limit(p.PerPage).All(ctx)
	if err != nil {
		return nil, err
	}
	ds, err := supervisorDetails(ctx, s.db(ctx), tenantID, sups)
	if err != nil {
		return nil, err
	}
	return &paging.List[*SupervisorDetail]{Items: ds, Total: total, Page: p}, nil
}

// SupervisorConnection pages through the tenant's supervisors (GraphQL).
func (s *Service) SupervisorConnection(ctx context.Context, after *ent.Cursor, first *int, before *ent.Cursor, last *int,
	orderBy *ent.SupervisorOrder, where *ent.SupervisorWhereInput) (*ent.SupervisorConnection, error) {
	tenantID, err := auth.TenantFor(ctx, auth.PermSupervisorView)
	if err != nil {
		return nil, err
	}
	return s.db(ctx).Supervisor.Query().Where(supervisor.TenantID(tenantID)).Paginate(ctx, after, first, before, last,
		ent.WithSupervisorOrder(orderBy), ent.WithSupervisorFilter(where.Filter))
}

// UpdateSupervisor changes a supervisor of the active tenant.
func (s *Service) UpdateSupervisor(ctx context.Context, id uuid.UUID, in SupervisorPatch) (*SupervisorDetail, error) {
	tenantID, err := auth.TenantFor(ctx, auth.PermSupervisorManage)
	if err != nil {
		return nil, err
	}
	in.Name, in.Email, in.ExternalID, in.Phone = trimPtr(in.Name), trimPtr(in.Email), trimPtr(in.ExternalID), trimPtr(in.Phone)
	if msgs := checkSupervisor(in.Name, in.Email, in.ExternalID, in.Phone); len(msgs) > 0 {
		return nil, apperr.Validation(msgs...)
	}
	var out *SupervisorDetail
	err = txn.Run(ctx, s.client, func(ctx context.Context, tx *ent.Client) error {
		sup, err := supervisorOf(ctx, tx, tenantID, id)
		if err != nil {
			return err
		}
		email, externalID := nilIfEmpty(in.Email), nilIfEmpty(in.ExternalID)
		if err := supervisorUnique(ctx, tx, tenantID, sup.ID, email, externalID); err != nil {
			return err
		}
		u := tx.Supervisor.UpdateOne(sup).SetNillableName(in.Name).SetNillableIsActive(in.IsActive)
		if in.Email != nil {
			if email == nil {
				u.ClearEmail().ClearEmailKey()
			} else {
				u.SetEmail(*email).SetEmailKey(*emailKey(email))
			}
		}
		if in.ExternalID != nil {
			if externalID == nil {
				u.ClearExternalID()
			} else {
				u.SetExternalID(*externalID)
			}
		}
		if in.Phone != nil {
			if *in.Phone == "" {
				u.ClearPhone()
			} else {
				u.SetPhone(*in.Phone)
			}
		}
		if in.Metadata != nil {
			if len(in.Metadata) == 0 {
				u.ClearMetadata()
			} else {
				u.SetMetadata(in.Metadata)
			}
		}
		saved, err := u.Save(ctx)
		if err != nil {
			return apperr.FromEnt(err, MsgSupervisorNotFound, supervisorConflictMsg(email, externalID))
		}
		if err := assign(ctx, tx, tenantID, saved.ID, in.RouteIDs, in.OperatorIDs); err != nil {
			return err
		}
		ds, err := supervisorDetails(ctx, tx, tenantID, []*ent.Supervisor{saved})
		if err != nil {
			return err
		}
		out = ds[0]
		return nil
	})
	return out, err
}

// DeleteSupervisor archives a supervisor into the trash (restorable with its
// assignments); its email and external id become free at once.
func (s *Service) DeleteSupervisor(ctx context.Context, id uuid.UUID) error {
	tenantID, err := auth.TenantFor(ctx, auth.PermSupervisorDelete)
	if err != nil {
		return err
	}
	return txn.Run(ctx, s.client, func(ctx context.Context, tx *ent.Client) error {
		sup, err := supervisorOf(ctx, tx, tenantID, id)
		if err != nil {
			return err
		}
		if err := tx.Supervisor.UpdateOne(sup).SetArchivedAt(clock.Now()).Exec(ctx); err != nil {
			return err
		}
		return trash.Archive(ctx, tx, trash.Record{Kind: trash.KindSupervisor, RecordID: sup.ID, Label: sup.Name})
	})
}
