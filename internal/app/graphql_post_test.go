package app

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/errcode"
	"github.com/99designs/gqlgen/graphql/handler/transport"
	"github.com/google/uuid"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
)

// cannedExec answers every operation with res, or refuses it with an error
// of code (naming the query and variables it was given).
type cannedExec struct {
	res     *graphql.Response
	refusal string
	code    string
}

func (e cannedExec) CreateOperationContext(_ context.Context, p *graphql.RawParams) (*graphql.OperationContext, gqlerror.List) {
	if e.refusal == "" {
		return &graphql.OperationContext{RawQuery: p.Query}, nil
	}
	err := gqlerror.Errorf("%s: %s %v", e.refusal, p.Query, p.Variables)
	errcode.Set(err, e.code)
	return &graphql.OperationContext{RawQuery: p.Query}, gqlerror.List{err}
}

func (e cannedExec) DispatchOperation(ctx context.Context, _ *graphql.OperationContext) (graphql.ResponseHandler, context.Context) {
	res := *e.res // each transport gets its own
	return graphql.OneShot(&res), ctx
}

func (cannedExec) DispatchError(_ context.Context, list gqlerror.List) *graphql.Response {
	return &graphql.Response{Errors: list}
}

// marshalled is what m writes.
func marshalled(m graphql.Marshaler) string {
	var b bytes.Buffer
	m.MarshalGQL(&b)
	return b.String()
}

// TestGraphQLPOSTMatchesGqlgen sends the same requests through graphqlPOST
// and gqlgen's transport.POST, over executors answering the same data
// (written by gqlgen's marshallers and ours) or refusing the operation:
// status, headers and bodies must be byte for byte the same.
func TestGraphQLPOSTMatchesGqlgen(t *testing.T) {
	yes := true
	leaves := `{"s":` + marshalled(graphql.MarshalString("tab\t quote\" back\\ nl\n ctl\x01 é 🎉")) +
		`,"t":` + marshalled(graphql.MarshalTime(time.Date(2026, 11, 29, 14, 0, 0, 123, time.UTC))) +
		`,"u":` + marshalled(graphql.MarshalUUID(uuid.MustParse("0195f2a0-0000-7000-8000-000000000001"))) +
		`,"i":` + marshalled(graphql.MarshalInt(-42)) + `,"b":` + marshalled(graphql.MarshalBoolean(true)) +
		`,"f":` + marshalled(graphql.WrapContextMarshaler(context.Background(), graphql.MarshalFloatContext(1.5))) + `}`
	data := map[string]string{
		"leaves":        leaves,
		"html":          `{"title":` + marshalled(graphql.MarshalString("<b>A & B</b>")) + `}`,
		"line-sep":      `{"title":` + marshalled(graphql.MarshalString("a\u2028b\u2029c")) + `}`,
		"map":           `{"m":` + marshalled(graphql.MarshalMap(map[string]any{"k": "v", "n": 1})) + `}`,
		"any":           `{"a":` + marshalled(graphql.MarshalAny([]any{"x", 2, true})) + `}`,
		"empty":         `{}`,
		"null":          ``,
		"list-of-nulls": `{"edges":[null,{"node":null}]}`,
	}
	responses := map[string]*graphql.Response{}
	for name, d := range data {
		res := &graphql.Response{}
		if d != "" {
			res.Data = json.RawMessage(d)
		}
		responses["data "+name] = res
	}
	fieldErr := &gqlerror.Error{Message: "No encontrado", Path: ast.Path{ast.PathName("activity")}, Extensions: map[string]any{"code": "NOT_FOUND"}}
	responses["errors"] = &graphql.Response{Data: json.RawMessage(`{"activity":null}`), Errors: gqlerror.List{fieldErr}}
	responses["no errors, no extensions"] = &graphql.Response{Data: json.RawMessage(`{"a":1}`), Errors: gqlerror.List{}, Extensions: map[string]any{}}
	responses["extensions"] = &graphql.Response{Data: json.RawMessage(`{"a":1}`), Extensions: map[string]any{"cost": 3}}
	responses["deferred"] = &graphql.Response{Data: json.RawMessage(`{"b":2}`), Label: "x", Path: ast.Path{ast.PathName("a")}, HasNext: &yes}

	execs := map[string]graphql.GraphExecutor{
		"refused (protocol)": cannedExec{refusal: `Unexpected Name "quey"`, code: errcode.ParseFailed},
		"refused (user)":     cannedExec{refusal: "operación no permitida", code: "FORBIDDEN"},
	}
	for name, res := range responses {
		execs[name] = cannedExec{res: res}
	}
	bodies := map[string]string{
		"query":      `{"query":"{ a }","variables":{"n":1.50}}`,
		"bad json":   `{"query":`,
		"wrong type": `{"query":1}`,
	}
	accepts := []string{"", "application/json", "application/graphql-response+json", "*/*", "application/*", "text/html", "text/html, application/graphql-response+json;q=0.9", ";;"}

	for execName, exec := range execs {
		for bodyName, body := range bodies {
			for _, accept := range accepts {
				// predecoded: the body as checkBody hands it over (limitRequest).
				send := func(tr graphql.Transport, predecoded bool) *httptest.ResponseRecorder {
					req := httptest.NewRequest(http.MethodPost, "/graphql", strings.NewReader(body))
					req.Header.Set("Content-Type", "application/json")
					if accept != "" {
						req.Header.Set("Accept", accept)
					}
					if !tr.Supports(req) {
						t.Fatalf("%T does not take a JSON POST", tr)
					}
					w := httptest.NewRecorder()
					if predecoded {
						_, lreq, err := limitRequest(w, req)
						if err != nil {
							return nil // checkBody refuses it: graphqlPOST never sees it
						}
						if rw, _ := lreq.Context().Value(refusalKey{}).(*refusalWriter); rw == nil || rw.params == nil {
							t.Fatalf("limitRequest hands graphqlPOST no decoded body for %s", body)
						}
						req = lreq
					}
					tr.Do(w, req, exec)
					return w
				}
				want := send(transport.POST{}, false)
				for i, got := range []*httptest.ResponseRecorder{send(graphqlPOST{}, false), send(graphqlPOST{}, true)} {
					if got == nil {
						continue
					}
					label := fmt.Sprintf("%s, body %s, Accept %s, decoded by checkBody %v", execName, bodyName, accept, i == 1)
					if got.Code != want.Code || got.Body.String() != want.Body.String() {
						t.Errorf("%s:\n got %d %s\nwant %d %s", label, got.Code, got.Body, want.Code, want.Body)
					}
					if g, w := got.Header(), want.Header(); !reflect.DeepEqual(g, w) {
						t.Errorf("%s: headers %v, want %v", label, g, w)
					}
				}
			}
		}
	}
}

// TestGraphQLPOSTWritesDataAsItIs checks which answers skip encoding/json:
// data alone with nothing it would rewrite.
func TestGraphQLPOSTWritesDataAsItIs(t *testing.T) {
	for data, want := range map[string]bool{
		`{"a":"b"}`: false, `{"a":"<"}`: true, `{"a":">"}`: true, `{"a":"&"}`: true,
		"{\"a\":\"\u2028\"}": true, "{\"a\":\"\u2029\"}": true, "{\"a\":1}\n": true, `{"a":"\n"}`: false,
	} {
		if got := reencoded([]byte(data)); got != want {
			t.Errorf("reencoded(%q) = %v, want %v", data, got, want)
		}
	}
}
