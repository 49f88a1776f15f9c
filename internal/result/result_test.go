package result

import (
	"slices"
	"testing"
	"time"

	"github.com/google/uuid"
)

func ptr[T any](v T) *T { return &v }

func TestInputValidate(t *testing.T) {
	at := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
	ok := Input{ActivityID: ptr(uuid.New()), OccurredAt: &at, Status: ptr(StatusCompleted), TaskResult: &TaskResult{Result: ptr("success")}}
	if got := ok.Validate(); len(got) != 0 {
		t.Fatalf("valid input: %v", got)
	}
	cases := []struct {
		name string
		edit func(*Input)
		want []string
	}{
		{"empty", func(in *Input) { *in = Input{} }, []string{MsgOccurredAtRequired, MsgStatusEnum, MsgCommerceExtRequire, MsgTaskResultRequired}},
		{"no commerce without activity", func(in *Input) { in.ActivityID = nil }, []string{MsgCommerceExtRequire}},
		{"empty commerce", func(in *Input) { in.ActivityID, in.CommerceExternalID = nil, ptr("") }, []string{MsgCommerceExtRequire}},
		{"commerce without activity", func(in *Input) { in.ActivityID, in.CommerceExternalID = nil, ptr("C1") }, nil},
		{"status", func(in *Input) { in.Status = ptr("DONE") }, []string{MsgStatusEnum}},
		{"result", func(in *Input) { in.TaskResult = &TaskResult{Result: ptr("")} }, []string{MsgResultRequired}},
		{"contact type", func(in *Input) { in.TaskResult = &TaskResult{Result: ptr("x"), ContactType: ptr("PHONE")} }, []string{MsgContactTypeEnum}},
	}
	for _, c := range cases {
		in := ok
		c.edit(&in)
		if got := in.Validate(); !slices.Equal(got, c.want) {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}

func TestPatchValidate(t *testing.T) {
	if got := (Patch{}).Validate(); !slices.Equal(got, []string{MsgOccurredAtRequired}) {
		t.Fatalf("empty patch: %v", got)
	}
	at := time.Now()
	got := Patch{OccurredAt: &at, Status: ptr("X"), TaskResult: &TaskResult{Result: ptr(""), ContactType: ptr("Y")}}.Validate()
	if !slices.Equal(got, []string{MsgStatusEnum, MsgResultRequired, MsgContactTypeEnum}) {
		t.Fatalf("patch: %v", got)
	}
}
