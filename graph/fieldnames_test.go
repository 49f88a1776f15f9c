package graph

import (
	"fmt"
	"strings"
	"testing"

	"github.com/vektah/gqlparser/v2/ast"

	"github.com/reten-io/reten/graph/generated"
	"github.com/reten-io/reten/internal/activity"
	"github.com/reten-io/reten/internal/apperr"
	"github.com/reten-io/reten/internal/dataset"
	"github.com/reten-io/reten/internal/dispatch"
	"github.com/reten-io/reten/internal/result"
)

// TestInputNamesSayGraphQLMembers translates the REST member names of the
// services' messages, per mutation, into that mutation's GraphQL input
// names, and nothing else: quoted values, other words and the names of other
// mutations' inputs stay as they are.
func TestInputNamesSayGraphQLMembers(t *testing.T) {
	schema := generated.NewExecutableSchema(generated.Config{}).Schema()
	cases := []struct{ field, rest, want string }{
		{"createActivity", activity.MsgCommerceIDEmpty, "commerceID should not be empty"},
		{"createActivity", activity.MsgScheduledAtEmpty, "scheduledAt should not be empty"},
		{"createActivity", "operator_id must be a UUID", "operatorID must be a UUID"},
		{"recordActivityResolutionEvent", activity.MsgResolutionEvent,
			"eventType must be one of the following values: " + activity.MsgResolutionEvent[len("event_type must be one of the following values: "):]},
		{"submitActivityResult", result.MsgCommerceExtRequire, "commerceExternalID should not be empty when activityID is absent"},
		{"updateActivityResult", fmt.Sprintf(result.MsgStaleUpdateFmt, "2030-01-01T00:00:00Z"),
			"occurredAt must be later than the result's last update (2030-01-01T00:00:00Z)"},
		{"setTenantDataset", dataset.MsgSchemaNameSystem,
			"schemaName must not name a system schema (information_schema, or a name starting with pg_)"},
		{"setTenantDataset", dataset.MsgProjectEngine, "bigqueryProject is only accepted with engine bigquery"},
		{"setTenantDatasetCatalog", "tables[1].columns[9].is_repeated must be true for a RECORD column",
			"tables[1].columns[9].isRepeated must be true for a RECORD column"},
		{"updateChannelDefinition", dispatch.MsgRateMin, "ratePerMinute must not be less than 1"},
		{"createCommerce", `A commerce with external_id "C_1" already exists`, `A commerce with externalID "C_1" already exists`},
		// A member of no input of the field is not renamed.
		{"createCommerce", activity.MsgScheduledAtEmpty, activity.MsgScheduledAtEmpty},
	}
	for _, c := range cases {
		def := schema.Mutation.Fields.ForName(c.field)
		if def == nil {
			t.Fatalf("no mutation %s", c.field)
		}
		if got := renameWords(c.rest, inputNameTable(schema, def)); got != c.want {
			t.Errorf("%s: %q\n got %q\nwant %q", c.field, c.rest, got, c.want)
		}
	}
}

// TestTranslateMessagesKeepsOtherErrors leaves untyped errors and messages
// without REST names as they are.
func TestTranslateMessagesKeepsOtherErrors(t *testing.T) {
	names := map[string]string{"commerce_id": "commerceID"}
	plain := fmt.Errorf("commerce_id broke")
	if got := translateMessages(plain, func(m string) string { return renameWords(m, names) }); got != plain {
		t.Fatalf("untyped error changed: %v", got)
	}
	typed := apperr.Validation("commerce_id should not be empty", "name should not be empty")
	got, _ := apperr.As(translateMessages(typed, func(m string) string { return renameWords(m, names) }))
	if fmt.Sprint(got.Messages) != "[commerceID should not be empty name should not be empty]" {
		t.Fatalf("messages = %q", got.Messages)
	}
	if orig, _ := apperr.As(typed); orig.Messages[0] != "commerce_id should not be empty" {
		t.Fatalf("the service's error was changed in place: %q", orig.Messages)
	}
}

// TestResultMessagesSayFlatMembers: a result mutation's messages name the
// flat input members (resultErr, then InputNames): REST's status and
// task_result.* are resultStatus and the ActivityResult names.
func TestResultMessagesSayFlatMembers(t *testing.T) {
	schema := generated.NewExecutableSchema(generated.Config{}).Schema()
	cases := []struct{ field, rest, want string }{
		{"submitActivityResult", result.MsgResultRequired, "resultCode should not be empty"},
		{"updateActivityResult", result.MsgResultRequired, "resultCode should not be empty"},
		{"submitActivityResult", result.MsgStatusEnum, "resultStatus" + strings.TrimPrefix(result.MsgStatusEnum, "status")},
		{"updateActivityResult", result.MsgContactTypeEnum, "contactType must be one of the following values: INBOUND, OUTBOUND"},
		{"submitIntegrationActivityResult", "task_result.operator_external_id must be a string", "operatorExternalID must be a string"},
		{"submitActivityResult", result.MsgCommerceExtRequire, "commerceExternalID should not be empty when activityID is absent"},
		// Only the member a message starts with is one: "status" in a sentence stays.
		{"updateActivityResult", fmt.Sprintf(result.MsgTerminalFmt, "COMPLETED", "CANCELED"),
			"Result in status COMPLETED is terminal and cannot change to CANCELED; send hardOverride to force it"},
	}
	for _, c := range cases {
		names := inputNameTable(schema, schema.Mutation.Fields.ForName(c.field))
		got, _ := apperr.As(translateMessages(resultErr(apperr.Validation(c.rest)), func(m string) string { return renameWords(m, names) }))
		if got.Messages[0] != c.want {
			t.Errorf("%s: %q\n got %q\nwant %q", c.field, c.rest, got.Messages[0], c.want)
		}
	}
}

// TestResultInputsNameTheOutput: every member of the result inputs is the
// ActivityResult member it writes, of the same type.
func TestResultInputsNameTheOutput(t *testing.T) {
	schema := generated.NewExecutableSchema(generated.Config{}).Schema()
	out := schema.Types["ActivityResult"]
	for _, name := range []string{"SubmitActivityResultInput", "UpdateActivityResultInput"} {
		in := schema.Types[name]
		if in == nil || len(in.Fields) < 10 {
			t.Fatalf("%s: %v", name, in)
		}
		for _, f := range in.Fields {
			o := out.Fields.ForName(f.Name)
			if o == nil {
				t.Errorf("%s.%s is no ActivityResult member", name, f.Name)
				continue
			}
			if it, ot := namedType(f.Type), namedType(o.Type); it != ot && !(it == "Map" && ot == "JSON") {
				t.Errorf("%s.%s is %s, ActivityResult.%s %s", name, f.Name, it, f.Name, ot)
			}
		}
	}
}

func namedType(t *ast.Type) string {
	for t.Elem != nil {
		t = t.Elem
	}
	return t.NamedType
}
