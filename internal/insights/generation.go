package insights

import (
	"context"
	"slices"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent/activity"
	gd "github.com/reten-io/reten/ent/generationdecision"
	"github.com/reten-io/reten/ent/generationrule"
	act "github.com/reten-io/reten/internal/activity"
	"github.com/reten-io/reten/internal/viewer"
)

// RuleKindCount counts a rule's decisions of one kind.
type RuleKindCount struct {
	RuleID   uuid.UUID `json:"ruleId"`
	RuleName string    `json:"ruleName"`
	Kind     string    `json:"kind"`
	Count    int       `json:"count"`
}

// Decisions counts the AGC's generation decisions (those decided at or
// after since, when given) per rule and kind, by rule name then kind: one
// statement, and one more for the rules' names (those in the trash too:
// their decisions are history).
func (s *Service) Decisions(ctx context.Context, agcID uuid.UUID, since *time.Time) ([]RuleKindCount, error) {
	sc, err := s.agcOf(ctx, agcID)
	if err != nil {
		return nil, err
	}
	q := `SELECT rule_id, kind, count(*) FROM ` + gd.Table + ` WHERE tenant_id = ? AND project_id = ? AND activity_generation_config_id = ?`
	args := []any{sc.tenant, sc.project, sc.agc}
	if since != nil {
		q += ` AND decided_at >= ?`
		args = append(args, *since)
	}
	out := []RuleKindCount{}
	err = s.query(ctx, q+` GROUP BY rule_id, kind`, args, func(rs interface{ Scan(...any) error }) error {
		var c RuleKindCount
		err := rs.Scan(&c.RuleID, &c.Kind, &c.Count)
		out = append(out, c)
		return err
	})
	if err != nil || len(out) == 0 {
		return out, err
	}
	ids := make([]uuid.UUID, 0, len(out))
	for _, c := range out {
		ids = append(ids, c.RuleID)
	}
	rules, err := s.db(ctx).GenerationRule.Query().Where(generationrule.TenantID(sc.tenant), generationrule.IDIn(ids...)).
		Select(generationrule.FieldName).All(viewer.WithArchived(ctx))
	if err != nil {
		return nil, err
	}
	names := make(map[uuid.UUID]string, len(rules))
	for _, r := range rules {
		names[r.ID] = r.Name
	}
	for i := range out {
		out[i].RuleName = names[out[i].RuleID]
	}
	slices.SortFunc(out, func(a, b RuleKindCount) int {
		if c := strings.Compare(a.RuleName, b.RuleName); c != 0 {
			return c
		}
		if c := strings.Compare(a.RuleID.String(), b.RuleID.String()); c != 0 {
			return c
		}
		return slices.Index(kinds, a.Kind) - slices.Index(kinds, b.Kind)
	})
	return out, nil
}

// kinds are the decision kinds in their documented order.
var kinds = []string{gd.KindGENERATED.String(), gd.KindHELD_OUT.String(), gd.KindCAPPED.String(), gd.KindSUPPRESSED.String(),
	gd.KindEXPIRED_RULE.String()}

// StatusCount counts activities in one status.
type StatusCount struct {
	Status string `json:"status"`
	Count  int    `json:"count"`
}

// Activities counts the activities the AGC's rules created (GENERATED
// decisions at or after since, when given) by their current status, in the
// SPEC's order of the statuses: one statement.
func (s *Service) Activities(ctx context.Context, agcID uuid.UUID, since *time.Time) ([]StatusCount, error) {
	sc, err := s.agcOf(ctx, agcID)
	if err != nil {
		return nil, err
	}
	q := `SELECT a.status, count(*) FROM ` + gd.Table + ` d JOIN ` + activity.Table + ` a ON a.id = d.activity_id AND a.tenant_id = d.tenant_id
WHERE d.tenant_id = ? AND d.project_id = ? AND d.activity_generation_config_id = ? AND d.kind = 'GENERATED'`
	args := []any{sc.tenant, sc.project, sc.agc}
	if since != nil {
		q += ` AND d.decided_at >= ?`
		args = append(args, *since)
	}
	out := []StatusCount{}
	err = s.query(ctx, q+` GROUP BY a.status`, args, func(rs interface{ Scan(...any) error }) error {
		var c StatusCount
		err := rs.Scan(&c.Status, &c.Count)
		out = append(out, c)
		return err
	})
	slices.SortFunc(out, func(a, b StatusCount) int {
		return slices.Index(act.Statuses, activity.Status(a.Status)) - slices.Index(act.Statuses, activity.Status(b.Status))
	})
	return out, err
}
