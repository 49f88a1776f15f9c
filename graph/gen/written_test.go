package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// rootField is gqlgen's exec code of a root query field returning typ.
func rootField(name, typ string) string {
	return `
func (ec *executionContext) _Query_` + name + `(ctx context.Context, field graphql.CollectedField) (ret graphql.Marshaler) {
	resTmp, err := ec.ResolverMiddleware(ctx, func(rctx context.Context) (any, error) {
		return ec.resolvers.Query().X(rctx)
	})
	res := resTmp.(*ent.` + typ + `)
	fc.Result = res
	return ec.marshalN` + typ + `2ᚖgithubᚗcomᚋentᚐ` + typ + `(ctx, field.Selections, res)
}
`
}

// The root query fields of the written connection types skip marshalling
// when written; other fields, and the other root fields, are left alone.
func TestSkipWritten(t *testing.T) {
	nested := strings.Replace(rootField("x", "AConnection"), "_Query_x", "_Commerce_activities", 1)
	src := "package generated\n" + rootField("as", "AConnection") + rootField("moreAs", "AConnection") +
		rootField("bs", "BConnection") + nested
	exec := filepath.Join(t.TempDir(), "generated.go")
	if err := os.WriteFile(exec, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := skipWritten(exec, []string{"AConnection"}); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(exec)
	skip := "\tfc.Result = res\n\tif m := compiledWritten(ctx); m != nil {\n\t\treturn m\n\t}\n\treturn ec.marshalN"
	want := "package generated\n" + strings.Replace(rootField("as", "AConnection"), "\tfc.Result = res\n\treturn ec.marshalN", skip, 1) +
		strings.Replace(rootField("moreAs", "AConnection"), "\tfc.Result = res\n\treturn ec.marshalN", skip, 1) +
		rootField("bs", "BConnection") + nested
	if string(got) != want {
		t.Errorf("rewritten:\n%s\nwant:\n%s", got, want)
	}

	if err := skipWritten(exec, []string{"CConnection"}); err == nil || !strings.Contains(err.Error(), "no root query field of type CConnection") {
		t.Errorf("a connection no root field returns: %v", err)
	}
}
