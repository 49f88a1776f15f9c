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
	"github.com/reten-io/reten/internal/fields"
	"github.com/reten-io/reten/internal/paging"
	"github.com/reten-io/reten/internal/tenancy"
	"github.com/reten-io/reten/internal/trash"
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

// check trims the input (blank optional fields become nil) and returns its
// broken rules.
func (in *OperatorInput) check() []string {
	in.Type, in.Name = strings.TrimSpace(in.Type), strings.TrimSpace(in.Name)
	in.Email, in.Phone, in.ExternalID = newContact(in.Email, in.Phone, in.ExternalID)
	var msgs []string
	if !validType(in.Type) {
		msgs = append(msgs, MsgTypeValues)
	}
	return append(msgs, checkPerson(&in.Name, in.Email, in.Phone, in.ExternalID)...)
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

// check trims the patch and returns its broken rules.
func (in *OperatorPatch) check() []string {
	in.Name, in.Email, in.Phone, in.ExternalID = fields.Trim(in.Name), fields.Trim(in.Email), fields.Trim(in.Phone), fields.Trim(in.ExternalID)
	return checkPerson(in.Name, in.Email, in.Phone, in.ExternalID)
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
	others := func() *ent.OperatorQuery {
		return tx.Operator.Query().Where(operator.TenantID(tenantID), operator.IDNEQ(self))
	}
	if email != nil {
		err := apperr.ConflictIfExists(ctx, others().Where(operator.EmailKey(*emailKey(email))),
			fmt.Sprintf(MsgOperatorEmailTakenFmt, *email))
		if err != nil {
			return err
		}
	}
	if externalID == nil {
		return nil
	}
	return apperr.ConflictIfExists(ctx, others().Where(operator.TypeEQ(operator.Type(typ)), operator.ExternalID(*externalID)),
		fmt.Sprintf(MsgOperatorExternalIDTakenFmt, typ, *externalID))
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
	return write(ctx, s.client, in.check, func(ctx context.Context, tx *ent.Client, tenantID uuid.UUID) (*ent.Operator, error) {
		if err := operatorUnique(ctx, tx, tenantID, uuid.Nil, in.Type, in.Email, in.ExternalID); err != nil {
			return nil, err
		}
		c := tx.Operator.Create().SetTenantID(tenantID).SetType(operator.Type(in.Type)).SetName(in.Name).
			SetNillableEmail(in.Email).SetNillableEmailKey(emailKey(in.Email)).SetNillablePhone(in.Phone).
			SetNillableExternalID(in.ExternalID).SetNillableIsPlaceholder(in.IsPlaceholder)
		if in.Metadata != nil {
			c.SetMetadata(in.Metadata)
		}
		o, err := c.Save(ctx)
		return o, apperr.FromEnt(err, "", operatorConflictMsg(in.Type, in.Email, in.ExternalID))
	})
}

// operatorOf loads a live operator of the tenant (404 otherwise).
func operatorOf(ctx context.Context, c *ent.Client, tenantID, id uuid.UUID) (*ent.Operator, error) {
	o, err := c.Operator.Query().Where(operator.ID(id), operator.TenantID(tenantID)).Only(ctx)
	return o, apperr.FromEnt(err, MsgOperatorNotFound, "")
}

// GetOperator returns an operator of the active tenant.
func (s *Service) GetOperator(ctx context.Context, id uuid.UUID) (*ent.Operator, error) {
	return tenancy.Get(ctx, s.db(ctx), id, operatorOf)
}

// ListOperators returns a page of the tenant's operators, by name.
func (s *Service) ListOperators(ctx context.Context, f OperatorFilter, p paging.Page) (*paging.List[*ent.Operator], error) {
	q := s.db(ctx).Operator.Query()
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
	return tenancy.List(ctx, q, operator.TenantID, paging.Asc(operator.FieldName, operator.FieldID), p)
}

// OperatorConnection pages through the tenant's operators (GraphQL).
func (s *Service) OperatorConnection(ctx context.Context, after *ent.Cursor, first *int, before *ent.Cursor, last *int,
	orderBy *ent.OperatorOrder, where *ent.OperatorWhereInput) (*ent.OperatorConnection, error) {
	return tenancy.Connection(ctx, s.db(ctx).Operator.Query(), operator.TenantID, after, first, before, last,
		ent.WithOperatorOrder(orderBy), ent.WithOperatorFilter(where.Filter))
}

// UpdateOperator changes an operator of the active tenant.
func (s *Service) UpdateOperator(ctx context.Context, id uuid.UUID, in OperatorPatch) (*ent.Operator, error) {
	return write(ctx, s.client, in.check, func(ctx context.Context, tx *ent.Client, tenantID uuid.UUID) (*ent.Operator, error) {
		o, err := operatorOf(ctx, tx, tenantID, id)
		if err != nil {
			return nil, err
		}
		email, externalID := fields.BlankNil(in.Email), fields.BlankNil(in.ExternalID)
		if err := operatorUnique(ctx, tx, tenantID, o.ID, string(o.Type), email, externalID); err != nil {
			return nil, err
		}
		u := tx.Operator.UpdateOne(o).SetNillableName(in.Name).SetNillableIsActive(in.IsActive).
			SetNillableIsPlaceholder(in.IsPlaceholder)
		patchContact(u, in.Email, in.Phone, in.ExternalID, in.Metadata)
		saved, err := u.Save(ctx)
		return saved, apperr.FromEnt(err, MsgOperatorNotFound, operatorConflictMsg(string(o.Type), email, externalID))
	})
}

// DeleteOperator archives an operator into the trash (restorable with its
// route links); its email and (type, external_id) become free at once.
func (s *Service) DeleteOperator(ctx context.Context, id uuid.UUID) error {
	return archive(ctx, s.client, id, trash.KindOperator, operatorOf,
		func(o *ent.Operator) string { return o.Name })
}
