package apperr_test

import (
	"errors"
	"slices"
	"testing"

	"github.com/reten-io/reten/internal/apperr"
)

func TestProblemsLeaveOutRulesOnReportedMembers(t *testing.T) {
	var p apperr.Problems
	if p.Err() != nil || !p.Empty() {
		t.Fatal("the zero value is empty")
	}
	p.Add("occurred_at", "occurred_at must be a valid ISO 8601 date string")
	p.Add("task_result.x", "property task_result.x should not exist")
	p.Rule(true, "occurred_at should not be empty", "occurred_at")
	p.Rule(true, "commerce_external_id should not be empty", "commerce_external_id", "occurred_at")
	p.Rule(true, "status must be one of the following values: A", "status")
	p.Rule(false, "never", "other")
	p.Rule(true, "a rule about no member")
	p.Rules("checked elsewhere")
	want := []string{"occurred_at must be a valid ISO 8601 date string", "property task_result.x should not exist",
		"status must be one of the following values: A", "a rule about no member", "checked elsewhere"}
	if got := p.Messages(); !slices.Equal(got, want) {
		t.Fatalf("messages = %q\nwant %q", got, want)
	}
	if !p.Has("task_result.x") || p.Has("status") {
		t.Error("Has reports the members with a problem")
	}
	var e *apperr.Error
	if !errors.As(p.Err(), &e) || e.Kind != apperr.KindInvalid || !e.List || !slices.Equal(e.Messages, want) {
		t.Fatalf("Err() = %v, want the 400 listing every message", p.Err())
	}
}
