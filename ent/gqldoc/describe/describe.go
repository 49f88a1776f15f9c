// Package describe describes the GraphQL schema entgql generates: object
// types take the schema.Comment of their ent schema, enum types and values
// the gqldoc.Enum annotation of their field, the generated where-input and
// order-field members a sentence made from the field they act on, and Query
// and the code-generation directives a fixed text. (Fields, edges and the
// connection types are described by entgql itself, from .Comment and its own
// texts.) Run by the entgql extension as a schema hook (ent/entc.go), at code
// generation only.
package describe

import (
	"fmt"

	"entgo.io/contrib/entgql"
	"entgo.io/ent/entc/gen"
	entschema "entgo.io/ent/schema"
	"github.com/vektah/gqlparser/v2/ast"

	"github.com/reten-io/reten/ent/gqldoc"
)

// directives describes the code-generation directives entgql declares; they
// steer gqlgen on the server and change nothing in a request.
var directives = map[string]map[string]string{
	"goField": {
		"":              "Server-side code generation hint (gqlgen): how a field maps to Go. It changes nothing in requests or responses.",
		"forceResolver": "Whether the field is resolved by a resolver function.",
		"name":          "The Go field the GraphQL field maps to.",
		"omittable":     "Whether an input field distinguishes absent from null.",
	},
	"goModel": {
		"":              "Server-side code generation hint (gqlgen): the Go type a GraphQL type maps to. It changes nothing in requests or responses.",
		"model":         "The Go type.",
		"models":        "The Go types, first preferred.",
		"forceGenerate": "Whether gqlgen generates the type even though it is mapped.",
	},
}

// Hook is the entgql schema hook that writes the descriptions.
func Hook(g *gen.Graph, s *ast.Schema) error {
	camel := gen.Funcs["camel"].(func(string) string)
	for name, texts := range directives {
		d := s.Directives[name]
		if d == nil {
			continue
		}
		d.Description = texts[""]
		for _, a := range d.Arguments {
			a.Description = texts[a.Name]
		}
	}
	if q := s.Types["Query"]; q != nil {
		q.Description = "The root of every read. Each connection field pages with first/after or last/before (Relay cursors), orders with orderBy and filters with where; a field reads within the active tenant and, where it is project-scoped, the active project."
	}
	for _, node := range g.Nodes {
		if node.HasCompositeID() {
			continue
		}
		if def := s.Types[node.Name]; def != nil {
			def.Description = typeComment(node)
		}
		if err := describeEnums(node, s); err != nil {
			return err
		}
		if def := s.Types[node.Name+"WhereInput"]; def != nil {
			describeWhereInput(node, def, camel)
		}
		if def := s.Types[node.Name+"OrderField"]; def != nil {
			if err := describeOrderFields(node, def, camel); err != nil {
				return err
			}
		}
	}
	return nil
}

// typeComment is the schema.Comment annotation of node.
func typeComment(node *gen.Type) string {
	raw, ok := node.Annotations[(&entschema.CommentAnnotation{}).Name()].(map[string]any)
	if !ok {
		return ""
	}
	text, _ := raw["Text"].(string)
	return text
}

// describeEnums describes the enum types of node's enum fields from their
// Enum annotation; a described value the field does not have is an error.
func describeEnums(node *gen.Type, s *ast.Schema) error {
	for _, f := range node.EnumFields() {
		raw, ok := f.Annotations[gqldoc.EnumAnnotation{}.Name()].(map[string]any)
		if !ok {
			continue
		}
		def := s.Types[node.Name+f.StructField()]
		if def == nil || def.Kind != ast.Enum {
			return fmt.Errorf("gqldoc: %s.%s: no GraphQL enum %s%s", node.Name, f.Name, node.Name, f.StructField())
		}
		if text, _ := raw["Type"].(string); text != "" {
			def.Description = text
		}
		values, _ := raw["Values"].(map[string]any)
		for value, text := range values {
			v := def.EnumValues.ForName(value)
			if v == nil {
				return fmt.Errorf("gqldoc: %s.%s describes %q, not one of its values", node.Name, f.Name, value)
			}
			v.Description, _ = text.(string)
		}
	}
	return nil
}

// describeWhereInput describes every member of node's generated where input.
func describeWhereInput(node *gen.Type, def *ast.Definition, camel func(string) string) {
	for _, f := range def.Fields {
		switch f.Name {
		case "not":
			f.Description = "Matches the " + node.Name + " objects the given filter does not match."
		case "and":
			f.Description = "Matches the " + node.Name + " objects every given filter matches."
		case "or":
			f.Description = "Matches the " + node.Name + " objects at least one given filter matches."
		}
	}
	for _, field := range withID(node) {
		name := camel(field.Name)
		for _, op := range field.Ops() {
			input := camel(field.Name + "_" + op.Name())
			if op == gen.EQ {
				input = name
			}
			if f := def.Fields.ForName(input); f != nil {
				f.Description = predicate(name, op)
			}
		}
	}
	for _, e := range node.Edges {
		has, with := "true matches the objects whose `%s` is set, false those without one.", "Matches the objects whose `%s` matches every given filter."
		if !e.Unique {
			has, with = "true matches the objects with at least one of `%s`, false those with none.", "Matches the objects with at least one of `%s` that matches every given filter."
		}
		if f := def.Fields.ForName(camel("has_" + e.Name)); f != nil {
			f.Description = fmt.Sprintf(has, camel(e.Name))
		}
		if f := def.Fields.ForName(camel("has_" + e.Name + "_with")); f != nil {
			f.Description = fmt.Sprintf(with, camel(e.Name))
		}
	}
}

// predicates are the descriptions of the where-input members by operation;
// %s is the GraphQL field name.
var predicates = map[gen.Op]string{
	gen.EQ:           "`%s` equals the value.",
	gen.NEQ:          "`%s` differs from the value.",
	gen.GT:           "`%s` is greater than the value.",
	gen.GTE:          "`%s` is greater than or equal to the value.",
	gen.LT:           "`%s` is less than the value.",
	gen.LTE:          "`%s` is less than or equal to the value.",
	gen.IsNil:        "true matches the objects whose `%s` is null (false adds no condition).",
	gen.NotNil:       "true matches the objects whose `%s` is not null (false adds no condition).",
	gen.In:           "`%s` is one of the values.",
	gen.NotIn:        "`%s` is none of the values.",
	gen.EqualFold:    "`%s` equals the value, ignoring case.",
	gen.Contains:     "`%s` contains the value (case-sensitive).",
	gen.ContainsFold: "`%s` contains the value, ignoring case.",
	gen.HasPrefix:    "`%s` starts with the value (case-sensitive).",
	gen.HasSuffix:    "`%s` ends with the value (case-sensitive).",
}

// predicate is the description of the where-input member applying op to the
// GraphQL field name.
func predicate(name string, op gen.Op) string {
	if text, ok := predicates[op]; ok {
		return fmt.Sprintf(text, name)
	}
	return fmt.Sprintf("`%s` %s the value.", name, op.Name())
}

// withID is node's fields with its id first, as entgql lists them.
func withID(node *gen.Type) []*gen.Field {
	if node.HasOneFieldID() {
		return append([]*gen.Field{node.ID}, node.Fields...)
	}
	return node.Fields
}

// describeOrderFields describes each value of node's order-field enum by the
// field it orders by (no schema orders by an edge).
func describeOrderFields(node *gen.Type, def *ast.Definition, camel func(string) string) error {
	terms := map[string]string{}
	for _, f := range withID(node) {
		ant := &entgql.Annotation{}
		if raw, ok := f.Annotations[ant.Name()]; ok {
			if err := ant.Decode(raw); err != nil {
				return err
			}
		}
		if ant.OrderField != "" {
			terms[ant.OrderField] = "Orders by `" + camel(f.Name) + "`."
		}
	}
	for _, v := range def.EnumValues {
		text, ok := terms[v.Name]
		if !ok {
			return fmt.Errorf("gqldoc: %s: no field orders by %s", def.Name, v.Name)
		}
		v.Description = text
	}
	return nil
}
