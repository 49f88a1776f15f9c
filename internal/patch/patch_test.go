package patch_test

import (
	"testing"

	"github.com/reten-io/reten/internal/patch"
)

func TestThreeStates(t *testing.T) {
	var absent patch.Patch[string]
	null := patch.Null[string]()
	value := patch.Of("x")
	cases := []struct {
		name         string
		p            patch.Patch[string]
		sent, isNull bool
		ptr          *string
		orZero       string
	}{
		{"absent", absent, false, false, nil, ""},
		{"null", null, true, true, nil, ""},
		{"value", value, true, false, new("x"), "x"},
	}
	for _, c := range cases {
		if c.p.Sent() != c.sent || c.p.IsNull() != c.isNull || c.p.OrZero() != c.orZero {
			t.Errorf("%s: sent %v null %v zero %q", c.name, c.p.Sent(), c.p.IsNull(), c.p.OrZero())
		}
		if got := c.p.Ptr(); (got == nil) != (c.ptr == nil) || got != nil && *got != *c.ptr {
			t.Errorf("%s: Ptr() = %v", c.name, got)
		}
		if _, ok := c.p.Get(); ok != (c.name == "value") {
			t.Errorf("%s: Get() ok = %v", c.name, ok)
		}
	}
	if v, ok := null.NullAs("").Get(); !ok || v != "" {
		t.Errorf("null.NullAs(\"\") = %q %v, want a value", v, ok)
	}
	if absent.NullAs("").Sent() {
		t.Error("absent.NullAs stays absent")
	}
	if v, _ := value.NullAs("").Get(); v != "x" {
		t.Errorf("value.NullAs = %q", v)
	}
}

func TestFromArgs(t *testing.T) {
	yes, no := true, false
	cases := []struct {
		name         string
		v            *string
		clear        *bool
		sent, isNull bool
		ok           bool
		want         string
	}{
		{"neither", nil, nil, false, false, true, ""},
		{"value", new("a"), nil, true, false, true, "a"},
		{"clear", nil, &yes, true, true, true, ""},
		{"clear false", new("a"), &no, true, false, true, "a"},
		{"both", new("a"), &yes, true, true, false, ""},
	}
	for _, c := range cases {
		p, ok := patch.FromArgs(c.v, c.clear)
		if ok != c.ok || p.Sent() != c.sent || p.IsNull() != c.isNull || p.OrZero() != c.want {
			t.Errorf("%s: ok %v sent %v null %v value %q", c.name, ok, p.Sent(), p.IsNull(), p.OrZero())
		}
	}
	if patch.FromPtr[int](nil).Sent() {
		t.Error("FromPtr(nil) is absent")
	}
}
