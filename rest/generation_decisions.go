package rest

import (
	"context"
	"net/http"
	"time"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/internal/fields"
	"github.com/reten-io/reten/internal/generation"
	"github.com/reten-io/reten/internal/generator"
	"github.com/reten-io/reten/internal/paging"
)

// The generation decisions of an AGC and of a commerce (docs/generation.md):
// {data, meta}, camelCase, newest first.

type decisionDTO struct {
	ID                         uuid.UUID  `json:"id"`
	ActivityGenerationConfigID uuid.UUID  `json:"activityGenerationConfigId"`
	RuleID                     uuid.UUID  `json:"ruleId"`
	CommerceID                 uuid.UUID  `json:"commerceId"`
	Trigger                    string     `json:"trigger"`
	Stage                      string     `json:"stage"`
	StatusCode                 string     `json:"statusCode"`
	EnteredAt                  time.Time  `json:"enteredAt"`
	Kind                       string     `json:"kind"`
	Reason                     *string    `json:"reason"`
	Detail                     string     `json:"detail"`
	ActivityID                 *uuid.UUID `json:"activityId"`
	TransitionID               *uuid.UUID `json:"transitionId"`
	DecidedAt                  time.Time  `json:"decidedAt"`
}

func presentDecision(d *ent.GenerationDecision) decisionDTO {
	return decisionDTO{ID: d.ID, ActivityGenerationConfigID: d.ActivityGenerationConfigID, RuleID: d.RuleID, CommerceID: d.CommerceID,
		Trigger: d.Trigger.String(), Stage: d.Stage.String(), StatusCode: d.StatusCode, EnteredAt: d.EnteredAt.UTC(),
		Kind: d.Kind.String(), Reason: fields.EnumText(d.Reason), Detail: d.Detail, ActivityID: d.ActivityID,
		TransitionID: d.TransitionID, DecidedAt: d.DecidedAt.UTC()}
}

// decisionPage answers a decision list under the path's {id} (an AGC or a
// commerce) as {data, meta}. The parameters' type problems travel in the
// filter: the service adds the kind rule to them (one 400 listing all).
// commerce_id is a parameter of the AGC's list only.
func decisionPage(withCommerce bool,
	list func(context.Context, uuid.UUID, generation.DecisionFilter, paging.Page) (*paging.List[*ent.GenerationDecision], error)) handler {
	return func(w http.ResponseWriter, r *http.Request) error {
		id, err := pathUUID(r, "id")
		if err != nil {
			return err
		}
		q := queryOf(r)
		p := q.page()
		var f generation.DecisionFilter
		if withCommerce {
			f.CommerceID = queryUUID(q, "commerce_id")
		}
		f.RuleID = queryUUID(q, "rule_id")
		f.Kind = q.text("kind")
		f.Since = queryInstant(q, "since")
		f.Problems = q.probs
		return writer(w, http.StatusOK, func(l *paging.List[*ent.GenerationDecision]) pageOf[decisionDTO] {
			return presentPage(l, presentDecision)
		})(list(listContext(r, p), id, f, p))
	}
}

// queryUUID reads a UUID parameter; nil when not sent ("<name> must be a
// UUID" otherwise).
func queryUUID(q *query, name string) *uuid.UUID {
	v := q.Get(name)
	if v == "" {
		return nil
	}
	id, err := uuid.Parse(v)
	if err != nil {
		q.fail(name, name+" must be "+kindUUID)
		return nil
	}
	return &id
}

// queryInstant reads an RFC 3339 instant parameter; nil when not sent
// ("<name> must be a valid ISO 8601 date string" otherwise).
func queryInstant(q *query, name string) *time.Time {
	v := q.Get(name)
	if v == "" {
		return nil
	}
	t, err := time.Parse(time.RFC3339Nano, v)
	if err != nil {
		q.fail(name, name+" must be "+kindInstant)
		return nil
	}
	return &t
}

// The preview of an AGC's rules (POST .../generation-preview): what they
// would decide now, written nowhere.

type previewDTO struct {
	ActivityGenerationConfigID uuid.UUID        `json:"activityGenerationConfigId"`
	At                         time.Time        `json:"at"`
	Evaluated                  int              `json:"evaluated"`
	Truncated                  bool             `json:"truncated"`
	Rules                      []previewRuleDTO `json:"rules"`
}

type previewRuleDTO struct {
	RuleID     uuid.UUID            `json:"ruleId"`
	Name       string               `json:"name"`
	Trigger    string               `json:"trigger"`
	Stage      string               `json:"stage"`
	StatusCode string               `json:"statusCode"`
	Priority   int                  `json:"priority"`
	Counts     map[string]int       `json:"counts"`
	Sample     []previewDecisionDTO `json:"sample"`
}

type previewDecisionDTO struct {
	CommerceID   uuid.UUID `json:"commerceId"`
	CommerceName string    `json:"commerceName"`
	Kind         string    `json:"kind"`
	Reason       *string   `json:"reason"`
	Detail       string    `json:"detail"`
}

func presentPreview(p *generator.Preview) previewDTO {
	out := previewDTO{ActivityGenerationConfigID: p.ActivityGenerationConfigID, At: p.At.UTC(), Evaluated: p.Evaluated, Truncated: p.Truncated,
		Rules: make([]previewRuleDTO, len(p.Rules))}
	for i, r := range p.Rules {
		counts := map[string]int{}
		for _, k := range generator.Kinds {
			counts[k.String()] = r.Counts[k]
		}
		sample := make([]previewDecisionDTO, len(r.Sample))
		for j, d := range r.Sample {
			sample[j] = previewDecisionDTO{CommerceID: d.CommerceID, CommerceName: d.CommerceName, Kind: d.Kind.String(),
				Reason: fields.EnumText(d.Reason), Detail: d.Detail}
		}
		out.Rules[i] = previewRuleDTO{RuleID: r.Rule.ID, Name: r.Rule.Name, Trigger: r.Rule.Trigger.String(), Stage: r.Rule.Stage.String(),
			StatusCode: r.Rule.StatusCode, Priority: r.Rule.Priority, Counts: counts, Sample: sample}
	}
	return out
}
