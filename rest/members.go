package rest

import (
	"bytes"
	"encoding/json"
	"math"
	"time"

	"github.com/google/uuid"

	"github.com/reten-io/reten/internal/patch"
)

// The types a member can have, as a wrong type names them: "<path> must be
// <kind>" ("is_active must be a boolean value").
const (
	kindString    = "a string"
	kindBool      = "a boolean value"
	kindInt       = "an integer number"
	kindNumber    = "a number"
	kindObject    = "an object"
	kindArray     = "an array"
	kindStrings   = "an array of strings"
	kindUUID      = "a UUID"
	kindInstant   = "a valid ISO 8601 date string"
	kindStringMap = "an object whose values are strings"
)

// read decodes member name of b with parse. Missing is absent, null is null
// (neither is a problem: the service decides what they mean); a value parse
// refuses records the type message and reads as absent. The type message is
// "<path> must be <kind>", or msg[0] where the contract spells it otherwise
// (an enum's message, a SPEC.md text): the override stands at the call and,
// in a nested object, follows the object's path ("users.0.<msg>").
func read[T any](b *body, name, kind string, msg []string, parse func(json.RawMessage) (T, bool)) patch.Patch[T] {
	raw, ok := b.fields[name]
	switch {
	case !ok:
		return patch.Patch[T]{}
	case string(raw) == "null":
		return patch.Null[T]()
	}
	v, ok := parse(raw)
	if !ok {
		b.fail(name, b.typeMessage(name, kind, msg))
		return patch.Patch[T]{}
	}
	return patch.Of(v)
}

func (b *body) typeMessage(name, kind string, msg []string) string {
	if len(msg) > 0 {
		return b.at(msg[0])
	}
	return b.at(name) + " must be " + kind
}

// unmarshal is the parse of a member that encoding/json reads as a T.
func unmarshal[T any](raw json.RawMessage) (v T, ok bool) { return v, json.Unmarshal(raw, &v) == nil }

// exact decodes raw into v keeping numbers as sent (json.Number).
func exact(raw json.RawMessage, v any) bool {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	return dec.Decode(v) == nil
}

// str reads a string member.
func (b *body) str(name string, msg ...string) patch.Patch[string] {
	return read(b, name, kindString, msg, unmarshal[string])
}

// text reads a member as a string whatever its JSON type (another type reads
// as its JSON text): for an enum member whose value rule reports it.
func (b *body) text(name string) patch.Patch[string] {
	return read(b, name, kindString, nil, func(raw json.RawMessage) (string, bool) {
		if s, ok := unmarshal[string](raw); ok {
			return s, true
		}
		return string(raw), true
	})
}

// boolean reads a boolean member.
func (b *body) boolean(name string, msg ...string) patch.Patch[bool] {
	return read(b, name, kindBool, msg, unmarshal[bool])
}

// integer reads an integer number as JavaScript counts it (1.0 is one) of
// at most 32 bits' magnitude.
func (b *body) integer(name string) patch.Patch[int] {
	return read(b, name, kindInt, nil, func(raw json.RawMessage) (int, bool) {
		f, ok := unmarshal[float64](raw)
		if !ok || f != math.Trunc(f) || math.Abs(f) > math.MaxInt32 {
			return 0, false
		}
		return int(f), true
	})
}

// intLiteral reads an integer written without fraction or exponent (a
// numeric string passes too) in the int32 range: the AGC lifecycle bodies'
// reading of their integers.
func (b *body) intLiteral(name string) patch.Patch[int] {
	return read(b, name, kindInt, nil, func(raw json.RawMessage) (int, bool) {
		var num json.Number
		if !exact(raw, &num) {
			return 0, false
		}
		i, err := num.Int64()
		if err != nil || i > math.MaxInt32 || i < math.MinInt32 {
			return 0, false
		}
		return int(i), true
	})
}

// number reads a number member.
func (b *body) number(name string) patch.Patch[float64] {
	return read(b, name, kindNumber, nil, unmarshal[float64])
}

// uuid reads a UUID written as a string.
func (b *body) uuid(name string, msg ...string) patch.Patch[uuid.UUID] {
	return read(b, name, kindUUID, msg, func(raw json.RawMessage) (uuid.UUID, bool) {
		s, ok := unmarshal[string](raw)
		if !ok {
			return uuid.Nil, false
		}
		id, err := uuid.Parse(s)
		return id, err == nil
	})
}

// uuidOf parses a string member already read (a wrong type reported as "must
// be a string") as a UUID: the AGC bodies' reading of their ids.
func (b *body) uuidOf(name string, s patch.Patch[string]) patch.Patch[uuid.UUID] {
	v, ok := s.Get()
	if !ok {
		if s.IsNull() {
			return patch.Null[uuid.UUID]()
		}
		return patch.Patch[uuid.UUID]{}
	}
	id, err := uuid.Parse(v)
	if err != nil {
		b.fail(name, b.typeMessage(name, kindUUID, nil))
		return patch.Patch[uuid.UUID]{}
	}
	return patch.Of(id)
}

// instant reads an ISO 8601 instant written as a string.
func (b *body) instant(name string) patch.Patch[time.Time] {
	return read(b, name, kindInstant, nil, func(raw json.RawMessage) (time.Time, bool) {
		s, ok := unmarshal[string](raw)
		if !ok {
			return time.Time{}, false
		}
		t, err := time.Parse(time.RFC3339Nano, s)
		return t, err == nil
	})
}

// strs reads an array of strings (never nil when sent).
func (b *body) strs(name string) patch.Patch[[]string] {
	return read(b, name, kindStrings, nil, func(raw json.RawMessage) ([]string, bool) {
		v, ok := unmarshal[[]string](raw)
		if ok && v == nil {
			v = []string{}
		}
		return v, ok
	})
}

// uuids reads an array of UUIDs: "each value in <path> must be a UUID"
// answers anything else.
func (b *body) uuids(name string) patch.Patch[[]uuid.UUID] {
	msg := "each value in " + name + " must be " + kindUUID
	return read(b, name, kindUUID, []string{msg}, func(raw json.RawMessage) ([]uuid.UUID, bool) {
		strs, ok := unmarshal[[]string](raw)
		out := make([]uuid.UUID, 0, len(strs))
		for _, s := range strs {
			id, err := uuid.Parse(s)
			if err != nil {
				return nil, false
			}
			out = append(out, id)
		}
		return out, ok
	})
}

// object reads a JSON object member with any members, numbers kept exact
// (json.Number).
func (b *body) object(name string) patch.Patch[map[string]any] {
	return read(b, name, kindObject, nil, func(raw json.RawMessage) (m map[string]any, ok bool) {
		return m, exact(raw, &m) && m != nil
	})
}

// floatObject reads a JSON object member whose numbers read as float64 (the
// activity commands store their detail so).
func (b *body) floatObject(name string) patch.Patch[map[string]any] {
	return read(b, name, kindObject, nil, func(raw json.RawMessage) (map[string]any, bool) {
		m, ok := unmarshal[map[string]any](raw)
		return m, ok && m != nil
	})
}

// rawObject reads a JSON object member kept as sent.
func (b *body) rawObject(name string) patch.Patch[json.RawMessage] {
	return read(b, name, kindObject, nil, func(raw json.RawMessage) (json.RawMessage, bool) {
		m, ok := unmarshal[map[string]json.RawMessage](raw)
		return raw, ok && m != nil
	})
}

// strMap reads a JSON object whose members are all strings.
func (b *body) strMap(name string) patch.Patch[map[string]string] {
	return read(b, name, kindStringMap, nil, func(raw json.RawMessage) (map[string]string, bool) {
		m, ok := unmarshal[map[string]string](raw)
		return m, ok && m != nil
	})
}

// array reads an array member as its raw elements (decode them with elem or
// itemBody).
func (b *body) array(name string) patch.Patch[[]json.RawMessage] {
	return read(b, name, kindArray, nil, unmarshal[[]json.RawMessage])
}

// requiredArray is array for a member that must be sent: missing or null
// records the type message too.
func (b *body) requiredArray(name string) []json.RawMessage {
	items := b.array(name)
	b.require(name, kindArray)
	return items.OrZero()
}
