package rest

import (
	"context"
	"net/http"

	"github.com/google/uuid"

	"github.com/reten-io/reten/internal/engine"
	qb "github.com/reten-io/reten/internal/querybuilder"
)

// lifecycleSQLView is the classification statement of an AGC.
type lifecycleSQLView struct {
	Dialect string         `json:"dialect"`
	Query   string         `json:"query"`
	Params  map[string]any `json:"params"`
}

func presentLifecycleSQL(c *qb.Compiled) lifecycleSQLView {
	return lifecycleSQLView{Dialect: c.Dialect, Query: c.Query, Params: engine.Params(c)}
}

// lifecycleSQL answers GET /activity-generation-configs/:id/lifecycle-sql
// (query parameters dialect and as_of).
func (a *api) lifecycleSQL() handler {
	options := func(r *http.Request) (engine.SQLInput, error) {
		q := r.URL.Query()
		return engine.SQLInput{Dialect: q.Get("dialect"), AsOf: q.Get("as_of")}, nil
	}
	return route(http.StatusOK, idParam, options, func(ctx context.Context, ids []uuid.UUID, in engine.SQLInput) (*qb.Compiled, error) {
		return a.Engine.SQL(ctx, ids[0], in)
	}, presentLifecycleSQL)
}
