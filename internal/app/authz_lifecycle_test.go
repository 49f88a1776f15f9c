package app_test

import (
	"context"
	"maps"
	"time"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent/activationconfig"
	"github.com/reten-io/reten/ent/activitygenerationconfig"
	"github.com/reten-io/reten/ent/commerce"
	"github.com/reten-io/reten/ent/engagementconfig"
	"github.com/reten-io/reten/ent/resurrectionconfig"
	"github.com/reten-io/reten/ent/trashrecord"
	"github.com/reten-io/reten/internal/lifecycle"
	"github.com/reten-io/reten/internal/viewer"
)

// lifecycleProbes: the lifecycle catalogs (every probe on a config gets a
// fresh tenant-A config), activity generation configs with their pillars,
// and commerce lifecycle snapshots.
var lifecycleProbes = map[string]probe{
	"GET /activity-reason-configs":          {},
	"GET /activity-reason-configs/defaults": {},
	"POST /activity-reason-configs":         {body: func() any { return map[string]any{"code": unique("r"), "label": "Razón"} }},
	"POST /activity-reason-configs/bulk": {body: func() any {
		return map[string]any{"items": []any{map[string]any{"code": unique("r"), "label": "Razón"}}}
	}},
	"PATCH /activity-reason-configs/{id}": {path: func(f *fixture) string {
		return "/activity-reason-configs/" + f.env.App.DB.Client.ActivityReasonConfig.Create().SetTenantID(f.a.TenantID).
			SetCode(unique("r")).SetLabel("R").SaveX(f.aCtx()).ID.String()
	}, body: func() any { return map[string]any{"label": "X"} }, crossCode: 404, crossMsg: "Activity reason config not found"},
	"DELETE /activity-reason-configs/{id}": {path: func(f *fixture) string {
		return "/activity-reason-configs/" + f.env.App.DB.Client.ActivityReasonConfig.Create().SetTenantID(f.a.TenantID).
			SetCode(unique("r")).SetLabel("R").SaveX(f.aCtx()).ID.String()
	}, crossCode: 404, crossMsg: "Activity reason config not found"},
	"GET /retention-status-configs": {},
	"POST /retention-status-configs": {body: func() any {
		return map[string]any{"code": unique("s"), "label": "Activo", "stage": "ENGAGEMENT"}
	}},
	"GET /retention-status-configs/{id}": {path: func(f *fixture) string {
		return "/retention-status-configs/" + f.env.App.DB.Client.RetentionStatusConfig.Create().SetTenantID(f.a.TenantID).
			SetCode(unique("s")).SetLabel("S").SetStage("ACTIVATION").SaveX(f.aCtx()).ID.String()
	}, crossCode: 404, crossMsg: "Retention status config not found"},
	"PATCH /retention-status-configs/{id}": {path: func(f *fixture) string {
		return "/retention-status-configs/" + f.env.App.DB.Client.RetentionStatusConfig.Create().SetTenantID(f.a.TenantID).
			SetCode(unique("s")).SetLabel("S").SetStage("ACTIVATION").SaveX(f.aCtx()).ID.String()
	}, body: func() any { return map[string]any{"label": "X"} }, crossCode: 404, crossMsg: "Retention status config not found"},
	"DELETE /retention-status-configs/{id}": {path: func(f *fixture) string {
		return "/retention-status-configs/" + f.env.App.DB.Client.RetentionStatusConfig.Create().SetTenantID(f.a.TenantID).
			SetCode(unique("s")).SetLabel("S").SetStage("ACTIVATION").SaveX(f.aCtx()).ID.String()
	}, crossCode: 404, crossMsg: "Retention status config not found"},
	"Query.activityReasonConfigs":  {query: `{ activityReasonConfigs { totalCount } }`},
	"Query.activityReasonDefaults": {query: `{ activityReasonDefaults { code } }`},
	"Query.retentionStatusConfigs": {query: `{ retentionStatusConfigs { totalCount } }`},
	"Mutation.createActivityReasonConfig": {query: `mutation($c: String!) { createActivityReasonConfig(input: {code: $c, label: "R"}) { id } }`,
		vars: func(*fixture) map[string]any { return map[string]any{"c": unique("r")} }},
	"Mutation.bulkCreateActivityReasonConfigs": {query: `mutation($c: String!) { bulkCreateActivityReasonConfigs(items: [{code: $c, label: "R"}]) { id } }`,
		vars: func(*fixture) map[string]any { return map[string]any{"c": unique("r")} }},
	"Mutation.updateActivityReasonConfig": {query: `mutation($id: ID!) { updateActivityReasonConfig(id: $id, input: {label: "X"}) { id } }`,
		vars: func(f *fixture) map[string]any {
			return map[string]any{"id": f.env.App.DB.Client.ActivityReasonConfig.Create().SetTenantID(f.a.TenantID).
				SetCode(unique("r")).SetLabel("R").SaveX(f.aCtx()).ID}
		}, crossCode: 404, crossMsg: "Activity reason config not found"},
	"Mutation.deactivateActivityReasonConfig": {query: `mutation($id: ID!) { deactivateActivityReasonConfig(id: $id) { id } }`,
		vars: func(f *fixture) map[string]any {
			return map[string]any{"id": f.env.App.DB.Client.ActivityReasonConfig.Create().SetTenantID(f.a.TenantID).
				SetCode(unique("r")).SetLabel("R").SaveX(f.aCtx()).ID}
		}, crossCode: 404, crossMsg: "Activity reason config not found"},
	"Mutation.createRetentionStatusConfig": {query: `mutation($c: String!) { createRetentionStatusConfig(input: {code: $c, label: "S", stage: ACTIVATION}) { id } }`,
		vars: func(*fixture) map[string]any { return map[string]any{"c": unique("s")} }},
	"Mutation.updateRetentionStatusConfig": {query: `mutation($id: ID!) { updateRetentionStatusConfig(id: $id, input: {label: "X"}) { id } }`,
		vars: func(f *fixture) map[string]any {
			return map[string]any{"id": f.env.App.DB.Client.RetentionStatusConfig.Create().SetTenantID(f.a.TenantID).
				SetCode(unique("s")).SetLabel("S").SetStage("ACTIVATION").SaveX(f.aCtx()).ID}
		}, crossCode: 404, crossMsg: "Retention status config not found"},
	"Mutation.deactivateRetentionStatusConfig": {query: `mutation($id: ID!) { deactivateRetentionStatusConfig(id: $id) { id } }`,
		vars: func(f *fixture) map[string]any {
			return map[string]any{"id": f.env.App.DB.Client.RetentionStatusConfig.Create().SetTenantID(f.a.TenantID).
				SetCode(unique("s")).SetLabel("S").SetStage("ACTIVATION").SaveX(f.aCtx()).ID}
		}, crossCode: 404, crossMsg: "Retention status config not found"},

	// Activity generation configs and lifecycle pillars (project-scoped; each
	// probe on an AGC gets its own tenant-A AGC with a fixed id, see agcFor).
	"GET /activity-generation-configs": {},
	"POST /activity-generation-configs": {body: func() any {
		pillar := func(children string, extra map[string]any) map[string]any {
			m := map[string]any{"name": "P", "source_table": "orders", "date_column": "d", children: []any{}}
			for k, v := range extra {
				m[k] = v
			}
			return m
		}
		return map[string]any{"name": unique("AGC"),
			"activation":   pillar("moments", map[string]any{"aggregation_method": "count"}),
			"engagement":   pillar("levels", map[string]any{"engagement_window_days": 30, "min_lifetime_actions_for_engaged": 1, "counting_method": "count"}),
			"resurrection": pillar("thresholds", nil)}
	}},
	"GET /activity-generation-configs/{id}": {path: func(f *fixture) string { return "/activity-generation-configs/" + f.agcFor("get", "draft").String() },
		crossCode: 404, crossMsg: agcMissing("get")},
	"PATCH /activity-generation-configs/{id}": {path: func(f *fixture) string { return "/activity-generation-configs/" + f.agcFor("patch", "draft").String() },
		body: func() any { return map[string]any{"description": "x"} }, crossCode: 404, crossMsg: agcMissing("patch")},
	"DELETE /activity-generation-configs/{id}": {path: func(f *fixture) string { return "/activity-generation-configs/" + f.agcFor("delete", "draft").String() },
		crossCode: 404, crossMsg: agcMissing("delete")},
	"PUT /activity-generation-configs/{id}/lifecycle": {path: func(f *fixture) string {
		return "/activity-generation-configs/" + f.agcFor("lifecycle", "draft").String() + "/lifecycle"
	}, body: func() any { return map[string]any{"activation": map[string]any{"name": "X"}} }, crossCode: 404, crossMsg: agcMissing("lifecycle")},
	"POST /activity-generation-configs/{id}/publish": {path: func(f *fixture) string {
		return "/activity-generation-configs/" + f.agcFor("publish", "draft").String() + "/publish"
	}, crossCode: 404, crossMsg: agcMissing("publish")},
	"POST /activity-generation-configs/{id}/pause": {path: func(f *fixture) string {
		return "/activity-generation-configs/" + f.agcFor("pause", "active").String() + "/pause"
	}, crossCode: 404, crossMsg: agcMissing("pause")},
	"GET /activity-generation-configs/{id}/lifecycle-sql": {path: func(f *fixture) string {
		return "/activity-generation-configs/" + f.engineAGC().String() + "/lifecycle-sql"
	}, crossCode: 404, crossMsg: agcMissing("engine")},
	"Query.lifecycleSQL": {query: `query($id: ID!) { lifecycleSQL(activityGenerationConfigID: $id) { dialect query } }`,
		vars: func(f *fixture) map[string]any { return map[string]any{"id": f.engineAGC()} }, crossCode: 404, crossMsg: agcMissing("engine")},
	"GET /activity-generation-configs/{id}/lifecycle-explain": {path: func(f *fixture) string {
		return "/activity-generation-configs/" + f.engineAGC().String() + "/lifecycle-explain?commerce=" + f.snapA().String()
	}, crossCode: 404, crossMsg: agcMissing("engine")},
	"Query.lifecycleExplain": {query: `query($id: ID!, $c: String!) { lifecycleExplain(activityGenerationConfigID: $id, commerce: $c) { rule } }`,
		vars: func(f *fixture) map[string]any { return map[string]any{"id": f.engineAGC(), "c": f.snapA().String()} }, crossCode: 404, crossMsg: agcMissing("engine")},
	"POST /activity-generation-configs/{id}/lifecycle-runs": {path: func(f *fixture) string {
		return "/activity-generation-configs/" + f.engineAGC().String() + "/lifecycle-runs"
	}, body: func() any { return map[string]any{"dry_run": true} }, crossCode: 404, crossMsg: agcMissing("engine")},
	"GET /activity-generation-configs/{id}/lifecycle-runs": {path: func(f *fixture) string {
		return "/activity-generation-configs/" + f.engineAGC().String() + "/lifecycle-runs"
	}, crossCode: 404, crossMsg: agcMissing("engine")},
	"GET /lifecycle-runs/{runId}": {path: func(f *fixture) string { return "/lifecycle-runs/" + f.runA().String() },
		crossCode: 404, crossMsg: "Lifecycle run not found"},
	"Query.lifecycleRuns": {query: `{ lifecycleRuns { totalCount } }`},
	"Mutation.startLifecycleRun": {query: `mutation($id: ID!) { startLifecycleRun(input: {activityGenerationConfigID: $id, dryRun: true}) { status } }`,
		vars: func(f *fixture) map[string]any { return map[string]any{"id": f.engineAGC()} }, crossCode: 404, crossMsg: agcMissing("engine")},
	"GET /activation-configs":         {},
	"GET /activation-configs/{id}":    pillarProbe("activation", "Activation config not found"),
	"GET /engagement-configs":         {},
	"GET /engagement-configs/{id}":    pillarProbe("engagement", "Engagement config not found"),
	"GET /resurrection-configs":       {},
	"GET /resurrection-configs/{id}":  pillarProbe("resurrection", "Resurrection config not found"),
	"GET /lifecycle-defaults":         {},
	"Query.activityGenerationConfigs": {query: `{ activityGenerationConfigs { totalCount edges { node { id activationConfig { id } } } } }`},
	"Query.lifecycleDefaults":         {query: `{ lifecycleDefaults { activationConfig { name } } }`},
	"Mutation.createActivityGenerationConfig": {query: `mutation($n: String!) { createActivityGenerationConfig(input: {name: $n,
		activationConfig: {name: "P", sourceTable: "transactions", dateColumn: "transacted_at", aggregationMethod: count, activationMoments: []},
		engagementConfig: {name: "P", sourceTable: "transactions", dateColumn: "transacted_at", engagementWindowDays: 30, minLifetimeActionsForEngaged: 1, countingMethod: "count", engagementLevels: []},
		resurrectionConfig: {name: "P", sourceTable: "transactions", dateColumn: "transacted_at", resurrectionThresholds: []}}) { id } }`,
		vars: func(*fixture) map[string]any { return map[string]any{"n": unique("AGC")} }},
	"Mutation.updateActivityGenerationConfig": {query: `mutation($id: ID!) { updateActivityGenerationConfig(id: $id, input: {description: "x"}) { id } }`,
		vars: func(f *fixture) map[string]any { return map[string]any{"id": f.agcFor("gql-update", "draft")} }, crossCode: 404, crossMsg: agcMissing("gql-update")},
	"Mutation.replaceActivityGenerationConfigLifecycle": {query: `mutation($id: ID!) { replaceActivityGenerationConfigLifecycle(id: $id, input: {activationConfig: {name: "X"}}) }`,
		vars: func(f *fixture) map[string]any { return map[string]any{"id": f.agcFor("gql-lifecycle", "draft")} }, crossCode: 404, crossMsg: agcMissing("gql-lifecycle")},
	"Mutation.publishActivityGenerationConfig": {query: `mutation($id: ID!) { publishActivityGenerationConfig(id: $id) { status } }`,
		vars: func(f *fixture) map[string]any { return map[string]any{"id": f.agcFor("gql-publish", "draft")} }, crossCode: 404, crossMsg: agcMissing("gql-publish")},
	"Mutation.pauseActivityGenerationConfig": {query: `mutation($id: ID!) { pauseActivityGenerationConfig(id: $id) { status } }`,
		vars: func(f *fixture) map[string]any { return map[string]any{"id": f.agcFor("gql-pause", "active")} }, crossCode: 404, crossMsg: agcMissing("gql-pause")},
	"Mutation.archiveActivityGenerationConfig": {query: `mutation($id: ID!) { archiveActivityGenerationConfig(id: $id) }`,
		vars: func(f *fixture) map[string]any { return map[string]any{"id": f.agcFor("gql-archive", "draft")} }, crossCode: 404, crossMsg: agcMissing("gql-archive")},

	// Commerce lifecycle snapshots (tenant A's commerce, AGC, status and snapshot from snapA).
	"GET /commerce-lifecycle-snapshots": {},
	"GET /commerce-lifecycle-snapshots/{commerceIdentifier}": {path: func(f *fixture) string {
		return "/commerce-lifecycle-snapshots/" + f.snapA().String()
	}, crossCode: 404, crossMsg: "Commerce not found"},
	"POST /commerce-lifecycle-snapshots/batch-lookup": {body: func() any { return map[string]any{"external_ids": []string{"SNAP-PROBE"}} }},
	"PUT /commerce-lifecycle-snapshots": {path: func(f *fixture) string { f.snapA(); return "/commerce-lifecycle-snapshots" },
		body: func() any {
			return map[string]any{"commerce_id": agcProbeID("snap/commerce"), "activity_generation_config_id": agcProbeID("snap"),
				"code": "probe", "stage": "ACTIVATION", "last_computed_at": "2030-01-01T00:00:00Z"}
		}, crossCode: 404, crossMsg: "Commerce " + agcProbeID("snap/commerce").String() + " not found"},
	"POST /commerce-lifecycle-snapshots/batch-upsert": {path: func(f *fixture) string { f.snapA(); return "/commerce-lifecycle-snapshots/batch-upsert" },
		body: func() any {
			return map[string]any{"items": []any{map[string]any{"external_id": "SNAP-PROBE", "activity_generation_config_id": agcProbeID("snap"),
				"code": "probe", "stage": "ENGAGEMENT", "last_computed_at": "2030-01-02T00:00:00Z"}}}
		}},
	// GraphQL snapshots: list answers select tenantID, so tenant B seeing A's rows fails the probe.
	"Query.commerceLifecycleSnapshots": {query: `{ commerceLifecycleSnapshots { totalCount edges { node { tenantID } } } }`,
		vars: func(f *fixture) map[string]any { f.snapA(); return nil }},
	"Query.commerceLifecycleSnapshotsByCommerce": {query: `query($c: String!) { commerceLifecycleSnapshotsByCommerce(commerce: $c) { id } }`,
		vars: func(f *fixture) map[string]any { return map[string]any{"c": f.snapA().String()} }, crossCode: 404, crossMsg: "Commerce not found"},
	"Query.commerceLifecycleSnapshotsBatchLookup": {query: `{ commerceLifecycleSnapshotsBatchLookup(externalIDs: ["SNAP-PROBE"]) { snapshots { tenantID } unresolved } }`,
		vars: func(f *fixture) map[string]any { f.snapA(); return nil }},
	"Mutation.upsertCommerceLifecycleSnapshot": {query: `mutation($c: ID!, $a: ID!) { upsertCommerceLifecycleSnapshot(input: {commerceID: $c,
		activityGenerationConfigID: $a, code: "probe", stage: ACTIVATION, lastComputedAt: "2030-01-01T00:00:00Z"}) { outcome } }`,
		vars: func(f *fixture) map[string]any {
			return map[string]any{"c": f.snapA(), "a": agcProbeID("snap")}
		}, crossCode: 404, crossMsg: "Commerce " + agcProbeID("snap/commerce").String() + " not found"},
	"Mutation.batchUpsertCommerceLifecycleSnapshots": {query: `mutation($a: ID!) { batchUpsertCommerceLifecycleSnapshots(items: [{externalID: "SNAP-PROBE",
		activityGenerationConfigID: $a, code: "probe", stage: ACTIVATION, lastComputedAt: "2030-01-02T00:00:00Z"}]) { created updated errors { messages } } }`,
		vars: func(f *fixture) map[string]any { f.snapA(); return map[string]any{"a": agcProbeID("snap")} }},
}

func init() { maps.Copy(probes, lifecycleProbes) }

// agcProbeID is the fixed id of an AGC probe record (the cross-tenant 404
// message names the AGC id, so it must be known when probes are declared).
func agcProbeID(name string) uuid.UUID {
	return uuid.NewSHA1(uuid.NameSpaceURL, []byte("agc-probe/"+name))
}

func agcMissing(name string) string {
	return "Activity generation config " + agcProbeID(name).String() + " not found"
}

// agcFor returns tenant A's live AGC of the probe name (with its three
// pillars) in the given status: created on first use, and put back in that
// status on the next (an allowed call before may have published, paused or
// archived it).
func (f *fixture) agcFor(name, status string) uuid.UUID {
	ctx, c, id := viewer.WithArchived(f.aCtx()), f.env.App.DB.Client, agcProbeID(name)
	if c.ActivityGenerationConfig.Query().Where(activitygenerationconfig.ID(id)).ExistX(ctx) {
		c.ActivityGenerationConfig.UpdateOneID(id).SetStatus(activitygenerationconfig.Status(status)).ClearArchivedAt().ExecX(ctx)
		c.ActivationConfig.Update().Where(activationconfig.ActivityGenerationConfigID(id)).ClearArchivedAt().ExecX(ctx)
		c.EngagementConfig.Update().Where(engagementconfig.ActivityGenerationConfigID(id)).ClearArchivedAt().ExecX(ctx)
		c.ResurrectionConfig.Update().Where(resurrectionconfig.ActivityGenerationConfigID(id)).ClearArchivedAt().ExecX(ctx)
		c.TrashRecord.Delete().Where(trashrecord.RecordID(id)).ExecX(ctx)
		return id
	}
	tid, pid := f.a.TenantID, f.a.ProjectID
	c.ActivityGenerationConfig.Create().SetID(id).SetTenantID(tid).SetProjectID(pid).SetName(unique("AGC")).
		SetStatus(activitygenerationconfig.Status(status)).SaveX(ctx)
	c.ActivationConfig.Create().SetID(agcProbeID(name + "/activation")).SetTenantID(tid).SetProjectID(pid).
		SetActivityGenerationConfigID(id).SetName("A").SetSourceTable("t").SetDateColumn("d").SetAggregationMethod("count").SaveX(ctx)
	c.EngagementConfig.Create().SetID(agcProbeID(name + "/engagement")).SetTenantID(tid).SetProjectID(pid).
		SetActivityGenerationConfigID(id).SetName("E").SetSourceTable("t").SetDateColumn("d").SetEngagementWindowDays(30).
		SetMinLifetimeActionsForEngaged(1).SetCountingMethod("count").SaveX(ctx)
	c.ResurrectionConfig.Create().SetID(agcProbeID(name + "/resurrection")).SetTenantID(tid).SetProjectID(pid).
		SetActivityGenerationConfigID(id).SetName("R").SetSourceTable("t").SetDateColumn("d").SaveX(ctx)
	return id
}

// engineAGC is tenant A's probe AGC whose pillars read the demo dataset's
// transactions, with that dataset configured (the lifecycle engine's lines).
func (f *fixture) engineAGC() uuid.UUID {
	f.auReady()
	id := f.agcFor("engine", "draft")
	ctx, c := f.aCtx(), f.env.App.DB.Client
	c.ActivationConfig.Update().Where(activationconfig.ActivityGenerationConfigID(id)).
		SetSourceTable("transactions").SetDateColumn("transacted_at").ExecX(ctx)
	c.EngagementConfig.Update().Where(engagementconfig.ActivityGenerationConfigID(id)).
		SetSourceTable("transactions").SetDateColumn("transacted_at").ExecX(ctx)
	c.ResurrectionConfig.Update().Where(resurrectionconfig.ActivityGenerationConfigID(id)).
		SetSourceTable("transactions").SetDateColumn("transacted_at").ExecX(ctx)
	return id
}

// runA returns a queued dry run of tenant A's engine AGC.
func (f *fixture) runA() uuid.UUID {
	return f.env.App.DB.Client.LifecycleRun.Create().SetTenantID(f.a.TenantID).SetProjectID(f.a.ProjectID).
		SetActivityGenerationConfigID(f.engineAGC()).SetAsOf(time.Now()).SetDryRun(true).
		SetCounts(lifecycle.RunCounts{}).SetByState([]lifecycle.StateCount{}).SaveX(viewer.SystemContext(context.Background())).ID
}

// snapA returns tenant A's probe commerce (external id SNAP-PROBE), creating
// it on first use with an AGC, an active status config "probe" and a snapshot.
func (f *fixture) snapA() uuid.UUID {
	ctx, c := viewer.SystemContext(context.Background()), f.env.App.DB.Client
	id, agcID, tid := agcProbeID("snap/commerce"), agcProbeID("snap"), f.a.TenantID
	if c.Commerce.Query().Where(commerce.ID(id)).ExistX(ctx) {
		return id
	}
	c.Commerce.Create().SetID(id).SetTenantID(tid).SetName("Snap").SetExternalID("SNAP-PROBE").SaveX(ctx)
	c.ActivityGenerationConfig.Create().SetID(agcID).SetTenantID(tid).SetProjectID(f.a.ProjectID).SetName(unique("AGC")).SaveX(ctx)
	c.RetentionStatusConfig.Create().SetTenantID(tid).SetCode("probe").SetLabel("Probe").SetStage("ACTIVATION").SaveX(ctx)
	at := time.Date(2029, 1, 1, 0, 0, 0, 0, time.UTC)
	c.CommerceLifecycleSnapshot.Create().SetTenantID(tid).SetCommerceID(id).SetActivityGenerationConfigID(agcID).
		SetCode("probe").SetLabel("Probe").SetStage("ACTIVATION").SetLastComputedAt(at).SetStateChangedAt(at).SaveX(ctx)
	return id
}

// pillarProbe is the probe of GET /<pillar>-configs/{id} on the pillar of
// tenant A's AGC "pillars"; tenant B gets 404 notFound.
func pillarProbe(pillar, notFound string) probe {
	return probe{id: func(f *fixture) string {
		f.agcFor("pillars", "draft")
		return agcProbeID("pillars/" + pillar).String()
	}, crossCode: 404, crossMsg: notFound}
}
