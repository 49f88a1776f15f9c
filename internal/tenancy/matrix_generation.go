package tenancy

import "github.com/reten-io/reten/internal/auth"

// generationMatrix: activity generation rules (project-scoped, like their AGC).
var generationMatrix = []Entry{
	{"POST", "/activity-generation-configs/{id}/generation-rules", ProjectScoped, auth.PermGenerationRuleManage},
	{"GET", "/activity-generation-configs/{id}/generation-rules", ProjectScoped, auth.PermGenerationRuleView},
	{"GET", "/generation-rules/{ruleId}", ProjectScoped, auth.PermGenerationRuleView},
	{"PATCH", "/generation-rules/{ruleId}", ProjectScoped, auth.PermGenerationRuleManage},
	{"DELETE", "/generation-rules/{ruleId}", ProjectScoped, auth.PermGenerationRuleManage},
	// The project's policy and an AGC's settings (caps, control and holdout groups).
	{"GET", "/generation-policy", ProjectScoped, auth.PermGenerationRuleView},
	{"PUT", "/generation-policy", ProjectScoped, auth.PermGenerationRuleManage},
	{"GET", "/activity-generation-configs/{id}/generation-settings", ProjectScoped, auth.PermGenerationRuleView},
	{"PUT", "/activity-generation-configs/{id}/generation-settings", ProjectScoped, auth.PermGenerationRuleManage},
	// The decision trail: what each rule decided for each commerce, per AGC
	// and per commerce (the active project's decisions only).
	{"GET", "/activity-generation-configs/{id}/generation-decisions", ProjectScoped, auth.PermGenerationRuleView},
	{"GET", "/commerces/{id}/generation-decisions", ProjectScoped, auth.PermGenerationRuleView},
	{"POST", "/activity-generation-configs/{id}/generation-preview", ProjectScoped, auth.PermGenerationRuleView},
	// Outcomes: the uplift of the generated activities against the holdout,
	// and the per-decision rows behind it as CSV.
	{"GET", "/activity-generation-configs/{id}/uplift", ProjectScoped, auth.PermGenerationRuleView},
	{"GET", "/activity-generation-configs/{id}/uplift.csv", ProjectScoped, auth.PermGenerationRuleView},

	// GraphQL: the same scope and permissions as the REST routes.
	{"Query", "generationRules", ProjectScoped, auth.PermGenerationRuleView},
	{"Mutation", "createGenerationRule", ProjectScoped, auth.PermGenerationRuleManage},
	{"Mutation", "updateGenerationRule", ProjectScoped, auth.PermGenerationRuleManage},
	{"Mutation", "deleteGenerationRule", ProjectScoped, auth.PermGenerationRuleManage},
	{"Query", "generationPolicy", ProjectScoped, auth.PermGenerationRuleView},
	{"Mutation", "updateGenerationPolicy", ProjectScoped, auth.PermGenerationRuleManage},
	{"Query", "generationSettings", ProjectScoped, auth.PermGenerationRuleView},
	{"Mutation", "updateGenerationSettings", ProjectScoped, auth.PermGenerationRuleManage},
	{"Query", "generationDecisions", ProjectScoped, auth.PermGenerationRuleView},
	{"Query", "generationPreview", ProjectScoped, auth.PermGenerationRuleView},
	{"Query", "upliftReport", ProjectScoped, auth.PermGenerationRuleView},
	{"Query", "upliftRows", ProjectScoped, auth.PermGenerationRuleView},
	// The console's insights of an AGC (internal/insights).
	{"Query", "generationDecisionCounts", ProjectScoped, auth.PermGenerationRuleView},
	{"Query", "generatedActivityCounts", ProjectScoped, auth.PermActivityView},
	{"Query", "lifecycleDistribution", ProjectScoped, auth.PermSnapshotView},
	{"Query", "lifecycleEvolution", ProjectScoped, auth.PermSnapshotView},
	{"Query", "lifecycleTransitionCounts", ProjectScoped, auth.PermSnapshotView},
}
