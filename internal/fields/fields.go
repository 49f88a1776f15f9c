// Package fields holds the rules the services share for the fields of their
// inputs: trimming, blank optional text stored as NULL, required and bounded
// text, and writing an optional value to an ent builder (set, clear or
// leave). Each service keeps its own messages; the rules are written once.
package fields

import (
	"strings"
	"unicode/utf8"
)

// Trim returns the trimmed value of an optional string (nil stays nil).
func Trim(p *string) *string {
	if p == nil {
		return nil
	}
	v := strings.TrimSpace(*p)
	return &v
}

// BlankNil maps "" to nil: optional text is stored as NULL, never "".
func BlankNil(p *string) *string {
	if p == nil || *p == "" {
		return nil
	}
	return p
}

// TooLong reports whether s has more than n characters (not bytes).
func TooLong(s string, n int) bool { return utf8.RuneCountInString(s) > n }

// Text checks a required text of at most max characters: msgEmpty when it
// is "", msgTooLong when it is longer (one message at most).
func Text(v string, max int, msgEmpty, msgTooLong string) []string {
	switch {
	case v == "":
		return []string{msgEmpty}
	case TooLong(v, max):
		return []string{msgTooLong}
	}
	return nil
}

// Patch writes an optional text of a PATCH body: nil leaves the column, ""
// clears it (NULL), anything else sets it.
func Patch[U any](v *string, set func(string) U, clear func() U) {
	switch {
	case v == nil:
	case *v == "":
		clear()
	default:
		set(*v)
	}
}

// PatchMap writes an optional JSON object of a PATCH body: nil leaves the
// column, an empty object clears it, anything else replaces it.
func PatchMap[U any](m map[string]any, set func(map[string]any) U, clear func() U) {
	switch {
	case m == nil:
	case len(m) == 0:
		clear()
	default:
		set(m)
	}
}

// SetOrClear writes a nullable column that a full replacement carries: nil
// clears it, anything else sets it.
func SetOrClear[V, U any](v *V, set func(V) U, clear func() U) {
	if v == nil {
		clear()
		return
	}
	set(*v)
}

// Set writes an optional value to an ent mutation: nil leaves the column,
// as the builders' SetNillable methods do.
func Set[V any](v *V, set func(V)) {
	if v != nil {
		set(*v)
	}
}

// EnumText is the text of an optional string-kinded value (an ent enum);
// nil stays nil.
func EnumText[T ~string](p *T) *string {
	if p == nil {
		return nil
	}
	v := string(*p)
	return &v
}
