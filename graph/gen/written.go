package main

import (
	"fmt"
	"os"
	"regexp"
	"slices"
)

// gqlgen marshals what a root query field's resolver returns. For a
// connection a compiled writer wrote (graph/compiled), that is the zero
// value the writer handed gqlgen in its place, marshalled field by field
// through every field middleware (some 8 µs a request), to be answered
// with the writer's JSON instead. skipWritten has the exec code of those
// root fields return the writer's JSON when a writer wrote them
// (compiledWritten, in compiled_gen.go).

var (
	// queryField is the exec code of a root query field.
	queryField = regexp.MustCompile(`(?s)\nfunc \(ec \*executionContext\) _Query_\w+\(ctx context\.Context, field graphql\.CollectedField\) \(ret graphql\.Marshaler\) \{\n.*?\n}\n`)
	// rootMarshal is where it marshals its resolver's result.
	rootMarshal = regexp.MustCompile(`\n\tfc\.Result = res\n(\treturn ec\.marshalN(\w+)2ᚖ[^(]+\(ctx, field\.Selections, res\)\n}\n)$`)
)

// skipWritten rewrites exec (gqlgen's generated.go): the root query fields
// of the types connections names answer what compiledWritten returns when
// it returns something, instead of marshalling their resolver's result.
func skipWritten(exec string, connections []string) error {
	src, err := os.ReadFile(exec)
	if err != nil {
		return err
	}
	done := map[string]bool{}
	out := queryField.ReplaceAllFunc(src, func(fn []byte) []byte {
		m := rootMarshal.FindSubmatchIndex(fn)
		if m == nil || !slices.Contains(connections, string(fn[m[4]:m[5]])) {
			return fn
		}
		done[string(fn[m[4]:m[5]])] = true
		rewritten := append([]byte{}, fn[:m[2]]...)
		rewritten = append(rewritten, "\tif m := compiledWritten(ctx); m != nil {\n\t\treturn m\n\t}\n"...)
		return append(rewritten, fn[m[2]:]...)
	})
	for _, c := range connections {
		if !done[c] {
			return fmt.Errorf("%s: no root query field of type %s marshals its result as graph/gen expects", exec, c)
		}
	}
	return os.WriteFile(exec, out, 0o644)
}
