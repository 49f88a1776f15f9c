package paging

import (
	"errors"
	"slices"
	"testing"
)

func ptr(n int) *int { return &n }

func TestWindow(t *testing.T) {
	cases := []struct {
		name                string
		first, last         *int
		wantFirst, wantLast *int
		msgs                []string
	}{
		{"neither: the default page", nil, nil, ptr(DefaultPerPage), nil, nil},
		{"first", ptr(1), nil, ptr(1), nil, nil},
		{"first at the bound", ptr(MaxPerPage), nil, ptr(MaxPerPage), nil, nil},
		{"last", nil, ptr(MaxPerPage), nil, ptr(MaxPerPage), nil},
		{"first over", ptr(MaxPerPage + 1), nil, nil, nil, []string{MsgFirstTooMany}},
		{"last over", nil, ptr(1000000), nil, nil, []string{MsgLastTooMany}},
		{"first zero", ptr(0), nil, nil, nil, []string{MsgFirstTooFew}},
		{"last negative", nil, ptr(-1), nil, nil, []string{MsgLastTooFew}},
		{"both", ptr(1), ptr(1), nil, nil, []string{MsgFirstWithLast}},
		{"every rule", ptr(0), ptr(101), nil, nil, []string{MsgFirstTooFew, MsgLastTooMany, MsgFirstWithLast}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			first, last, msgs := Window(c.first, c.last)
			if !slices.Equal(msgs, c.msgs) {
				t.Fatalf("messages = %q, want %q", msgs, c.msgs)
			}
			if c.msgs == nil && (!same(first, c.wantFirst) || !same(last, c.wantLast)) {
				t.Fatalf("window = %v, %v; want %v, %v", deref(first), deref(last), deref(c.wantFirst), deref(c.wantLast))
			}
		})
	}
	if MsgFirstTooMany != "first must not be greater than 100" || MsgLastTooFew != "last must not be less than 1" {
		t.Fatalf("messages: %q, %q", MsgFirstTooMany, MsgLastTooFew)
	}
}

func TestWindowSize(t *testing.T) {
	cases := []struct {
		first, last *int
		want        int
	}{
		{nil, nil, DefaultPerPage},
		{ptr(10), nil, 10},
		{nil, ptr(7), 7},
		{ptr(1000000), nil, MaxPerPage},
		{ptr(-5), nil, 1},
		{ptr(3), ptr(40), 40},
	}
	for _, c := range cases {
		if got := WindowSize(c.first, c.last); got != c.want {
			t.Errorf("WindowSize(%v, %v) = %d, want %d", deref(c.first), deref(c.last), got, c.want)
		}
	}
}

func same(a, b *int) bool { return (a == nil) == (b == nil) && (a == nil || *a == *b) }

func deref(p *int) any {
	if p == nil {
		return nil
	}
	return *p
}

func TestMap(t *testing.T) {
	l := &List[int]{Items: []int{1, 2, 3}, Total: 7, Page: Page{Page: 2, PerPage: 3}}
	got, err := Map(l, func(n int) (string, error) { return string(rune('a' + n)), nil })
	if err != nil || !slices.Equal(got.Items, []string{"b", "c", "d"}) || got.Total != 7 || got.Page != l.Page {
		t.Fatalf("Map = %+v, %v", got, err)
	}
	stop := errors.New("stop")
	if got, err := Map(l, func(n int) (int, error) {
		if n == 2 {
			return 0, stop
		}
		return n, nil
	}); got != nil || !errors.Is(err, stop) {
		t.Fatalf("Map with an error = %+v, %v", got, err)
	}
}
