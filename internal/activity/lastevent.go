package activity

import (
	"context"
	"fmt"
	"time"

	"entgo.io/ent/dialect"
	"entgo.io/ent/dialect/sql"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/ent/activity"
	"github.com/reten-io/reten/ent/activitystatusevent"
	"github.com/reten-io/reten/internal/clock"
)

// LastEvent is the instant of an activity's latest status event as a caller
// read it inside its transaction, once it held the activity's row lock. The
// zero value is "not read": the machine reads it.
type LastEvent struct {
	Read bool
	At   *time.Time // nil: the activity has no event
}

// The columns WithLastEvent selects.
const (
	lastEventColumn    = "reten_last_event_at"
	lockedAsReadColumn = "reten_locked_as_read"
)

// WithLastEvent is a modifier of a query that locks activities (FOR UPDATE
// OF activities) on PostgreSQL: it selects with each activity the instant of
// its latest status event, and whether the row version the statement locked
// is the one its snapshot read, for LastEventOf. A statement that waited for
// the lock of a transaction that changed the activity locks the changed row
// but reads its subqueries with the snapshot it took before the wait: such
// a transaction may have written an event the subquery missed. On SQLite it
// selects nothing: write transactions there are exclusive, so the read after
// the lock costs no wait, and SQLite keeps times as text.
func WithLastEvent(s *sql.Selector) {
	if s.Dialect() != dialect.Postgres {
		return
	}
	id := s.C(activity.FieldID)
	s.AppendSelectExprAs(sql.Raw(fmt.Sprintf("(SELECT max(e.%s) FROM %s e WHERE e.%s = %s)",
		activitystatusevent.FieldOccurredAt, activitystatusevent.Table, activitystatusevent.FieldActivityID, id)), lastEventColumn)
	s.AppendSelectExprAs(sql.Raw(fmt.Sprintf("%s = (SELECT x.ctid FROM %s x WHERE x.%s = %s)",
		s.C("ctid"), activity.Table, activity.FieldID, id)), lockedAsReadColumn)
}

// LastEventOf returns the latest event WithLastEvent read with a: not read
// (the zero LastEvent) when it selected nothing or when the row it locked
// changed after its snapshot.
func LastEventOf(a *ent.Activity) LastEvent {
	if same, _ := a.Value(lockedAsReadColumn); same != true {
		return LastEvent{}
	}
	switch at, _ := a.Value(lastEventColumn); at := at.(type) {
	case nil:
		return LastEvent{Read: true}
	case time.Time:
		return LastEvent{Read: true, At: &at}
	}
	return LastEvent{}
}

// nextInstant is now, or just after the activity's latest event when the
// clock has not moved past it, so occurredAt orders an activity's events
// exactly as they were written. last is that event when the caller read it.
func nextInstant(ctx context.Context, tx *ent.Client, a *ent.Activity, last LastEvent) (time.Time, error) {
	at := clock.Now()
	if !last.Read {
		ev, err := tx.ActivityStatusEvent.Query().Where(activitystatusevent.ActivityID(a.ID)).
			Order(activitystatusevent.ByOccurredAt(sql.OrderDesc())).Select(activitystatusevent.FieldOccurredAt).First(ctx)
		switch {
		case err == nil:
			last.At = &ev.OccurredAt
		case !ent.IsNotFound(err):
			return at, err
		}
	}
	if last.At != nil && !at.After(*last.At) {
		at = last.At.Add(time.Microsecond)
	}
	return at, nil
}
