package result

import (
	"context"
	"encoding/base64"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
	entres "github.com/reten-io/reten/ent/activityresult"
	"github.com/reten-io/reten/internal/apperr"
	"github.com/reten-io/reten/internal/tenancy"
)

// Sync limits (GET /api/activity-results/tasks/sync).
const (
	SyncDefaultLimit = 100
	SyncMaxLimit     = 1000
)

// SettleWindow: the sync never returns a row whose updated_at is newer than
// now minus this window. updated_at is taken before commit, so a transaction
// committing late can make a row visible with an updated_at older than rows
// already returned; waiting out the window lets such rows appear before the
// cursor moves past them (a row shows up once it is older than the window).
const SettleWindow = 2 * time.Second

// Messages of the sync parameters (400).
const (
	MsgSyncLimitMax     = "limit must not be greater than 1000"
	MsgSyncLimitMin     = "limit must not be less than 1"
	MsgSyncLimitInteger = "limit must be an integer number"
	MsgSyncCursor       = "since is not a valid cursor"
)

// SyncPage is one page of the sync: the rows in (updated_at, id) order, the
// cursor of the last row ("" when the page is empty: the client keeps its
// cursor) and whether more rows are ready now.
type SyncPage struct {
	Results    []*ent.ActivityResult
	NextCursor string
	HasMore    bool
}

// ParseSyncLimit validates the limit query parameter ("" = the default).
func ParseSyncLimit(raw string) (int, error) {
	if raw == "" {
		return SyncDefaultLimit, nil
	}
	n, err := strconv.Atoi(raw)
	if err != nil {
		return 0, apperr.Validation(MsgSyncLimitInteger)
	}
	return n, checkSyncLimit(n)
}

// SyncLimit validates a limit given as a number (nil = the default).
func SyncLimit(n *int) (int, error) {
	if n == nil {
		return SyncDefaultLimit, nil
	}
	return *n, checkSyncLimit(*n)
}

func checkSyncLimit(n int) error {
	switch {
	case n < 1:
		return apperr.Validation(MsgSyncLimitMin)
	case n > SyncMaxLimit:
		return apperr.Validation(MsgSyncLimitMax)
	}
	return nil
}

// Sync returns the results of every project of the tenant changed after
// cursor (opaque; "" = from the beginning), at most limit rows, ordered by
// (updated_at, id) ascending. Tenant-level: the active project is ignored.
func (s *Service) Sync(ctx context.Context, cursor string, limit int) (SyncPage, error) {
	acc, err := tenancy.From(ctx)
	if err != nil {
		return SyncPage{}, err
	}
	ctx, tenantID := acc.TenantWide(ctx), acc.TenantID
	if limit < 1 || limit > SyncMaxLimit {
		limit = SyncDefaultLimit
	}
	// Times are bound in UTC, the zone the data layer writes (SQLite
	// compares the stored text).
	q := s.db(ctx).ActivityResult.Query().Where(entres.TenantID(tenantID),
		entres.UpdatedAtLTE(s.Now().Add(-SettleWindow).UTC()))
	if cursor != "" {
		at, id, err := decodeCursor(cursor)
		if err != nil {
			return SyncPage{}, err
		}
		q.Where(entres.Or(entres.UpdatedAtGT(at), entres.And(entres.UpdatedAtEQ(at), entres.IDGT(id))))
	}
	rows, err := q.Order(ent.Asc(entres.FieldUpdatedAt), ent.Asc(entres.FieldID)).Limit(limit + 1).All(ctx)
	if err != nil {
		return SyncPage{}, wrap("sync", err)
	}
	page := SyncPage{Results: rows, HasMore: len(rows) > limit}
	if page.HasMore {
		page.Results = rows[:limit]
	}
	if n := len(page.Results); n > 0 {
		page.NextCursor = encodeCursor(page.Results[n-1])
	}
	return page, nil
}

// encodeCursor is base64url("<updated_at RFC3339Nano>|<id>").
func encodeCursor(r *ent.ActivityResult) string {
	raw := r.UpdatedAt.UTC().Format(time.RFC3339Nano) + "|" + r.ID.String()
	return base64.RawURLEncoding.EncodeToString([]byte(raw))
}

func decodeCursor(c string) (time.Time, uuid.UUID, error) {
	invalid := apperr.Validation(MsgSyncCursor)
	raw, err := base64.RawURLEncoding.DecodeString(strings.TrimRight(c, "="))
	if err != nil {
		return time.Time{}, uuid.Nil, invalid
	}
	ts, sid, ok := strings.Cut(string(raw), "|")
	if !ok {
		return time.Time{}, uuid.Nil, invalid
	}
	at, err := time.Parse(time.RFC3339Nano, ts)
	if err != nil {
		return time.Time{}, uuid.Nil, invalid
	}
	id, err := uuid.Parse(sid)
	if err != nil {
		return time.Time{}, uuid.Nil, invalid
	}
	return at.UTC(), id, nil
}
