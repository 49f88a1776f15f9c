package project

import (
	"context"
	"fmt"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/ent/audience"
	"github.com/reten-io/reten/internal/txn"
)

// LockRootAudience locks the row of the project's root audience until the
// transaction of tx ends (txn.ForUpdate, txn.ForShare). It orders the two
// kinds of write whose rule spans the root audience and the activity
// generation configs falling back on it (audienceId null): a definition
// edit of the root audience locks it exclusively before it reads those
// configs (the DEFAULT_ROOT_CONFIRMATION_REQUIRED check); a write that makes
// a config fall back on it (a config created without an audience, its
// audience cleared, or restored from the trash) locks it shared. Either
// waits for the other to commit, so the edit's check sees every config that
// falls back on the root audience when its definition is written.
func LockRootAudience(ctx context.Context, tx *ent.Client, tid, pid uuid.UUID, exclusive bool) error {
	lock := txn.ForShare
	if exclusive {
		lock = txn.ForUpdate
	}
	q := tx.Audience.Query().Where(audience.TenantID(tid), audience.ProjectID(pid), audience.IsRoot(true)).Unique(false)
	q.Modify(lock)
	if _, err := q.IDs(ctx); err != nil {
		return fmt.Errorf("project: lock root audience of %s: %w", pid, err)
	}
	return nil
}
