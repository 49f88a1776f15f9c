// Package commerce manages commerces (customer businesses) with their
// addresses, users, user roles and contacts, and the integrators' batch upsert.
package commerce

import (
	"context"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/ent/commerce"
	"github.com/reten-io/reten/ent/commerceaddress"
	"github.com/reten-io/reten/ent/commercecontact"
	"github.com/reten-io/reten/ent/commerceuser"
	"github.com/reten-io/reten/internal/apperr"
	"github.com/reten-io/reten/internal/auth"
	"github.com/reten-io/reten/internal/clock"
	"github.com/reten-io/reten/internal/paging"
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

// trimmed returns the trimmed value of p, or nil.
func trimmed(p *string) *string {
	if p == nil {
		return nil
	}
	v := strings.TrimSpace(*p)
	return &v
}

// blankNil turns a blank value into nil (stored as NULL).
func blankNil(p *string) *string {
	if p == nil || *p == "" {
		return nil
	}
	return p
}

func validateName(name string) []string {
	switch {
	case name == "":
		return []string{MsgNameRequired}
	case utf8.RuneCountInString(name) > maxName:
		return []string{MsgNameTooLong}
	}
	return nil
}

// Create adds a commerce to the active tenant; 409 when another live
// commerce of the tenant has the same external id.
func (s *Service) Create(ctx context.Context, in CreateInput) (*ent.Commerce, error) {
	tid, err := auth.TenantFor(ctx, auth.PermCommerceManage)
	if err != nil {
		return nil, err
	}
	in.Name = strings.TrimSpace(in.Name)
	in.ExternalID = blankNil(trimmed(in.ExternalID))
	if msgs := validateName(in.Name); len(msgs) > 0 {
		return nil, apperr.Validation(msgs...)
	}
	var out *ent.Commerce
	err = txn.Run(ctx, s.client, func(ctx context.Context, tx *ent.Client) error {
		if err := externalIDFree(ctx, tx, tid, in.ExternalID, uuid.Nil); err != nil {
			return err
		}
		b := tx.Commerce.Create().SetTenantID(tid).SetName(in.Name).SetNillableExternalID(in.ExternalID).
			SetNillableIsActive(in.IsActive)
		if v := trimmed(in.TaxID); v != nil {
			b.SetTaxID(*v)
		}
		if v := trimmed(in.Segment); v != nil {
			b.SetSegment(*v)
		}
		if in.Metadata != nil {
			b.SetMetadata(in.Metadata)
		}
		c, err := b.Save(ctx)
		if err != nil {
			return apperr.FromEnt(err, MsgNotFound, takenMsg(in.ExternalID))
		}
		out = c
		return nil
	})
	return out, err
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
	taken, err := tx.Commerce.Query().
		Where(commerce.TenantID(tid), commerce.ExternalID(*externalID), commerce.IDNEQ(self)).Exist(ctx)
	if err != nil {
		return err
	}
	if taken {
		return apperr.Conflict(fmt.Sprintf(MsgExternalIDTakenFmt, *externalID))
	}
	return nil
}

// Update changes a commerce of the active tenant.
func (s *Service) Update(ctx context.Context, id uuid.UUID, in UpdateInput) (*ent.Commerce, error) {
	tid, err := auth.TenantFor(ctx, auth.PermCommerceManage)
	if err != nil {
		return nil, err
	}
	in.Name = trimmed(in.Name)
	in.ExternalID = trimmed(in.ExternalID)
	if in.Name != nil {
		if msgs := validateName(*in.Name); len(msgs) > 0 {
			return nil, apperr.Validation(msgs...)
		}
	}
	var out *ent.Commerce
	err = txn.Run(ctx, s.client, func(ctx context.Context, tx *ent.Client) error {
		c, err := lockCommerce(ctx, tx, tid, id)
		if err != nil {
			return err
		}
		upd := tx.Commerce.UpdateOne(c)
		if in.ExternalID != nil {
			if ext := blankNil(in.ExternalID); ext == nil {
				upd.ClearExternalID()
			} else {
				if err := externalIDFree(ctx, tx, tid, ext, id); err != nil {
					return err
				}
				upd.SetExternalID(*ext)
			}
		}
		if in.Name != nil {
			upd.SetName(*in.Name)
		}
		setOptional(trimmed(in.TaxID), upd.SetTaxID, upd.ClearTaxID)
		setOptional(trimmed(in.Segment), upd.SetSegment, upd.ClearSegment)
		if in.IsActive != nil {
			upd.SetIsActive(*in.IsActive)
		}
		if in.Metadata != nil {
			upd.SetMetadata(in.Metadata)
		}
		out, err = upd.Save(ctx)
		return apperr.FromEnt(err, MsgNotFound, takenMsg(blankNil(in.ExternalID)))
	})
	return out, err
}

// setOptional sets an optional text column, or clears it (NULL) when blank.
func setOptional[U any](v *string, set func(string) U, clear func() U) {
	switch {
	case v == nil:
	case *v == "":
		clear()
	default:
		set(*v)
	}
}

// Get returns a commerce of the active tenant with its addresses, and its
// users with their roles and contacts (each by creation).
func (s *Service) Get(ctx context.Context, id uuid.UUID) (*ent.Commerce, error) {
	tid, err := auth.TenantFor(ctx, auth.PermCommerceView)
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
	tid, err := auth.TenantFor(ctx, auth.PermCommerceView)
	if err != nil {
		return nil, err
	}
	q := s.db(ctx).Commerce.Query().Where(commerce.TenantID(tid))
	if search := strings.TrimSpace(f.Search); search != "" {
		q.Where(commerce.Or(commerce.NameContainsFold(search), commerce.ExternalIDContainsFold(search)))
	}
	if f.IsActive != nil {
		q.Where(commerce.IsActive(*f.IsActive))
	}
	total, err := q.Clone().Count(ctx)
	if err != nil {
		return nil, err
	}
	items, err := q.Order(commerce.ByName(), commerce.ByID()).Offset(p.Offset()).Limit(p.PerPage).All(ctx)
	if err != nil {
		return nil, err
	}
	return &paging.List[*ent.Commerce]{Items: items, Total: total, Page: p}, nil
}

// Connection pages through the active tenant's commerces (GraphQL).
func (s *Service) Connection(ctx context.Context, after *ent.Cursor, first *int, before *ent.Cursor, last *int,
	orderBy *ent.CommerceOrder, where *ent.CommerceWhereInput) (*ent.CommerceConnection, error) {
	tid, err := auth.TenantFor(ctx, auth.PermCommerceView)
	if err != nil {
		return nil, err
	}
	return s.db(ctx).Commerce.Query().Where(commerce.TenantID(tid)).Paginate(ctx, after, first, before, last,
		ent.WithCommerceOrder(orderBy), ent.WithCommerceFilter(where.Filter))
}

// Delete archives a commerce into the trash: it disappears from every read
// at once and stays restorable (with its children) for the retention window.
func (s *Service) Delete(ctx context.Context, id uuid.UUID) error {
	tid, err := auth.TenantFor(ctx, auth.PermCommerceDelete)
	if err != nil {
		return err
	}
	return txn.Run(ctx, s.client, func(ctx context.Context, tx *ent.Client) error {
		c, err := lockCommerce(ctx, tx, tid, id)
		if err != nil {
			return err
		}
		if err := tx.Commerce.UpdateOne(c).SetArchivedAt(clock.Now()).Exec(ctx); err != nil {
			return err
		}
		return trash.Archive(ctx, tx, trash.Record{Kind: trash.KindCommerce, RecordID: c.ID, Label: c.Name})
	})
}
