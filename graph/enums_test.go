package graph

import (
	"strings"
	"testing"

	"github.com/vektah/gqlparser/v2/ast"

	"github.com/reten-io/reten/graph/generated"
)

// specEnums are the members whose values SPEC.md enumerates, by the enum
// that types them (Type.field, or Type.field(argument)). Members left as
// String on purpose hold open values: tenant-configured codes (retention
// status codes, activity reason codes, snapshot codes), catalog names,
// free text, permission names (SPEC.md shows part of the catalog only, and
// "api-key:manage" is no GraphQL enum value) and countingMethod (SPEC.md:
// a string the engine interprets).
var specEnums = map[string][]string{
	"ActivityType":                 {"Activity.type", "CreateActivityInput.type"},
	"ActivityChannel":              {"Activity.channel", "CreateActivityInput.channel"},
	"ActivityStatus":               {"Activity.status"},
	"ActivityStatusEventEventType": {"ActivityStatusEvent.eventType"},
	"ActivityResultSource":         {"ActivityResult.source"},
	"ActivityResultResultStatus": {"ActivityResult.resultStatus", "SubmitActivityResultInput.resultStatus",
		"UpdateActivityResultInput.resultStatus"},
	"ActivityResultContactType": {"ActivityResult.contactType", "SubmitActivityResultInput.contactType",
		"UpdateActivityResultInput.contactType"},
	"TaskResultTypeCode": {"ActivityResult.resultCode", "SubmitActivityResultInput.resultCode", "UpdateActivityResultInput.resultCode",
		"TaskResultTypeConfig.code", "TaskResultTypeConfigInput.code", "TenantResultTypeConfig.resultTypeCode", "ResultType.code"},
	"ActivityGenerationConfigStatus":    {"ActivityGenerationConfig.status"},
	"ActivationConfigAggregationMethod": {"ActivationConfig.aggregationMethod", "ActivationConfigInput.aggregationMethod"},
	"CommerceLifecycleSnapshotStage": {"CommerceLifecycleSnapshot.stage", "CommerceLifecycleSnapshotItemInput.stage",
		"CommerceLifecycleSnapshotsFilter.stage", "UpsertCommerceLifecycleSnapshotInput.stage"},
	"AudienceCompositionSetOperator": {"AudienceComposition.setOperator", "AudienceCompositionInput.setOperator"},
	"QueryBlockSetOperator":          {"QueryBlock.setOperator", "QueryBlockInput.setOperator"},
	"LogicalOperator":                {"FilterGroup.logicalOperator", "FilterGroupInput.logicalOperator"},
	"ComparisonOperator":             {"FilterPredicate.comparisonOperator", "FilterPredicateInput.comparisonOperator"},
	"AggregateOperator":              {"QueryAggregate.operator", "QueryAggregateInput.operator"},
	"ArithmeticOperator":             {"ArithmeticExpression.operator", "ArithmeticExpressionInput.operator"},
	"TimeOperator":                   {"TimeWindow.timeOperator", "TimeWindowInput.timeOperator"},
	"TimeUnit":                       {"TimeWindow.unit", "TimeWindowInput.unit"},
	"JoinType":                       {"QueryJoin.type", "QueryJoinInput.type"},
	"CatalogColumnType":              {"CatalogColumn.type", "CatalogColumnInput.type"},
	"SQLFormat":                      {"AudienceSQL.format", "EventFilterSQL.format", "Query.eventFilterSQL(format)"},
	"OperatorType":                   {"Operator.type", "CreateOperatorInput.type", "SyncOperatorInput.type", "OperatorItemInput.type"},
	"RouteOperatorRole":              {"RouteOperator.role", "Mutation.linkRouteOperator(role)"},
	"CommerceAddressSource":          {"CommerceAddress.source", "CommerceAddressInput.source"},
	"CommerceUserSource":             {"CommerceUser.source", "CreateCommerceUserInput.source"},
	"CommerceUserRoleRole":           {"CommerceUserRole.role", "CreateCommerceUserInput.roles", "Mutation.addCommerceUserRole(role)"},
	"CommerceContactContactType":     {"CommerceContact.contactType", "CommerceContactInput.contactType"},
	"CommerceContactSource":          {"CommerceContact.source", "CommerceContactInput.source"},
	"APIKeyScope":                    {"APIKey.scope", "CreateAPIKeyInput.scope"},
	"Role": {"User.roles", "Viewer.roles", "Membership.roles", "RegisterUserInput.roles",
		"Mutation.setUserRoles(roles)"},
}

// TestSpecEnumerationsAreEnums: every member whose values SPEC.md
// enumerates is typed by its GraphQL enum, on input and output alike.
func TestSpecEnumerationsAreEnums(t *testing.T) {
	schema := generated.NewExecutableSchema(generated.Config{}).Schema()
	for enum, members := range specEnums {
		if def := schema.Types[enum]; def == nil || def.Kind != ast.Enum {
			t.Errorf("%s is not an enum", enum)
			continue
		}
		for _, m := range members {
			typ, field, _ := strings.Cut(m, ".")
			field, arg, isArg := strings.Cut(strings.TrimSuffix(field, ")"), "(")
			def := schema.Types[typ]
			if def == nil || def.Fields.ForName(field) == nil {
				t.Errorf("%s: no such member", m)
				continue
			}
			ty := def.Fields.ForName(field).Type
			if isArg {
				a := def.Fields.ForName(field).Arguments.ForName(arg)
				if a == nil {
					t.Errorf("%s: no such argument", m)
					continue
				}
				ty = a.Type
			}
			if got := namedType(ty); got != enum {
				t.Errorf("%s is %s, want the enum %s", m, ty, enum)
			}
		}
	}
}
