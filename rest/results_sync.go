package rest

import (
	"net/http"

	"github.com/reten-io/reten/internal/result"
)

// syncPageDTO is the body of GET /api/activity-results/tasks/sync.
type syncPageDTO struct {
	Data       []resultDTO `json:"data"`
	NextCursor *string     `json:"nextCursor"`
	HasMore    bool        `json:"hasMore"`
}

// syncResults answers GET /api/activity-results/tasks/sync (tenant-level):
// the results changed after `since`, in (updatedAt, id) order.
func (a *api) syncResults(w http.ResponseWriter, r *http.Request) error {
	q := r.URL.Query()
	limit, err := result.ParseSyncLimit(q.Get("limit"))
	if err != nil {
		return err
	}
	page, err := a.Results.Sync(r.Context(), q.Get("since"), limit)
	if err != nil {
		return err
	}
	out := syncPageDTO{Data: make([]resultDTO, 0, len(page.Results)), HasMore: page.HasMore}
	for _, res := range page.Results {
		out.Data = append(out.Data, presentResult(res))
	}
	if page.NextCursor != "" {
		out.NextCursor = &page.NextCursor
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}
