// Package commerce manages commerces (customer businesses) with their
// addresses, users, user roles and contacts, and the integrators' batch upsert.
package commerce

import (
	"context"
	"fmt"
	"strings"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/ent/commerce"
	"github.com/reten-io/reten/ent/commerceaddress"
	"github.com/reten-io/reten/ent/commercecontact"
	"github.com/reten-io/reten/ent/commerceuser"
	"github.com/reten-io/reten/internal/apperr"
	"github.com/reten-io/reten/internal/fields"
	"github.com/reten-io/reten/internal/paging"
	"github.com/reten-io/reten/internal/tenancy"
	"github.com/reten-io/reten/internal/trash"
	"github.com/reten-io/reten/internal/txn"
)

// Messages of the commerce rules (SPEC.md does not spell them; designed in
// the class-validator style of the documented ones).
const (
	MsgNotFound           = "Commerce not found"
	MsgExternalIDTakenFmt = `A commerce with external_id "%s" already exists`
	MsgNameRequired       = "name should not be empty"
	MsgNameTooLong        = "name must be shorter than or equal to 255 characters"
	MsgConcurrentChange   = "The record was changed by a concurrent request; retry the request"
)

// maxName is the longest commerce name, in characters.
const maxName = 255

// Service manages the commerces of the viewer's tenant.
type Service struct{ client *ent.Client }

// NewService returns a Service.
func NewService(client *ent.Client) *Service { return &Service{client: client} }

// db is the transaction client of ctx when there is one, else the pool.
func (s *Service) db(ctx context.Context) *ent.Client { return txn.Client(ctx, s.client) }

// CreateInput is the body of POST /api/commerces.
type CreateInput struct {
	ExternalID *string // blank or nil: no external id (stored as NULL)
	Name       string
	TaxID      *string
	Segment    *string
	IsActive   *bool          // default true
	Metadata   map[string]any // a JSON object; nil: none
}

// UpdateInput is the body of PATCH /api/commerces/:id; nil fields are
// unchanged. A blank external_id, tax_id or segment clears it.
type UpdateInput struct {
	ExternalID *string
	Name       *string
	TaxID      *string
	Segment    *string
	IsActive   *bool
	Metadata   map[string]any // replaces the whole object when not nil
}

// ListFilter narrows GET /api/commerces.
type ListFilter struct {
	// Search matches the name or the external id, case-insensitively, as a substring.
	Search string
	// IsActive keeps only active (true) or inactive (false) commerces.
	IsActive *bool
}

func validateName(name string) []string {
	return fields.Text(name, maxName, MsgNameRequired, MsgNameTooLong)
}

// Create adds a commerce to the active tenant; 409 when another live
// commerce of the tenant has the same external id.
func (s *Service) Create(ctx context.Context, in CreateInput) (*ent.Commerce, error) {
	tid, err := tenancy.Tenant(ctx)
	if err != nil {
		return nil, err
	}
	in.Name = strings.TrimSpace(in.Name)
	in.ExternalID = fields.BlankNil(fields.Trim(in.ExternalID))
	if msgs := validateName(in.Name); len(msgs) > 0 {
		return nil, apperr.Validation(msgs...)
	}
	return txn.Value(ctx, s.client, func(ctx context.Context, tx *ent.Client) (*ent.Commerce, error) {
		if err := externalIDFree(ctx, tx, tid, in.ExternalID, uuid.Nil); err != nil {
			return nil, err
		}
		b := tx.Commerce.Create().SetTenantID(tid).SetName(in.Name).SetNillableExternalID(in.ExternalID).
			SetNillableIsActive(in.IsActive).SetNillableTaxID(fields.Trim(in.TaxID)).SetNillableSegment(fields.Trim(in.Segment))
		if in.Metadata != nil {
			b.SetMetadata(in.Metadata)
		}
		c, err := b.Save(ctx)
		return c, apperr.FromEnt(err, MsgNotFound, takenMsg(in.ExternalID))
	})
}

func takenMsg(externalID *string) string {
	if externalID == nil {
		return MsgConcurrentChange
	}
	return fmt.Sprintf(MsgExternalIDTakenFmt, *externalID)
}

// externalIDFree answers 409 when a live commerce of the tenant other than
// self already uses externalID. Archived commerces do not count (the partial
// unique index excludes them too).
func externalIDFree(ctx context.Context, tx *ent.Client, tid uuid.UUID, externalID *string, self uuid.UUID) error {
	if externalID == nil {
		return nil
	}
	return apperr.ConflictIfExists(ctx, tx.Commerce.Query().
		Where(commerce.TenantID(tid), commerce.ExternalID(*externalID), commerce.IDNEQ(self)),
		fmt.Sprintf(MsgExternalIDTakenFmt, *externalID))
}

// Update changes a commerce of the active tenant.
func (s *Service) Update(ctx context.Context, id uuid.UUID, in UpdateInput) (*ent.Commerce, error) {
	tid, err := tenancy.Tenant(ctx)
	if err != nil {
		return nil, err
	}
	in.Name = fields.Trim(in.Name)
	in.ExternalID = fields.Trim(in.ExternalID)
	if in.Name != nil {
		if msgs := validateName(*in.Name); len(msgs) > 0 {
			return nil, apperr.Validation(msgs...)
		}
	}
	return txn.Value(ctx, s.client, func(ctx context.Context, tx *ent.Client) (*ent.Commerce, error) {
		c, err := lockCommerce(ctx, tx, tid, id)
		if err != nil {
			return nil, err
		}
		if err := externalIDFree(ctx, tx, tid, fields.BlankNil(in.ExternalID), id); err != nil {
			return nil, err
		}
		upd := tx.Commerce.UpdateOne(c).SetNillableName(in.Name).SetNillableIsActive(in.IsActive)
		fields.Patch(in.ExternalID, upd.SetExternalID, upd.ClearExternalID)
		fields.Patch(fields.Trim(in.TaxID), upd.SetTaxID, upd.ClearTaxID)
		fields.Patch(fields.Trim(in.Segment), upd.SetSegment, upd.ClearSegment)
		if in.Metadata != nil {
			upd.SetMetadata(in.Metadata)
		}
		c, err = upd.Save(ctx)
		return c, apperr.FromEnt(err, MsgNotFound, takenMsg(fields.BlankNil(in.ExternalID)))
	})
}

// Get returns a commerce of the active tenant with its addresses, and its
// users with their roles and contacts (each by creation).
func (s *Service) Get(ctx context.Context, id uuid.UUID) (*ent.Commerce, error) {
	tid, err := tenancy.Tenant(ctx)
	if err != nil {
		return nil, err
	}
	c, err := s.db(ctx).Commerce.Query().Where(commerce.ID(id), commerce.TenantID(tid)).
		WithAddresses(func(q *ent.CommerceAddressQuery) {
			q.Order(commerceaddress.ByCreatedAt(), commerceaddress.ByID())
		}).
		WithUsers(func(q *ent.CommerceUserQuery) {
			q.Order(commerceuser.ByCreatedAt(), commerceuser.ByID()).WithRoles().
				WithContacts(func(q *ent.CommerceContactQuery) {
					q.Order(commercecontact.ByCreatedAt(), commercecontact.ByID())
				})
		}).Only(ctx)
	if err != nil {
		return nil, apperr.FromEnt(err, MsgNotFound, "")
	}
	for _, u := range c.Edges.Users {
		sortRoles(u.Edges.Roles)
	}
	return c, nil
}

// List returns a page of the active tenant's commerces by name.
func (s *Service) List(ctx context.Context, f ListFilter, p paging.Page) (*paging.List[*ent.Commerce], error) {
	q := s.db(ctx).Commerce.Query()
	if search := strings.TrimSpace(f.Search); search != "" {
		q.Where(commerce.Or(commerce.NameContainsFold(search), commerce.ExternalIDContainsFold(search)))
	}
	if f.IsActive != nil {
		q.Where(commerce.IsActive(*f.IsActive))
	}
	return tenancy.List(ctx, q, commerce.TenantID, paging.Asc(commerce.FieldName, commerce.FieldID), p)
}

// Connection pages through the active tenant's commerces (GraphQL).
func (s *Service) Connection(ctx context.Context, after *ent.Cursor, first *int, before *ent.Cursor, last *int,
	orderBy *ent.CommerceOrder, where *ent.CommerceWhereInput) (*ent.CommerceConnection, error) {
	return tenancy.Connection(ctx, s.db(ctx).Commerce.Query(), commerce.TenantID, after, first, before, last,
		ent.WithCommerceOrder(orderBy), ent.WithCommerceFilter(where.Filter))
}

// Delete archives a commerce into the trash: it disappears from every read
// at once and stays restorable (with its children) for the retention window.
func (s *Service) Delete(ctx context.Context, id uuid.UUID) error {
	tid, err := tenancy.Tenant(ctx)
	if err != nil {
		return err
	}
	return txn.Run(ctx, s.client, func(ctx context.Context, tx *ent.Client) error {
		c, err := lockCommerce(ctx, tx, tid, id)
		if err != nil {
			return err
		}
		return trash.Move(ctx, tx, trash.Record{Kind: trash.KindCommerce, RecordID: c.ID, Label: c.Name})
	})
}
