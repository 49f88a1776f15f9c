package app_test

import (
	"context"
	"maps"
	"time"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent/commercelifecycletransition"
	"github.com/reten-io/reten/internal/viewer"
)

// transitionProbes: the transition history of commerce lifecycle states
// (tenant A's probe commerce SNAP-PROBE with one transition, transitionA).
var transitionProbes = map[string]probe{
	"GET /commerce-lifecycle-transitions": {path: func(f *fixture) string {
		return "/commerce-lifecycle-transitions?commerce_id=" + f.transitionA().String()
	}},
	"GET /commerce-lifecycle-snapshots/{commerceIdentifier}/history": {path: func(f *fixture) string {
		return "/commerce-lifecycle-snapshots/" + f.transitionA().String() + "/history"
	}, crossCode: 404, crossMsg: "Commerce not found"},
	// The answer selects tenantID, so tenant B seeing A's rows fails the probe.
	"Query.commerceLifecycleTransitions": {query: `{ commerceLifecycleTransitions { totalCount edges { node { tenantID } } } }`,
		vars: func(f *fixture) map[string]any { f.transitionA(); return nil }},
}

func init() { maps.Copy(probes, transitionProbes) }

// transitionA returns tenant A's probe commerce (snapA), giving it on first
// use the transition that created its snapshot.
func (f *fixture) transitionA() uuid.UUID {
	id := f.snapA()
	ctx, c := viewer.SystemContext(context.Background()), f.env.App.DB.Client
	if !c.CommerceLifecycleTransition.Query().Where(commercelifecycletransition.CommerceID(id)).ExistX(ctx) {
		at := time.Date(2029, 1, 1, 0, 0, 0, 0, time.UTC)
		c.CommerceLifecycleTransition.Create().SetTenantID(f.a.TenantID).SetCommerceID(id).SetActivityGenerationConfigID(agcProbeID("snap")).
			SetToStage("ACTIVATION").SetToCode("probe").SetStateChangedAt(at).SetLastComputedAt(at).SetSource("API").SaveX(ctx)
	}
	return id
}
