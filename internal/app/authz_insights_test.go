package app_test

import "maps"

// insightsProbes: the console's insights of an AGC (project-scoped, like
// its AGC): another tenant's AGC is not found.
var insightsProbes = map[string]probe{
	"Query.lifecycleDistribution": {query: `query($id: ID!) { lifecycleDistribution(activityGenerationConfigID: $id) { count } }`,
		vars: func(f *fixture) map[string]any { return map[string]any{"id": f.agcFor("rules", "draft")} }, crossCode: 404, crossMsg: agcMissing("rules")},
	"Query.lifecycleEvolution": {query: `query($id: ID!) { lifecycleEvolution(activityGenerationConfigID: $id) { days } }`,
		vars: func(f *fixture) map[string]any { return map[string]any{"id": f.agcFor("rules", "draft")} }, crossCode: 404, crossMsg: agcMissing("rules")},
	"Query.lifecycleTransitionCounts": {query: `query($id: ID!) { lifecycleTransitionCounts(activityGenerationConfigID: $id) { count } }`,
		vars: func(f *fixture) map[string]any { return map[string]any{"id": f.agcFor("rules", "draft")} }, crossCode: 404, crossMsg: agcMissing("rules")},
	"Query.generationDecisionCounts": {query: `query($id: ID!) { generationDecisionCounts(activityGenerationConfigID: $id) { count } }`,
		vars: func(f *fixture) map[string]any { return map[string]any{"id": f.agcFor("rules", "draft")} }, crossCode: 404, crossMsg: agcMissing("rules")},
	"Query.generatedActivityCounts": {query: `query($id: ID!) { generatedActivityCounts(activityGenerationConfigID: $id) { count } }`,
		vars: func(f *fixture) map[string]any { return map[string]any{"id": f.agcFor("rules", "draft")} }, crossCode: 404, crossMsg: agcMissing("rules")},
}

func init() { maps.Copy(probes, insightsProbes) }
