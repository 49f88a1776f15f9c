package rest

import (
	"net/http"
	"slices"

	"github.com/google/uuid"

	"github.com/reten-io/reten/internal/agc"
	"github.com/reten-io/reten/internal/patch"
)

// The members of the AGC bodies: the three pillars and their children (a
// child may carry its id in a lifecycle replacement).
var (
	pillarCommon       = []string{"name", "description", "source_table", "source_columns", "date_column"}
	activationFields   = append(slices.Clone(pillarCommon), "aggregation_method", "moments")
	engagementFields   = append(slices.Clone(pillarCommon), "engagement_window_days", "min_lifetime_actions_for_engaged", "counting_method", "levels")
	resurrectionFields = append(slices.Clone(pillarCommon), "thresholds")
	momentFields       = []string{"status_code", "user_retention_status_config_id", "min_actions", "window_days", "time_window", "priority"}
	levelFields        = []string{"status_code", "user_retention_status_config_id", "label", "min_threshold", "max_threshold", "order"}
	thresholdFields    = []string{"status_code", "user_retention_status_config_id", "label", "threshold_days", "order"}
)

// childMembers adds "id" to the allowed child members (lifecycle edits).
func childMembers(fields []string, ok bool) []string {
	if ok {
		return append(slices.Clone(fields), "id")
	}
	return fields
}

// The AGC bodies read their ids as strings first ("must be a string", then
// "must be a UUID") and their integers as literals; a required integer that
// is missing or null says it must be an integer number.

func agcUUID(b *body, name string) patch.Patch[uuid.UUID] { return b.uuidOf(name, b.str(name)) }

// childRef reads the members every pillar child has, in order.
func childRef(c *body) (id *uuid.UUID, statusCode string, statusConfigID uuid.UUID) {
	return agcUUID(c, "id").Ptr(), c.str("status_code").OrZero(), agcUUID(c, "user_retention_status_config_id").OrZero()
}

func reqInt(b *body, name string) int {
	b.require(name, kindInt)
	return b.intLiteral(name).OrZero()
}

// childInputs reads an array of child objects with read: all of them are
// opened (their unknown members recorded) before any is read. nil when
// missing or null.
func childInputs[T any](b *body, name string, allowed []string, read func(c *body) T) *[]T {
	raws, ok := b.array(name).Get()
	if !ok {
		return nil
	}
	opened := make([]*body, 0, len(raws))
	for i, raw := range raws {
		if c := b.elem(name, i, raw, allowed...); c != nil {
			opened = append(opened, c)
		}
	}
	out := make([]T, 0, len(opened))
	for _, c := range opened {
		out = append(out, read(c))
	}
	return &out
}

func pillarFields(o *body) agc.PillarFields {
	return agc.PillarFields{Name: o.str("name").Ptr(), Description: o.str("description").Ptr(), SourceTable: o.str("source_table").Ptr(),
		SourceColumns: o.strs("source_columns").NullAs([]string{}).Ptr(), DateColumn: o.str("date_column").Ptr()}
}

// activationOf reads the activation pillar; ids says whether children may carry ids.
func activationOf(parent *body, ids bool) *agc.ActivationInput {
	o := parent.child("activation", activationFields...)
	if o == nil {
		return nil
	}
	in := &agc.ActivationInput{PillarFields: pillarFields(o), AggregationMethod: o.str("aggregation_method").Ptr()}
	in.Moments = childInputs(o, "moments", childMembers(momentFields, ids), func(c *body) agc.MomentInput {
		var m agc.MomentInput
		m.ID, m.StatusCode, m.UserRetentionStatusConfigID = childRef(c)
		m.MinActions, m.WindowDays = c.intLiteral("min_actions").Ptr(), c.intLiteral("window_days").Ptr()
		m.TimeWindow, m.Priority = c.intLiteral("time_window").Ptr(), reqInt(c, "priority")
		return m
	})
	return in
}

func engagementOf(parent *body, ids bool) *agc.EngagementInput {
	o := parent.child("engagement", engagementFields...)
	if o == nil {
		return nil
	}
	in := &agc.EngagementInput{PillarFields: pillarFields(o), EngagementWindowDays: o.intLiteral("engagement_window_days").Ptr(),
		MinLifetimeActionsForEngaged: o.intLiteral("min_lifetime_actions_for_engaged").Ptr(), CountingMethod: o.str("counting_method").Ptr()}
	in.Levels = childInputs(o, "levels", childMembers(levelFields, ids), func(c *body) agc.LevelInput {
		var l agc.LevelInput
		l.ID, l.StatusCode, l.UserRetentionStatusConfigID = childRef(c)
		l.Label, l.MinThreshold = c.str("label").OrZero(), reqInt(c, "min_threshold")
		l.MaxThreshold, l.Order = c.intLiteral("max_threshold").Ptr(), reqInt(c, "order")
		return l
	})
	return in
}

func resurrectionOf(parent *body, ids bool) *agc.ResurrectionInput {
	o := parent.child("resurrection", resurrectionFields...)
	if o == nil {
		return nil
	}
	in := &agc.ResurrectionInput{PillarFields: pillarFields(o)}
	in.Thresholds = childInputs(o, "thresholds", childMembers(thresholdFields, ids), func(c *body) agc.ThresholdInput {
		var t agc.ThresholdInput
		t.ID, t.StatusCode, t.UserRetentionStatusConfigID = childRef(c)
		t.Label, t.ThresholdDays, t.Order = c.str("label").OrZero(), reqInt(c, "threshold_days"), reqInt(c, "order")
		return t
	})
	return in
}

var agcBody = bodyOf(func(b *body) agc.CreateInput {
	return agc.CreateInput{Name: b.str("name").OrZero(), Description: b.str("description").Ptr(), AudienceID: agcUUID(b, "audience_id").Ptr(),
		Activation: activationOf(b, false), Engagement: engagementOf(b, false), Resurrection: resurrectionOf(b, false)}
}, "name", "description", "audience_id", "activation", "engagement", "resurrection")

// agcPatchBody is the metadata patch: name and audience_id as sent (the
// service decides what their null means).
var agcPatchBody = bodyOf(func(b *body) agc.UpdateInput {
	return agc.UpdateInput{Name: b.str("name"), Description: b.str("description").Ptr(),
		Audience: agcUUID(b, "audience_id")}
}, "name", "description", "audience_id")

var lifecycleBody = bodyOf(func(b *body) agc.LifecycleInput {
	return agc.LifecycleInput{Activation: activationOf(b, true), Engagement: engagementOf(b, true), Resurrection: resurrectionOf(b, true)}
}, "activation", "engagement", "resurrection")

// replaceLifecycle answers 200 without a body.
func (a *api) replaceLifecycle(w http.ResponseWriter, r *http.Request) error {
	id, err := pathUUID(r, "id")
	if err != nil {
		return err
	}
	in, err := lifecycleBody(r)
	if err != nil {
		return err
	}
	if err := a.AGCs.ReplaceLifecycle(r.Context(), id, in); err != nil {
		return err
	}
	w.WriteHeader(http.StatusOK)
	return nil
}
