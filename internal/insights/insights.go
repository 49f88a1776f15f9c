// Package insights answers the console's pictures of an AGC (docs/console.md):
// the lifecycle distribution and its evolution, the transitions between
// states, what the generation rules decided and the status of the
// activities they created. Every answer is an aggregation the database
// computes: each costs a fixed number of statements, whatever the number
// of commerces, and returns at most one row per state, day, rule or
// status.
package insights

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"entgo.io/ent/dialect"
	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/ent/activitygenerationconfig"
	"github.com/reten-io/reten/internal/agc"
	"github.com/reten-io/reten/internal/apperr"
	"github.com/reten-io/reten/internal/clock"
	"github.com/reten-io/reten/internal/cutoff"
	"github.com/reten-io/reten/internal/tenancy"
	"github.com/reten-io/reten/internal/txn"
)

// Messages of the period parameters.
const (
	MsgFromTo     = "to must be later than from"
	MsgPeriodDays = "the period from from to to must not be longer than 366 days"
	// MaxDays bounds a period of days.
	MaxDays = 366
	// DefaultDays is the period when from is not given: the last 30 days.
	DefaultDays = 30
)

// Service computes the insights of the active project's AGCs.
type Service struct {
	client  *ent.Client
	dialect string
	clock.Settable
}

// NewService returns a Service over client, whose driver speaks dialectName.
func NewService(client *ent.Client, dialectName string) *Service {
	return &Service{client: client, dialect: dialectName}
}

func (s *Service) db(ctx context.Context) *ent.Client { return txn.Client(ctx, s.client) }

func (s *Service) postgres() bool { return s.dialect == dialect.Postgres }

// scope is an AGC of the active project.
type scope struct {
	tenant, project, agc uuid.UUID
}

// agcOf checks that AGC id is of the active project (404 otherwise).
func (s *Service) agcOf(ctx context.Context, id uuid.UUID) (scope, error) {
	tid, pid, err := tenancy.Project(ctx)
	if err != nil {
		return scope{}, err
	}
	ok, err := s.db(ctx).ActivityGenerationConfig.Query().Where(activitygenerationconfig.ID(id),
		activitygenerationconfig.TenantID(tid), activitygenerationconfig.ProjectID(pid)).Exist(ctx)
	if err != nil {
		return scope{}, err
	}
	if !ok {
		return scope{}, apperr.NotFound(fmt.Sprintf(agc.MsgNotFoundFmt, id))
	}
	return scope{tenant: tid, project: pid, agc: id}, nil
}

// Period is [From, To): To is now when nil, From DefaultDays before To when
// nil.
type Period struct {
	From, To *time.Time
}

// span checks p (one 400 listing every broken rule) and returns its bounds.
func (s *Service) span(p Period) (from, to time.Time, err error) {
	to = clock.Stored(s.Now())
	if p.To != nil {
		to = clock.Stored(*p.To)
	}
	from = to.AddDate(0, 0, -DefaultDays)
	if p.From != nil {
		from = clock.Stored(*p.From)
	}
	var probs apperr.Problems
	probs.Rule(!to.After(from), MsgFromTo)
	probs.Rule(to.Sub(from) > MaxDays*24*time.Hour, MsgPeriodDays)
	return from, to, probs.Err()
}

// periodOf checks p, then that AGC id is of the active project (the
// period's 400 comes first), and returns the AGC's scope and the period's
// bounds.
func (s *Service) periodOf(ctx context.Context, id uuid.UUID, p Period) (sc scope, from, to time.Time, err error) {
	if from, to, err = s.span(p); err != nil {
		return sc, from, to, err
	}
	sc, err = s.agcOf(ctx, id)
	return sc, from, to, err
}

// query runs a statement written with ? placeholders, numbered for
// PostgreSQL, and scans each row with scan.
func (s *Service) query(ctx context.Context, q string, args []any, scan func(rows interface{ Scan(...any) error }) error) error {
	if s.postgres() {
		for i := 1; strings.Contains(q, "?"); i++ {
			q = strings.Replace(q, "?", "$"+strconv.Itoa(i), 1)
		}
	}
	rs, err := s.db(ctx).QueryContext(ctx, q, args...)
	if err != nil {
		return fmt.Errorf("insights: %w", err)
	}
	defer rs.Close()
	for rs.Next() {
		if err := scan(rs); err != nil {
			return fmt.Errorf("insights: %w", err)
		}
	}
	return rs.Err()
}

// zone is the tenant's time zone (its days).
func (s *Service) zone(ctx context.Context, tenantID uuid.UUID) (*time.Location, error) {
	st, err := cutoff.ForTenant(ctx, s.db(ctx), tenantID)
	if err != nil {
		return nil, err
	}
	return st.Location, nil
}

// stateOrder sorts states by stage then code.
func stateOrder(a, b State) int {
	if c := strings.Compare(a.Stage, b.Stage); c != 0 {
		return c
	}
	return strings.Compare(a.Code, b.Code)
}

// State is a lifecycle state.
type State struct {
	Stage string `json:"stage"`
	Code  string `json:"code"`
}

// sortedStates returns the keys of m in stateOrder.
func sortedStates[V any](m map[State]V) []State {
	out := make([]State, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.SortFunc(out, stateOrder)
	return out
}
