package fields_test

import (
	"slices"
	"testing"

	"github.com/reten-io/reten/internal/fields"
)

func TestItemCount(t *testing.T) {
	for n, want := range map[int][]string{
		0: {"items must contain at least 1 elements"}, 1: nil, 3: nil,
		4: {"items must contain no more than 3 elements"},
	} {
		if got := fields.ItemCount(n, 3); !slices.Equal(got, want) {
			t.Errorf("ItemCount(%d, 3) = %q, want %q", n, got, want)
		}
	}
}

func TestCodesRepeat(t *testing.T) {
	codes := fields.Codes{}
	var got []string
	for i, code := range []string{"a", "b", "a", "b", "a"} {
		if msg, repeated := codes.Repeat(i, code); repeated {
			got = append(got, msg)
		}
	}
	want := []string{`items.2.code "a" duplicates items.0.code`, `items.3.code "b" duplicates items.1.code`,
		`items.4.code "a" duplicates items.0.code`}
	if !slices.Equal(got, want) {
		t.Fatalf("Repeat messages = %q, want %q", got, want)
	}
}

func TestSet(t *testing.T) {
	var set []string
	v := "x"
	fields.Set(nil, func(s string) { set = append(set, s) })
	fields.Set(&v, func(s string) { set = append(set, s) })
	if !slices.Equal(set, []string{"x"}) {
		t.Fatalf("Set wrote %q, want only x", set)
	}
}
