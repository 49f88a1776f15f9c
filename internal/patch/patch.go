// Package patch holds Patch, the three states of a member of a PATCH body
// (absent, null, a value), so that an adapter hands the service what was
// sent and the service alone decides what null means for each field.
package patch

// Patch is one member of a partial update: absent (the zero value: leave
// the field as it is), null (sent as JSON null) or a value.
type Patch[T any] struct {
	state state
	value T
}

type state uint8

const (
	absent state = iota
	null
	set
)

// Null is a member sent as null.
func Null[T any]() Patch[T] { return Patch[T]{state: null} }

// Of is a member sent with value v.
func Of[T any](v T) Patch[T] { return Patch[T]{state: set, value: v} }

// FromPtr is the patch of an optional argument that cannot be null (a
// GraphQL input field): nil is absent.
func FromPtr[T any](p *T) Patch[T] {
	if p == nil {
		return Patch[T]{}
	}
	return Of(*p)
}

// FromArgs is the patch of a pair of arguments, a value and a flag that
// clears the field (GraphQL inputs cannot tell null from absent): ok is
// false when both are sent.
func FromArgs[T any](v *T, clear *bool) (p Patch[T], ok bool) {
	if clear != nil && *clear {
		return Null[T](), v == nil
	}
	return FromPtr(v), true
}

// Sent reports whether the member was sent, as null or as a value.
func (p Patch[T]) Sent() bool { return p.state != absent }

// IsNull reports whether the member was sent as null.
func (p Patch[T]) IsNull() bool { return p.state == null }

// Get returns the value and whether one was sent.
func (p Patch[T]) Get() (T, bool) { return p.value, p.state == set }

// Ptr returns the value, nil when absent or null.
func (p Patch[T]) Ptr() *T {
	if p.state != set {
		return nil
	}
	v := p.value
	return &v
}

// OrZero returns the value, the zero value when absent or null.
func (p Patch[T]) OrZero() T { return p.value }

// NullAs returns the patch with null read as the value v (absent stays
// absent): for fields whose null means a value, an empty text or list.
func (p Patch[T]) NullAs(v T) Patch[T] {
	if p.state == null {
		return Of(v)
	}
	return p
}
