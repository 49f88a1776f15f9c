package result

import (
	"slices"
	"testing"

	"github.com/reten-io/reten/internal/apperr"
)

// TestValidateLeavesOutRulesOnMembersTheAdapterReported: a member the
// adapter could not read is reported once, by its type message; an
// activity_id that could not be read switches the commerce reference rule
// off (it may have named an activity).
func TestValidateLeavesOutRulesOnMembersTheAdapterReported(t *testing.T) {
	var p apperr.Problems
	p.Add("activity_id", "activity_id must be a UUID")
	p.Add("occurred_at", "occurred_at must be a valid ISO 8601 date string")
	p.Add("task_result.result", "task_result.result must be a string")
	in := Input{Status: ptr("X"), TaskResult: &TaskResult{ContactType: ptr("Q")}, Problems: p}
	want := []string{"activity_id must be a UUID", "occurred_at must be a valid ISO 8601 date string",
		"task_result.result must be a string", MsgStatusEnum, MsgContactTypeEnum}
	if got := in.Validate(); !slices.Equal(got, want) {
		t.Fatalf("Validate() = %q\nwant %q", got, want)
	}
	var tp apperr.Problems
	tp.Add("task_result", "task_result must be an object")
	if got := (Input{Problems: tp}).Validate(); !slices.Equal(got, []string{"task_result must be an object",
		MsgOccurredAtRequired, MsgStatusEnum, MsgCommerceExtRequire}) {
		t.Fatalf("task_result unread: %q", got)
	}
	if err := (Patch{Problems: tp}).Validate(); !slices.Equal(err, []string{"task_result must be an object", MsgOccurredAtRequired}) {
		t.Fatalf("patch: %q", err)
	}
}
