package app_test

import (
	"maps"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent/activityreasonconfig"
	"github.com/reten-io/reten/ent/generationrule"
	"github.com/reten-io/reten/ent/trashrecord"
	"github.com/reten-io/reten/internal/viewer"
)

// generationProbes: activity generation rules (project-scoped, like their AGC).
var generationProbes = map[string]probe{
	"POST /activity-generation-configs/{id}/generation-rules": {path: func(f *fixture) string {
		return "/activity-generation-configs/" + f.agcFor("rules", "draft").String() + "/generation-rules"
	}, body: func() any { return map[string]any{"name": unique("R")} }, crossCode: 404, crossMsg: agcMissing("rules")},
	"GET /activity-generation-configs/{id}/generation-rules": {path: func(f *fixture) string {
		return "/activity-generation-configs/" + f.agcFor("rules", "draft").String() + "/generation-rules"
	}, crossCode: 404, crossMsg: agcMissing("rules")},
	"GET /generation-rules/{ruleId}":    {path: func(f *fixture) string { return "/generation-rules/" + f.ruleA().String() }, crossCode: 404, crossMsg: "Generation rule not found"},
	"PATCH /generation-rules/{ruleId}":  {path: func(f *fixture) string { return "/generation-rules/" + f.ruleA().String() }, body: func() any { return map[string]any{"priority": 5} }, crossCode: 404, crossMsg: "Generation rule not found"},
	"DELETE /generation-rules/{ruleId}": {path: func(f *fixture) string { return "/generation-rules/" + f.ruleA().String() }, crossCode: 404, crossMsg: "Generation rule not found"},
	"Query.generationRules": {query: `query($id: ID!) { generationRules(activityGenerationConfigID: $id) { totalCount } }`,
		vars: func(f *fixture) map[string]any { return map[string]any{"id": f.agcFor("rules", "draft")} }, crossCode: 404, crossMsg: agcMissing("rules")},
	"Mutation.createGenerationRule": {query: `mutation($id: ID!, $n: String!) { createGenerationRule(activityGenerationConfigID: $id, input: {name: $n, trigger: ENTER,
		stage: ACTIVATION, statusCode: "probe", type: TASK, channel: SALESMAN, reasonCode: "probe", titleTemplate: "x"}) { id } }`,
		vars: func(f *fixture) map[string]any {
			f.ruleRefs()
			return map[string]any{"id": f.agcFor("rules", "draft"), "n": unique("R")}
		}, crossCode: 404, crossMsg: agcMissing("rules")},
	"Mutation.updateGenerationRule": {query: `mutation($id: ID!) { updateGenerationRule(id: $id, input: {priority: 5}) { id } }`,
		vars: func(f *fixture) map[string]any { return map[string]any{"id": f.ruleA()} }, crossCode: 404, crossMsg: "Generation rule not found"},
	"Mutation.deleteGenerationRule": {query: `mutation($id: ID!) { deleteGenerationRule(id: $id) }`,
		vars: func(f *fixture) map[string]any { return map[string]any{"id": f.ruleA()} }, crossCode: 404, crossMsg: "Generation rule not found"},
	"GET /generation-policy": {},
	"PUT /generation-policy": {body: func() any {
		return map[string]any{"max_per_commerce": 3, "window_days": 7, "min_gap_days": 1, "control_percent": 0}
	}},
	"GET /activity-generation-configs/{id}/generation-settings": {path: func(f *fixture) string {
		return "/activity-generation-configs/" + f.agcFor("rules", "draft").String() + "/generation-settings"
	}, crossCode: 404, crossMsg: agcMissing("rules")},
	"PUT /activity-generation-configs/{id}/generation-settings": {path: func(f *fixture) string {
		return "/activity-generation-configs/" + f.agcFor("rules", "draft").String() + "/generation-settings"
	}, body: func() any { return map[string]any{"holdout_percent": 0} }, crossCode: 404, crossMsg: agcMissing("rules")},
	"Query.generationPolicy":          {query: `{ generationPolicy { maxPerCommerce } }`},
	"Mutation.updateGenerationPolicy": {query: `mutation { updateGenerationPolicy(input: {maxPerCommerce: 3, windowDays: 7, minGapDays: 1, controlPercent: 0}) { maxPerCommerce } }`},
	"Query.generationSettings": {query: `query($id: ID!) { generationSettings(activityGenerationConfigID: $id) { holdoutPercent } }`,
		vars: func(f *fixture) map[string]any { return map[string]any{"id": f.agcFor("rules", "draft")} }, crossCode: 404, crossMsg: agcMissing("rules")},
	"Mutation.updateGenerationSettings": {query: `mutation($id: ID!) { updateGenerationSettings(activityGenerationConfigID: $id, input: {holdoutPercent: 0}) { holdoutPercent } }`,
		vars: func(f *fixture) map[string]any { return map[string]any{"id": f.agcFor("rules", "draft")} }, crossCode: 404, crossMsg: agcMissing("rules")},
	// The decision trail: another tenant's AGC or commerce is not found.
	"GET /activity-generation-configs/{id}/generation-decisions": {path: func(f *fixture) string {
		return "/activity-generation-configs/" + f.agcFor("rules", "draft").String() + "/generation-decisions"
	}, crossCode: 404, crossMsg: agcMissing("rules")},
	"GET /commerces/{id}/generation-decisions": {path: func(f *fixture) string { return "/commerces/" + f.commerceA() + "/generation-decisions" },
		crossCode: 404, crossMsg: "Commerce not found"},
	"POST /activity-generation-configs/{id}/generation-preview": {path: func(f *fixture) string {
		return "/activity-generation-configs/" + f.agcFor("rules", "draft").String() + "/generation-preview"
	}, crossCode: 404, crossMsg: agcMissing("rules")},
	"Query.generationPreview": {query: `query($id: ID!) { generationPreview(activityGenerationConfigID: $id) { evaluated } }`,
		vars: func(f *fixture) map[string]any { return map[string]any{"id": f.agcFor("rules", "draft")} }, crossCode: 404, crossMsg: agcMissing("rules")},
	"Query.generationDecisions": {query: `query($id: ID!) { generationDecisions(activityGenerationConfigID: $id) { totalCount } }`,
		vars: func(f *fixture) map[string]any { return map[string]any{"id": f.agcFor("rules", "draft")} }, crossCode: 404, crossMsg: agcMissing("rules")},
}

func init() { maps.Copy(probes, generationProbes) }

// ruleA returns tenant A's live probe rule: created on first use, brought
// back from the trash on the next (an allowed delete before may have moved it).
func (f *fixture) ruleA() uuid.UUID {
	ctx, c, id := viewer.WithArchived(f.aCtx()), f.env.App.DB.Client, agcProbeID("rules/rule")
	if c.GenerationRule.Query().Where(generationrule.ID(id)).ExistX(ctx) {
		c.GenerationRule.UpdateOneID(id).ClearArchivedAt().ExecX(ctx)
		c.TrashRecord.Delete().Where(trashrecord.RecordID(id)).ExecX(ctx)
		return id
	}
	c.GenerationRule.Create().SetID(id).SetTenantID(f.a.TenantID).SetProjectID(f.a.ProjectID).
		SetActivityGenerationConfigID(f.agcFor("rules", "draft")).SetName("Probe").SetTrigger("ENTER").SetStage("ACTIVATION").
		SetStatusCode("probe").SetType("TASK").SetChannel("SALESMAN").SetReasonCode("probe").SetTitleTemplate("x").SaveX(ctx)
	f.ruleRefs()
	return id
}

// ruleRefs makes the probe rule's references valid in tenant A: the active
// status config "probe" (ACTIVATION) and the activity reason config "probe".
func (f *fixture) ruleRefs() {
	f.snapA()
	ctx, c := f.aCtx(), f.env.App.DB.Client
	if !c.ActivityReasonConfig.Query().Where(activityreasonconfig.Code("probe")).ExistX(ctx) {
		c.ActivityReasonConfig.Create().SetTenantID(f.a.TenantID).SetCode("probe").SetLabel("Probe").SaveX(ctx)
	}
}
