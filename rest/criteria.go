package rest

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"strconv"

	"github.com/google/uuid"

	"github.com/reten-io/reten/internal/apperr"
	"github.com/reten-io/reten/internal/criteria"
	qb "github.com/reten-io/reten/internal/querybuilder"
)

// Shared by the audience and event filter routes: query blocks in, SQL and
// previews out.

// queryBlocks parses the queryBlocks member of a body (numbers kept exact)
// for criteria.Decode; present is false when the body has none.
func queryBlocks(b *body) (v any, present bool) {
	raw, ok := b.fields["queryBlocks"]
	if !ok {
		return nil, false
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		return nil, true // cannot happen: the body parsed; Decode reports the shape
	}
	return v, true
}

// sqlView is IEventCriteriaSql (SPEC.md), discriminated by format: params
// and types only in the parameterized format.
type sqlView struct {
	Format        qb.Format          `json:"format"`
	Query         string             `json:"query"`
	FinalCteName  string             `json:"finalCteName"`
	SubjectColumn *string            `json:"subjectColumn"`
	Params        *map[string]any    `json:"params,omitempty"`
	Types         *map[string]string `json:"types,omitempty"`
}

func presentSQL(c *qb.Compiled) sqlView {
	v := sqlView{Format: c.Format, Query: c.Query, FinalCteName: c.FinalCteName, SubjectColumn: c.SubjectColumn}
	if c.Format == qb.Parameterized {
		params, types := c.Params, c.Types
		if params == nil {
			params, types = map[string]any{}, map[string]string{}
		}
		v.Params, v.Types = &params, &types
	}
	return v
}

// previewLimit reads the `limit` query parameter of the preview routes.
func previewLimit(r *http.Request) (int, error) {
	raw := r.URL.Query().Get("limit")
	if raw == "" {
		return criteria.ParseLimit(nil)
	}
	n, err := strconv.Atoi(raw)
	if err != nil {
		return 0, apperr.Validation(criteria.MsgLimitInteger)
	}
	return criteria.ParseLimit(&n)
}

// previewStored answers POST .../:id/preview: a stored definition run with
// the limit of the query string; the body, if any, must be empty.
func previewStored[T any](w http.ResponseWriter, r *http.Request, run func(ctx context.Context, id uuid.UUID, limit int) (T, error)) error {
	id, err := pathUUID(r, "id")
	if err != nil {
		return err
	}
	limit, err := previewLimit(r)
	if err != nil {
		return err
	}
	b, err := decodeBody(r)
	if err != nil {
		return err
	}
	if err := b.err(); err != nil {
		return err
	}
	res, err := run(r.Context(), id, limit)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusCreated, res)
	return nil
}
