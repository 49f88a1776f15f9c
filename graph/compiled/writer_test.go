package compiled_test

import (
	"context"
	"errors"
	"strconv"
	"testing"
	"time"

	"github.com/99designs/gqlgen/graphql"
	"github.com/google/uuid"
	"github.com/vektah/gqlparser/v2"
	"github.com/vektah/gqlparser/v2/ast"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/ent/activity"
	"github.com/reten-io/reten/graph/compiled"
	"github.com/reten-io/reten/graph/generated"
)

var schema = generated.NewExecutableSchema(generated.Config{}).Schema()

// write runs query's root field through compiled.Write with res and guard.
func write(t *testing.T, query string, vars map[string]any, res any, guard compiled.Guard) (string, any, bool) {
	t.Helper()
	doc := gqlparser.MustLoadQuery(schema, query)
	op := &graphql.OperationContext{Doc: doc, Operation: doc.Operations[0], Variables: vars}
	ctx := graphql.WithOperationContext(context.Background(), op)
	root := graphql.CollectFields(op, op.Operation.SelectionSet, []string{"Query"})[0]
	w, zero, ok := compiled.Write(ctx, root, res, guard, generated.WriteCompiled)
	if !ok {
		return "", zero, false
	}
	defer w.Release()
	return string(w.Bytes()), zero, true
}

func admit(context.Context, string, *ast.FieldDefinition) error { return nil }

func TestWrite(t *testing.T) {
	id := uuid.MustParse("6f1c2a4e-8b0d-4c3e-9a57-0123456789ab")
	when := time.Date(2026, 3, 4, 5, 6, 7, 8, time.FixedZone("", -5*3600))
	note := "n\u0001"
	conn := &ent.ActivityConnection{TotalCount: 3, Edges: []*ent.ActivityEdge{
		{Node: &ent.Activity{ID: id, Title: "a \"b\" \\ c\td\n", ScheduledAt: when, Type: "TASK", ProviderActivityID: &note}},
		nil,
		{Node: nil},
	}}
	conn.PageInfo.HasNextPage = true

	out, zero, ok := write(t, `query($skip: Boolean!) { activities(first: 3) { n: totalCount __typename
		edges { node { id ...F t: title providerActivityID scheduledAt type @skip(if: $skip) } }
		pageInfo { hasNextPage startCursor } } }
		fragment F on Activity { closedAt }`, map[string]any{"skip": true}, conn, admit)
	want := `{"n":3,"__typename":"ActivityConnection","edges":[{"node":{"id":"6f1c2a4e-8b0d-4c3e-9a57-0123456789ab","closedAt":null,` +
		`"t":"a \"b\" \\ c\td\n","providerActivityID":"n\u0001","scheduledAt":"2026-03-04T05:06:07.000000008-05:00"}},null,{"node":null}],` +
		`"pageInfo":{"hasNextPage":true,"startCursor":null}}`
	if !ok || out != want {
		t.Fatalf("ok %v\n got %s\nwant %s", ok, out, want)
	}
	if z, isConn := zero.(*ent.ActivityConnection); !isConn || z == conn || z.TotalCount != 0 || z.Edges != nil {
		t.Fatalf("zero = %#v, want a new empty *ent.ActivityConnection", zero)
	}

	// Everything the writers leave to gqlgen.
	refuse := func(_ context.Context, object string, f *ast.FieldDefinition) error {
		if object == "ActivityEdge" && f.Name == "node" {
			return errors.New("no")
		}
		return nil
	}
	for name, c := range map[string]struct {
		query string
		res   any
		guard compiled.Guard
	}{
		"a field with a resolver":           {`{ activities { edges { node { commerce { id } } } } }`, conn, admit},
		"a deferred fragment":               {`{ activities { edges { node { ... @defer { title } } } } }`, conn, admit},
		"a field the guard refuses":         {`{ activities { edges { node { id } } } }`, conn, refuse},
		"a null in a non-null field":        {`{ activities { edges { node { createdAt } } } }`, conn, admit},
		"a value of another type":           {`{ activities { totalCount } }`, &ent.CommerceConnection{}, admit},
		"a nil connection":                  {`{ activities { totalCount } }`, (*ent.ActivityConnection)(nil), admit},
		"a root field that is not compiled": {`{ viewer { __typename } }`, conn, admit},
	} {
		if out, _, ok := write(t, c.query, nil, c.res, c.guard); ok {
			t.Errorf("%s: written %s, want it left to gqlgen", name, out)
		}
	}
}

// An enum is written as its MarshalGQL writes it (strconv.Quote of its
// String), whether it spells a GraphQL name (written directly) or not (a
// value no enum declares, left to MarshalGQL).
func TestWriteEnum(t *testing.T) {
	for _, v := range []string{"TASK", "CALL_CENTER_2", "not a name", `q"uo\te`, "tab\t", "é", ""} {
		conn := &ent.ActivityConnection{Edges: []*ent.ActivityEdge{{Node: &ent.Activity{Type: activity.Type(v), Status: activity.StatusREADY}}}}
		out, _, ok := write(t, `{ activities { edges { node { type status } } } }`, nil, conn, admit)
		want := `{"edges":[{"node":{"type":` + strconv.Quote(v) + `,"status":"READY"}}]}`
		if !ok || out != want {
			t.Errorf("type %q: ok %v\n got %s\nwant %s", v, ok, out, want)
		}
	}
}
