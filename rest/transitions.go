package rest

import (
	"net/http"
	"time"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/internal/paging"
	"github.com/reten-io/reten/internal/snapshot"
)

// transitionView is a transition of a commerce's retention state, snake_case
// like the snapshots. from_stage and from_code are null on a creation,
// run_id on a write through the API.
type transitionView struct {
	ID                         uuid.UUID  `json:"id"`
	CommerceID                 uuid.UUID  `json:"commerce_id"`
	ActivityGenerationConfigID uuid.UUID  `json:"activity_generation_config_id"`
	FromStage                  *string    `json:"from_stage"`
	FromCode                   *string    `json:"from_code"`
	ToStage                    string     `json:"to_stage"`
	ToCode                     string     `json:"to_code"`
	StateChangedAt             time.Time  `json:"state_changed_at"`
	LastComputedAt             time.Time  `json:"last_computed_at"`
	ConfigHash                 *string    `json:"config_hash"`
	RunID                      *uuid.UUID `json:"run_id"`
	Source                     string     `json:"source"`
	CreatedAt                  time.Time  `json:"created_at"`
}

func presentTransition(t *ent.CommerceLifecycleTransition) transitionView {
	v := transitionView{ID: t.ID, CommerceID: t.CommerceID, ActivityGenerationConfigID: t.ActivityGenerationConfigID,
		FromCode: t.FromCode, ToStage: string(t.ToStage), ToCode: t.ToCode, StateChangedAt: t.StateChangedAt.UTC(),
		LastComputedAt: t.LastComputedAt.UTC(), ConfigHash: t.ConfigHash, RunID: t.RunID, Source: string(t.Source),
		CreatedAt: t.CreatedAt.UTC()}
	if t.FromStage != nil {
		s := string(*t.FromStage)
		v.FromStage = &s
	}
	return v
}

// listTransitions answers GET /commerce-lifecycle-transitions.
func (a *api) listTransitions() handler {
	return snakePaged(func(r *http.Request, p paging.Page) (*paging.List[*ent.CommerceLifecycleTransition], error) {
		q := r.URL.Query()
		return a.Snapshots.Transitions(r.Context(), snapshot.TransitionFilter{CommerceID: q.Get("commerce_id"),
			AGCID: q.Get("activity_generation_config_id"), Since: q.Get("since"), Source: q.Get("source"), RunID: q.Get("run_id")}, p)
	}, presentTransition)
}

// transitionHistory answers GET /commerce-lifecycle-snapshots/{commerceIdentifier}/history.
func (a *api) transitionHistory() handler {
	return snakePaged(func(r *http.Request, p paging.Page) (*paging.List[*ent.CommerceLifecycleTransition], error) {
		return a.Snapshots.History(r.Context(), urlParam(r, "commerceIdentifier"), r.URL.Query().Get("activity_generation_config_id"), p)
	}, presentTransition)
}
