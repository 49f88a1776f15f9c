// Package resulttype holds the global catalog of activity result types (the
// ten SPEC.md codes that task_result.result takes) and each tenant's
// configuration of them: active or not, POSITIVE or NEGATIVE, and whether a
// result of the type requires future_scheduled_at.
//
// The global catalog is constant code, like the platform defaults of
// internal/catalog: the codes are part of the interface, every replica and
// every tenant agrees on them without a seed step, and a tenant that never
// configured a type gets its default. The result_types table of the ent
// schema is therefore not used. A tenant's row in
// tenant_result_type_configs exists only once the tenant configured the code.
package resulttype

import (
	"slices"
	"strings"
)

// Polarity values of a result type.
const (
	Positive = "POSITIVE"
	Negative = "NEGATIVE"
)

// Type is an entry of the global catalog with its default configuration.
type Type struct {
	Code                      string
	Label                     string
	Polarity                  string
	RequiresFutureScheduledAt bool
}

// types is the global catalog in SPEC.md order (the order of every list).
// Every type is active by default; rescheduled and callback_requested
// promise a follow-up, so they require the committed date by default.
var types = []Type{
	{"success", "Éxito", Positive, false},
	{"not_home", "No se encontraba", Negative, false},
	{"is_closed", "Local cerrado", Negative, false},
	{"no_interest", "Sin interés", Negative, false},
	{"rescheduled", "Reagendado", Positive, true},
	{"wrong_address", "Dirección incorrecta", Negative, false},
	{"b2b_purchase", "Compra B2B", Positive, false},
	{"no_answer", "No contesta", Negative, false},
	{"callback_requested", "Solicita ser contactado", Positive, true},
	{"other", "Otro", Negative, false},
}

// Types returns a copy of the global catalog.
func Types() []Type { return slices.Clone(types) }

// Codes returns the catalog codes in catalog order.
func Codes() []string {
	out := make([]string, len(types))
	for i, t := range types {
		out[i] = t.Code
	}
	return out
}

// Lookup returns the catalog entry of code.
func Lookup(code string) (Type, bool) {
	for _, t := range types {
		if t.Code == code {
			return t, true
		}
	}
	return Type{}, false
}

// codeList is "success, not_home, ..." for the validation message.
var codeList = strings.Join(Codes(), ", ")
