package fieldorg

import "github.com/reten-io/reten/internal/patch"

// Text is the input value of a text member of a field organisation body:
// null is an empty text, which clears an optional field ("" clears, see
// OperatorPatch) and breaks the rule of a required one ("name should not be
// empty"). Absent stays nil.
func Text(p patch.Patch[string]) *string { return p.NullAs("").Ptr() }

// Metadata is the input value of a metadata member: null is an empty
// object, which clears it. Absent stays nil.
func Metadata(p patch.Patch[map[string]any]) map[string]any {
	return p.NullAs(map[string]any{}).OrZero()
}
