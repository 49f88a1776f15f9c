package fieldorg

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/ent/operator"
	"github.com/reten-io/reten/internal/apperr"
	"github.com/reten-io/reten/internal/auth"
	"github.com/reten-io/reten/internal/clock"
	"github.com/reten-io/reten/internal/paging"
	"github.com/reten-io/reten/internal/trash"
	"github.com/reten-io/reten/internal/txn"
)

// OperatorTypes are the operator types of SPEC.md "Operator".
var OperatorTypes = []string{string(operator.TypeSALESMAN), string(operator.TypeACTIVATOR), string(operator.TypeCALLCENTER)}

func validType(t string) bool { return slices.Contains(OperatorTypes, t) }

// OperatorInput is the body of POST /api/operators. Optional strings are nil
// when not sent; blank ones are stored as NULL.
type OperatorInput struct {
	Type, Name               string
	Email, Phone, ExternalID *string
	IsPlaceholder            *bool
	Metadata                 map[string]any
}

func (in *OperatorInput) normalize() {
	in.Type, in.Name = strings.TrimSpace(in.Type), strings.TrimSpace(in.Name)
	in.Email, in.Phone, in.ExternalID = nilIfEmpty(trimPtr(in.Email)), nilIfEmpty(trimPtr(in.Phone)), nilIfEmpty(trimPtr(in.ExternalID))
}

func (in OperatorInput) validate() []string {
	var msgs []string
	if !validType(in.Type) {
		msgs = append(msgs, MsgTypeValues)
	}
	msgs = append(msgs, checkName(in.Name)...)
	msgs = append(msgs, checkContact(in.Email, in.Phone)...)
	if in.ExternalID != nil && tooLong(*in.ExternalID, maxText) {
		msgs = append(msgs, MsgExternalIDTooLong)
	}
	return msgs
}

// OperatorPatch is the body of PATCH /api/operators/:id: nil fields are
// unchanged; "" clears email, phone or external_id; a non-nil Metadata
// replaces the metadata (an empty map clears it).
type OperatorPatch struct {
	Name                     *string
	Email, Phone, ExternalID *string
	IsActive, IsPlaceholder  *bool
	Metadata                 map[string]any
}

func (in *OperatorPatch) normalize() {
	in.Name, in.Email, in.Phone, in.ExternalID = trimPtr(in.Name), trimPtr(in.Email), trimPtr(in.Phone), trimPtr(in.ExternalID)
}

func (in OperatorPatch) validate() []string {
	var msgs []string
	if in.Name != nil {
		msgs = append(msgs, checkName(*in.Name)...)
	}
	msgs = append(msgs, checkContact(in.Email, in.Phone)...)
	if in.ExternalID != nil && tooLong(*in.ExternalID, maxText) {
		msgs = append(msgs, MsgExternalIDTooLong)
	}
	return msgs
}

// OperatorFilter narrows GET /api/operators.
type OperatorFilter struct {
	Type     string // "" = every type
	IsActive *bool
	Search   string // name, email or external id contains (case-insensitive)
}

// operatorUnique answers 409 when another live operator of the tenant holds
// the email (case-insensitively) or the (type, external_id) pair.
func operatorUnique(ctx context.Context, tx *ent.Client, tenantID, self uuid.UUID, typ string, email, externalID *string) error {
	if email != nil {
		taken, err := tx.Operator.Query().Where(operator.TenantID(tenantID), operator.EmailKey(*emailKey(email)),
			operator.IDNEQ(self)).Exist(ctx)
		if err != nil || taken {
			return conflictOr(err, fmt.Sprintf(MsgOperatorEmailTakenFmt, *email))
		}
	}
	if externalID != nil {
		taken, err := tx.Operator.Query().Where(operator.TenantID(tenantID), operator.TypeEQ(operator.Type(typ)),
			operator.ExternalID(*externalID), operator.IDNEQ(self)).Exist(ctx)
		if err != nil || taken {
			return conflictOr(err, fmt.Sprintf(MsgOperatorExternalIDTakenFmt, typ, *externalID))
		}
	}
	return nil
}

// operatorConflictMsg is the 409 message when a unique index fires despite
// the checks (a concurrent write).
func operatorConflictMsg(typ string, email, externalID *string) string {
	if email != nil {
		return fmt.Sprintf(MsgOperatorEmailTakenFmt, *email)
	}
	if externalID != nil {
		return fmt.Sprintf(MsgOperatorExternalIDTakenFmt, typ, *externalID)
	}
	return "Operator already exists"
}

// CreateOperator creates an operator in the active tenant.
func (s *Service) CreateOperator(ctx context.Context, in OperatorInput) (*ent.Operator, error) {
	tenantID, err := auth.TenantFor(ctx, auth.PermOperatorManage)
	if err != nil {
		return nil, err
	}
	in.normalize()
	if msgs := in.validate(); len(msgs) > 0 {
		return nil, apperr.Validation(msgs...)
	}
	var out *ent.Operator
	err = txn.Run(ctx, s.client, func(ctx context.Context, tx *ent.Client) error {
		if err := operatorUnique(ctx, tx, tenantID, uuid.Nil, in.Type, in.Email, in.ExternalID); err != nil {
			return err
		}
		c := tx.Operator.Create().SetTenantID(tenantID).SetType(operator.Type(in.Type)).SetName(in.Name).
			SetNillableEmail(in.Email).SetNillableEmailKey(emailKey(in.Email)).SetNillablePhone(in.Phone).
			SetNillableExternalID(in.ExternalID).SetNillableIsPlaceholder(in.IsPlaceholder)
		if in.Metadata != nil {
			c.SetMetadata(in.Metadata)
		}
		o, err := c.Save(ctx)
		if err != nil {
			return apperr.FromEnt(err, "", operatorConflictMsg(in.Type, in.Email, in.ExternalID))
		}
		out = o
		return nil
	})
	return out, err
}

// operatorOf loads a live operator of the tenant (404 otherwise).
func operatorOf(ctx context.Context, c *ent.Client, tenantID, id uuid.UUID) (*ent.Operator, error) {
	o, err := c.Operator.Query().Where(operator.ID(id), operator.TenantID(tenantID)).Only(ctx)
	if err != nil {
		return nil, apperr.FromEnt(err, MsgOperatorNotFound, "")
	}
	return o, nil
}

// GetOperator returns an operator of the active tenant.
func (s *Service) GetOperator(ctx context.Context, id uuid.UUID) (*ent.Operator, error) {
	tenantID, err := auth.TenantFor(ctx, auth.PermOperatorView)
	if err != nil {
		return nil, err
	}
	return operatorOf(ctx, s.db(ctx), tenantID, id)
}

// ListOperators returns a page of the tenant's operators, by name.
func (s *Service) ListOperators(ctx context.Context, f OperatorFilter, p paging.Page) (*paging.List[*ent.Operator], error) {
	tenantID, err := auth.TenantFor(ctx, auth.PermOperatorView)
	if err != nil {
		return nil, err
	}
	q := s.db(ctx).Operator.Query().Where(operator.TenantID(tenantID))
	if f.Type != "" {
		if !validType(f.Type) {
			return nil, apperr.Validation(MsgTypeValues)
		}
		q.Where(operator.TypeEQ(operator.Type(f.Type)))
	}
	if f.IsActive != nil {
		q.Where(operator.IsActive(*f.IsActive))
	}
	if term := strings.TrimSpace(f.Search); term != "" {
		q.Where(operator.Or(operator.NameContainsFold(term), operator.EmailContainsFold(term),
			operator.ExternalIDContainsFold(term)))
	}
	total, err := q.Clone().Count(ctx)
	if err != nil {
		return nil, err
	}
	items, err := q.Order(operator.ByName(), operator.ByID()).Offset(p.Offset()).Limit(p.PerPage).All(ctx)
	if err != nil {
		return nil, err
	}
	return &paging.List[*ent.Operator]{Items: items, Total: total, Page: p}, nil
}

// OperatorConnection pages through the tenant's operators (GraphQL).
func (s *Service) OperatorConnection(ctx context.Context, after *ent.Cursor, first *int, before *ent.Cursor, last *int,
	orderBy *ent.OperatorOrder, where *ent.OperatorWhereInput) (*ent.OperatorConnection, error) {
	tenantID, err := auth.TenantFor(ctx, auth.PermOperatorView)
	if err != nil {
		return nil, err
	}
	return s.db(ctx).Operator.Query().Where(operator.TenantID(tenantID)).Paginate(ctx, after, first, before, last,
		ent.WithOperatorOrder(orderBy), ent.WithOperatorFilter(where.Filter))
}

// UpdateOperator changes an operator of the active tenant.
func (s *Service) UpdateOperator(ctx context.Context, id uuid.UUID, in OperatorPatch) (*ent.Operator, error) {
	tenantID, err := auth.TenantFor(ctx, auth.PermOperatorManage)
	if err != nil {
		return nil, err
	}
	in.normalize()
	if msgs := in.validate(); len(msgs) > 0 {
		return nil, apperr.Validation(msgs...)
	}
	var out *ent.Operator
	err = txn.Run(ctx, s.client, func(ctx context.Context, tx *ent.Client) error {
		o, err := operatorOf(ctx, tx, tenantID, id)
		if err != nil {
			return err
		}
		email, externalID := nilIfEmpty(in.Email), nilIfEmpty(in.ExternalID)
		if err := operatorUnique(ctx, tx, tenantID, o.ID, string(o.Type), email, externalID); err != nil {
			return err
		}
		u := tx.Operator.UpdateOne(o).SetNillableName(in.Name).SetNillableIsActive(in.IsActive).
			SetNillableIsPlaceholder(in.IsPlaceholder)
		if in.Email != nil {
			if email == nil {
				u.ClearEmail().ClearEmailKey()
			} else {
				u.SetEmail(*email).SetEmailKey(*emailKey(email))
			}
		}
		if in.Phone != nil {
			if *in.Phone == "" {
				u.ClearPhone()
			} else {
				u.SetPhone(*in.Phone)
			}
		}
		if in.ExternalID != nil {
			if externalID == nil {
				u.ClearExternalID()
			} else {
				u.SetExternalID(*externalID)
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
			return apperr.FromEnt(err, MsgOperatorNotFound, operatorConflictMsg(string(o.Type), email, externalID))
		}
		out = saved
		return nil
	})
	return out, err
}

// DeleteOperator archives an operator into the trash (restorable with its
// route links); its email and (type, external_id) become free at once.
func (s *Service) DeleteOperator(ctx context.Context, id uuid.UUID) error {
	tenantID, err := auth.TenantFor(ctx, auth.PermOperatorDelete)
	if err != nil {
		return err
	}
	return txn.Run(ctx, s.client, func(ctx context.Context, tx *ent.Client) error {
		o, err := operatorOf(ctx, tx, tenantID, id)
		if err != nil {
			return err
		}
		if err := tx.Operator.UpdateOne(o).SetArchivedAt(clock.Now()).Exec(ctx); err != nil {
			return err
		}
		return trash.Archive(ctx, tx, trash.Record{Kind: trash.KindOperator, RecordID: o.ID, Label: o.Name})
	})
}
