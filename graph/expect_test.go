package graph_test

import (
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/reten-io/reten/internal/apptest"
)

// M and L build expected JSON documents.
type (
	M = map[string]any
	L = []any
)

// canon returns the canonical JSON of v (a JSON string, raw bytes or a Go
// value): objects with sorted keys, numbers as JSON numbers.
func canon(t testing.TB, v any) string {
	t.Helper()
	var raw []byte
	switch x := v.(type) {
	case string:
		raw = []byte(x)
	case []byte:
		raw = x
	case json.RawMessage:
		raw = x
	default:
		b, err := json.Marshal(x)
		if err != nil {
			t.Fatalf("encode %#v: %v", v, err)
		}
		raw = b
	}
	var out any
	if err := json.Unmarshal(raw, &out); err != nil {
		t.Fatalf("not JSON: %v: %s", err, raw)
	}
	b, _ := json.Marshal(out)
	return string(b)
}

// expectBody asserts the HTTP status and the whole JSON body.
func expectBody(t testing.TB, res *apptest.Response, status int, want any) {
	t.Helper()
	if res.Status != status {
		t.Fatalf("status = %d, want %d; body %s", res.Status, status, res.Body)
	}
	if g, w := canon(t, res.Body), canon(t, want); g != w {
		t.Fatalf("body = %s\nwant   %s", g, w)
	}
}

// expectData asserts a 200 answer with exactly this data and no errors.
func expectData(t testing.TB, res *apptest.Response, data any) {
	t.Helper()
	expectBody(t, res, http.StatusOK, M{"data": data})
}

// expectUnordered asserts a 200 answer with exactly this data and these
// errors in any order (sibling fields resolve concurrently).
func expectUnordered(t testing.TB, res *apptest.Response, data any, errs L) {
	t.Helper()
	if res.Status != http.StatusOK {
		t.Fatalf("status = %d, want 200; body %s", res.Status, res.Body)
	}
	var body struct {
		Data   json.RawMessage   `json:"data"`
		Errors []json.RawMessage `json:"errors"`
	}
	res.JSON(t, &body)
	got := make([]string, len(body.Errors))
	for i, e := range body.Errors {
		got[i] = canon(t, e)
	}
	want := make([]string, len(errs))
	for i, e := range errs {
		want[i] = canon(t, e)
	}
	slices.Sort(got)
	slices.Sort(want)
	if canon(t, body.Data) != canon(t, data) || !slices.Equal(got, want) {
		t.Fatalf("body = %s\nwant data %s\nand errors %v", res.Body, canon(t, data), want)
	}
}

// fieldError is the GraphQL error of a resolver failing with a typed error.
func fieldError(path L, message, code string, status int) M {
	return M{"message": message, "path": path, "extensions": M{"code": code, "statusCode": status}}
}

// preError is the body of a request rejected before execution.
func preError(message, code string, status int) M {
	return M{"errors": L{M{"message": message, "extensions": M{"code": code, "statusCode": status}}}}
}

// strs is list as a JSON list.
func strs(list []string) L {
	out := L{}
	for _, s := range list {
		out = append(out, s)
	}
	return out
}

// gqlOK runs an operation that must succeed and returns its data.
func gqlOK(t *testing.T, env *apptest.Env, h apptest.Headers, query string, vars M) M {
	t.Helper()
	res := env.GraphQL(query, vars, h)
	var out struct {
		Data   M               `json:"data"`
		Errors json.RawMessage `json:"errors"`
	}
	if res.Status != http.StatusOK {
		t.Fatalf("status = %d; body %s", res.Status, res.Body)
	}
	res.JSON(t, &out)
	if out.Errors != nil {
		t.Fatalf("errors: %s", res.Body)
	}
	return out.Data
}

// get walks a decoded JSON document along keys (object keys or list indexes).
func get(t *testing.T, v any, path ...any) any {
	t.Helper()
	for _, p := range path {
		switch k := p.(type) {
		case string:
			m, ok := v.(M)
			if !ok {
				t.Fatalf("%v: not an object at %q", v, k)
			}
			v = m[k]
		case int:
			l, ok := v.([]any)
			if !ok || k >= len(l) {
				t.Fatalf("%v: no element %d", v, k)
			}
			v = l[k]
		}
	}
	return v
}

func str(t *testing.T, v any, path ...any) string {
	t.Helper()
	s, ok := get(t, v, path...).(string)
	if !ok {
		t.Fatalf("%v at %v is not a string", v, path)
	}
	return s
}

// expectFieldError asserts an answer failing at field with one typed error.
func expectFieldError(t *testing.T, res *apptest.Response, field, message, code string, status int) {
	t.Helper()
	expectBody(t, res, http.StatusOK, M{"data": nil, "errors": L{fieldError(L{field}, message, code, status)}})
}

// expectInvalid asserts a validation error (400 with its messages).
func expectInvalid(t *testing.T, res *apptest.Response, field string, messages ...string) {
	t.Helper()
	expectBody(t, res, http.StatusOK, M{"data": nil, "errors": L{M{
		"message": strings.Join(messages, "; "), "path": L{field},
		"extensions": M{"code": "BAD_REQUEST", "statusCode": 400, "messages": strs(messages)},
	}}})
}

// expectVariableInvalid asserts a request refused before execution because
// a variable does not coerce to its type (422 at the variable's path).
func expectVariableInvalid(t *testing.T, res *apptest.Response, path L, message string) {
	t.Helper()
	expectBody(t, res, http.StatusUnprocessableEntity, M{"errors": L{M{"message": message, "path": append(L{"variable"}, path...),
		"extensions": M{"code": "GRAPHQL_VALIDATION_FAILED"}}}, "data": nil})
}
