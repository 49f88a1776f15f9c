package commerce

import (
	"context"

	"entgo.io/ent/dialect/sql/sqlgraph"
	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/ent/commerce"
	"github.com/reten-io/reten/ent/commerceuser"
	"github.com/reten-io/reten/internal/apperr"
	"github.com/reten-io/reten/internal/txn"
)

// Primary flags (one primary active address per commerce, one primary active
// contact per type per commerce user) are kept by three means together:
//
//   - every change of a primary flag runs in one transaction that first
//     unsets the previous primary and then sets the new one;
//   - that transaction locks the parent row (the commerce, or the commerce
//     user) with SELECT ... FOR UPDATE on PostgreSQL, so concurrent changes
//     of one parent take turns (SQLite serialises write transactions
//     already: they begin IMMEDIATE);
//   - the partial unique indexes (commerce_id WHERE is_primary AND
//     is_active; commerce_user_id, contact_type WHERE ...) reject any
//     remaining race, and writeRetrying runs the transaction again.

// maxAttempts bounds writeRetrying.
const maxAttempts = 4

// lockCommerce loads a live commerce of the tenant and locks its row until
// the transaction ends; 404 "Commerce not found" otherwise.
func lockCommerce(ctx context.Context, tx *ent.Client, tid, id uuid.UUID) (*ent.Commerce, error) {
	q := tx.Commerce.Query().Where(commerce.ID(id), commerce.TenantID(tid)).Unique(false)
	q.Modify(txn.ForUpdate)
	c, err := q.Only(ctx)
	if err != nil {
		return nil, apperr.FromEnt(err, MsgNotFound, "")
	}
	return c, nil
}

// lockUser loads a commerce user of a live commerce of the tenant and locks
// its row; 404 "Commerce not found" or "Commerce user not found" otherwise.
func lockUser(ctx context.Context, tx *ent.Client, tid, commerceID, userID uuid.UUID) (*ent.CommerceUser, error) {
	if _, err := liveCommerce(ctx, tx, tid, commerceID); err != nil {
		return nil, err
	}
	q := tx.CommerceUser.Query().
		Where(commerceuser.ID(userID), commerceuser.CommerceID(commerceID), commerceuser.TenantID(tid)).Unique(false)
	q.Modify(txn.ForUpdate)
	u, err := q.Only(ctx)
	if err != nil {
		return nil, apperr.FromEnt(err, MsgUserNotFound, "")
	}
	return u, nil
}

// liveCommerce loads a live (not archived) commerce of the tenant.
func liveCommerce(ctx context.Context, c *ent.Client, tid, id uuid.UUID) (*ent.Commerce, error) {
	cm, err := c.Commerce.Query().Where(commerce.ID(id), commerce.TenantID(tid)).Only(ctx)
	if err != nil {
		return nil, apperr.FromEnt(err, MsgNotFound, "")
	}
	return cm, nil
}

// writeRetrying runs fn in a transaction and runs it again (up to
// maxAttempts) when a unique index rejected it: a concurrent request changed
// a primary flag between our read and our write. Inside another service's
// transaction it cannot retry, and the race answers 409.
func (s *Service) writeRetrying(ctx context.Context, fn func(ctx context.Context, tx *ent.Client) error) error {
	for attempt := 1; ; attempt++ {
		err := txn.Run(ctx, s.client, fn)
		if err == nil || !sqlgraph.IsUniqueConstraintError(err) {
			return err
		}
		if ent.TxFromContext(ctx) != nil || attempt == maxAttempts {
			return apperr.Conflict(MsgConcurrentChange)
		}
	}
}
