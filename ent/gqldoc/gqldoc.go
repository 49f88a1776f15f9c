// Package gqldoc holds the annotation that describes an enum field's
// GraphQL type and values (Enum), which the ent schema uses. The schema hook
// that writes the descriptions at code generation, ent/gqldoc/describe, is
// a package of its own: the ent schema is linked into the served binary,
// and this package imports nothing of ent's code generation.
package gqldoc

// EnumAnnotation describes an enum field's GraphQL enum type and its values.
type EnumAnnotation struct {
	// Type describes the enum type.
	Type string
	// Values describes each value, by value.
	Values map[string]string
}

// Name implements schema.Annotation.
func (EnumAnnotation) Name() string { return "GQLDocEnum" }

// Enum describes an enum field's GraphQL type (typ) and every value.
func Enum(typ string, values map[string]string) EnumAnnotation {
	return EnumAnnotation{Type: typ, Values: values}
}
