package activity_test

import (
	"slices"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/reten-io/reten/internal/activity"
)

// TestCreateInputRefusesRepeatedAttributeKeys: keys are unique whatever the
// adapter (GraphQL sends a list that may repeat one).
func TestCreateInputRefusesRepeatedAttributeKeys(t *testing.T) {
	at := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
	in := activity.CreateInput{CommerceID: uuid.New(), Type: "TASK", Channel: "PUSH", ScheduledAt: &at,
		Attributes: []activity.Attribute{{Key: "k", Value: "a"}, {Key: "j", Value: "b"}}}
	if got := in.Validate(); len(got) != 0 {
		t.Fatalf("distinct keys: %v", got)
	}
	in.Attributes = append(in.Attributes, activity.Attribute{Key: "k", Value: "c"}, activity.Attribute{Key: " ", Value: "d"})
	want := []string{activity.MsgAttributeKeyEmpty, activity.MsgAttributeKeyDuplicate}
	if got := in.Validate(); !slices.Equal(got, want) {
		t.Fatalf("Validate() = %q, want %q", got, want)
	}
}
