package fieldorg

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/ent/operator"
	"github.com/reten-io/reten/ent/predicate"
	"github.com/reten-io/reten/ent/route"
	"github.com/reten-io/reten/ent/supervisor"
	"github.com/reten-io/reten/ent/supervisorassignment"
	"github.com/reten-io/reten/internal/apperr"
	"github.com/reten-io/reten/internal/fields"
	"github.com/reten-io/reten/internal/paging"
	"github.com/reten-io/reten/internal/tenancy"
	"github.com/reten-io/reten/internal/trash"
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

// supervisorUnique answers 409 when another live supervisor of the tenant
// holds the email (case-insensitively) or the external id.
func supervisorUnique(ctx context.Context, tx *ent.Client, tenantID, self uuid.UUID, email, externalID *string) error {
	others := func() *ent.SupervisorQuery {
		return tx.Supervisor.Query().Where(supervisor.TenantID(tenantID), supervisor.IDNEQ(self))
	}
	if email != nil {
		err := apperr.ConflictIfExists(ctx, others().Where(supervisor.EmailKey(*emailKey(email))),
			fmt.Sprintf(MsgSupervisorEmailTakenFmt, *email))
		if err != nil {
			return err
		}
	}
	if externalID == nil {
		return nil
	}
	return apperr.ConflictIfExists(ctx, others().Where(supervisor.ExternalID(*externalID)),
		fmt.Sprintf(MsgSupervisorExternalTakenFmt, *externalID))
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
	a := assignments{tx: tx, tenantID: tenantID, supervisorID: supervisorID}
	if routeIDs != nil {
		routeIDs = uniqueIDs(routeIDs)
		err := a.replace(ctx, routeIDs, MsgRouteNotFound,
			tx.Route.Query().Where(route.TenantID(tenantID), route.IDIn(routeIDs...)).Count,
			supervisorassignment.And(supervisorassignment.OperatorIDIsNil(), supervisorassignment.HasRouteWith(route.ArchivedAtIsNil())),
			(*ent.SupervisorAssignmentCreate).SetRouteID)
		if err != nil {
			return err
		}
	}
	if operatorIDs == nil {
		return nil
	}
	operatorIDs = uniqueIDs(operatorIDs)
	return a.replace(ctx, operatorIDs, MsgOperatorNotFound,
		tx.Operator.Query().Where(operator.TenantID(tenantID), operator.IDIn(operatorIDs...)).Count,
		supervisorassignment.And(supervisorassignment.RouteIDIsNil(), supervisorassignment.HasOperatorWith(operator.ArchivedAtIsNil())),
		(*ent.SupervisorAssignmentCreate).SetOperatorID)
}

// assignments writes the assignments of one supervisor.
type assignments struct {
	tx                     *ent.Client
	tenantID, supervisorID uuid.UUID
}

// replace makes ids (distinct) the supervisor's live assignments of one
// kind: count must find every id among the tenant's live records (404
// notFound otherwise), current selects the live assignments of that kind,
// and target points a new assignment at an id.
func (a assignments) replace(ctx context.Context, ids []uuid.UUID, notFound string, count func(context.Context) (int, error),
	current predicate.SupervisorAssignment,
	target func(*ent.SupervisorAssignmentCreate, uuid.UUID) *ent.SupervisorAssignmentCreate) error {
	n, err := count(ctx)
	if err != nil {
		return err
	}
	if n != len(ids) {
		return apperr.NotFound(notFound)
	}
	if _, err := a.tx.SupervisorAssignment.Delete().Where(supervisorassignment.TenantID(a.tenantID),
		supervisorassignment.SupervisorID(a.supervisorID), current).Exec(ctx); err != nil {
		return err
	}
	builders := make([]*ent.SupervisorAssignmentCreate, len(ids))
	for n, id := range ids {
		builders[n] = target(a.tx.SupervisorAssignment.Create().SetTenantID(a.tenantID).SetSupervisorID(a.supervisorID), id)
	}
	for chunk := range slices.Chunk(builders, lookupChunk) {
		if err := a.tx.SupervisorAssignment.CreateBulk(chunk...).Exec(ctx); err != nil {
			return err
		}
	}
	return nil
}

// CreateSupervisor creates a supervisor with its assignments.
func (s *Service) CreateSupervisor(ctx context.Context, in SupervisorInput) (*SupervisorDetail, error) {
	check := func() []string {
		in.Name = strings.TrimSpace(in.Name)
		in.Email, in.Phone, in.ExternalID = newContact(in.Email, in.Phone, in.ExternalID)
		return checkPerson(&in.Name, in.Email, in.Phone, in.ExternalID)
	}
	return write(ctx, s.client, check, func(ctx context.Context, tx *ent.Client, tenantID uuid.UUID) (*SupervisorDetail, error) {
		if err := supervisorUnique(ctx, tx, tenantID, uuid.Nil, in.Email, in.ExternalID); err != nil {
			return nil, err
		}
		c := tx.Supervisor.Create().SetTenantID(tenantID).SetName(in.Name).SetNillableEmail(in.Email).
			SetNillableEmailKey(emailKey(in.Email)).SetNillableExternalID(in.ExternalID).SetNillablePhone(in.Phone)
		if in.Metadata != nil {
			c.SetMetadata(in.Metadata)
		}
		sup, err := c.Save(ctx)
		if err != nil {
			return nil, apperr.FromEnt(err, "", supervisorConflictMsg(in.Email, in.ExternalID))
		}
		return supervisorAssigned(ctx, tx, tenantID, sup, orEmpty(in.RouteIDs), orEmpty(in.OperatorIDs))
	})
}

// supervisorAssigned replaces the assignments of a supervisor just written
// (nil ids: those are kept) and returns it with its live assignments.
func supervisorAssigned(ctx context.Context, tx *ent.Client, tenantID uuid.UUID, sup *ent.Supervisor,
	routeIDs, operatorIDs []uuid.UUID) (*SupervisorDetail, error) {
	if err := assign(ctx, tx, tenantID, sup.ID, routeIDs, operatorIDs); err != nil {
		return nil, err
	}
	ds, err := supervisorDetails(ctx, tx, tenantID, []*ent.Supervisor{sup})
	if err != nil {
		return nil, err
	}
	return ds[0], nil
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
	return sup, apperr.FromEnt(err, MsgSupervisorNotFound, "")
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
	sup, err := tenancy.Get(ctx, s.db(ctx), id, supervisorOf)
	if err != nil {
		return nil, err
	}
	ds, err := supervisorDetails(ctx, s.db(ctx), sup.TenantID, []*ent.Supervisor{sup})
	if err != nil {
		return nil, err
	}
	return ds[0], nil
}

// ListSupervisors returns a page of the tenant's supervisors, by name.
func (s *Service) ListSupervisors(ctx context.Context, f SupervisorFilter, p paging.Page) (*paging.List[*SupervisorDetail], error) {
	tenantID, err := tenancy.Tenant(ctx)
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
	l, err := paging.Fetch(ctx, q, paging.Asc(supervisor.FieldName, supervisor.FieldID), p)
	if err != nil {
		return nil, err
	}
	ds, err := supervisorDetails(ctx, s.db(ctx), tenantID, l.Items)
	if err != nil {
		return nil, err
	}
	return &paging.List[*SupervisorDetail]{Items: ds, Total: l.Total, Page: p}, nil
}

// SupervisorConnection pages through the tenant's supervisors (GraphQL).
func (s *Service) SupervisorConnection(ctx context.Context, after *ent.Cursor, first *int, before *ent.Cursor, last *int,
	orderBy *ent.SupervisorOrder, where *ent.SupervisorWhereInput) (*ent.SupervisorConnection, error) {
	return tenancy.Connection(ctx, s.db(ctx).Supervisor.Query(), supervisor.TenantID, after, first, before, last,
		ent.WithSupervisorOrder(orderBy), ent.WithSupervisorFilter(where.Filter))
}

// UpdateSupervisor changes a supervisor of the active tenant.
func (s *Service) UpdateSupervisor(ctx context.Context, id uuid.UUID, in SupervisorPatch) (*SupervisorDetail, error) {
	check := func() []string {
		in.Name, in.Email, in.ExternalID, in.Phone = fields.Trim(in.Name), fields.Trim(in.Email), fields.Trim(in.ExternalID), fields.Trim(in.Phone)
		return checkPerson(in.Name, in.Email, in.Phone, in.ExternalID)
	}
	return write(ctx, s.client, check, func(ctx context.Context, tx *ent.Client, tenantID uuid.UUID) (*SupervisorDetail, error) {
		sup, err := supervisorOf(ctx, tx, tenantID, id)
		if err != nil {
			return nil, err
		}
		email, externalID := fields.BlankNil(in.Email), fields.BlankNil(in.ExternalID)
		if err := supervisorUnique(ctx, tx, tenantID, sup.ID, email, externalID); err != nil {
			return nil, err
		}
		u := tx.Supervisor.UpdateOne(sup).SetNillableName(in.Name).SetNillableIsActive(in.IsActive)
		patchContact(u, in.Email, in.Phone, in.ExternalID, in.Metadata)
		saved, err := u.Save(ctx)
		if err != nil {
			return nil, apperr.FromEnt(err, MsgSupervisorNotFound, supervisorConflictMsg(email, externalID))
		}
		return supervisorAssigned(ctx, tx, tenantID, saved, in.RouteIDs, in.OperatorIDs)
	})
}

// DeleteSupervisor archives a supervisor into the trash (restorable with its
// assignments); its email and external id become free at once.
func (s *Service) DeleteSupervisor(ctx context.Context, id uuid.UUID) error {
	return archive(ctx, s.client, id, trash.KindSupervisor, supervisorOf,
		func(sup *ent.Supervisor) string { return sup.Name })
}
