package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const execHead = `package generated

func (e *executableSchema) Exec(ctx context.Context) graphql.ResponseHandler {
	ec := executionContext{opCtx, e, 0, 0, make(chan graphql.DeferredResult)}
	inputUnmarshalMap := graphql.BuildUnmarshalerMap(
		ec.unmarshalInputA,
		ec.unmarshalInputB,
	)
	first := true
}
`

const execTail = `
func (ec *executionContext) unmarshalInputA(ctx context.Context, obj any) (A, error) {
	v, err := ec.unmarshalNString2string(ctx, obj)
	return A{v}, err
}
`

func TestShareUnmarshalers(t *testing.T) {
	for name, c := range map[string]struct {
		src, err string
	}{
		"shared": {src: execHead + execTail},
		"state": {src: execHead + execTail + `
func (ec *executionContext) unmarshalInputB(ctx context.Context, obj any) (B, error) {
	return B{ec.Variables}, nil
}
`, err: "an input unmarshaller reads ec.Variables"},
		"changed": {src: strings.Replace(execHead, "BuildUnmarshalerMap", "BuildMap", 1), err: "no longer builds the input unmarshaller map"},
	} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			exec := filepath.Join(dir, "generated.go")
			if err := os.WriteFile(exec, []byte(c.src), 0o644); err != nil {
				t.Fatal(err)
			}
			err := shareUnmarshalers(exec)
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Fatalf("error %v, want one saying %q", err, c.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got, _ := os.ReadFile(exec)
			want := strings.Replace(c.src, `	inputUnmarshalMap := graphql.BuildUnmarshalerMap(
		ec.unmarshalInputA,
		ec.unmarshalInputB,
	)
`, "\tinputUnmarshalMap := inputUnmarshalers()\n", 1)
			if string(got) != want {
				t.Errorf("generated.go:\n%s\nwant:\n%s", got, want)
			}
			shared, _ := os.ReadFile(filepath.Join(dir, "unmarshalers_gen.go"))
			if !strings.Contains(string(shared), "var inputUnmarshalers = sync.OnceValue(func() map[reflect.Type]reflect.Value {\n"+
				"\tec := &executionContext{}\n\treturn graphql.BuildUnmarshalerMap(\n\t\tec.unmarshalInputA,\n\t\tec.unmarshalInputB,\n\t)\n})\n") {
				t.Errorf("unmarshalers_gen.go:\n%s", shared)
			}
		})
	}
}
