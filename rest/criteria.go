package rest

import (
	"context"
	"net/http"
	"strconv"

	"github.com/google/uuid"

	"github.com/reten-io/reten/internal/apperr"
	"github.com/reten-io/reten/internal/criteria"
	qb "github.com/reten-io/reten/internal/querybuilder"
)

// Shared by the audience and event filter routes: query blocks in, SQL,
// validations, previews and catalog views out.

// jsonValue reads member name as any JSON value, numbers exact, for a
// service that decodes its shape itself (criteria.Decode); present is false
// when the member is missing (null is present).
func (b *body) jsonValue(name string) (v any, present bool) {
	raw, ok := b.fields[name]
	if !ok {
		return nil, false
	}
	exact(raw, &v) // the body parsed: raw is valid JSON
	return v, true
}

// blocksOf reads queryBlocks.
func blocksOf(b *body) any { v, _ := b.jsonValue("queryBlocks"); return v }

// blocksBody reads {queryBlocks}.
var blocksBody = bodyOf(blocksOf, "queryBlocks")

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

// sqlOf answers GET .../:id/sql: a stored definition compiled in the
// query's format.
func sqlOf(call func(ctx context.Context, id uuid.UUID, format string) (*qb.Compiled, error)) handler {
	format := func(r *http.Request) (string, error) { return r.URL.Query().Get("format"), nil }
	return route(http.StatusOK, idParam, format, func(ctx context.Context, ids []uuid.UUID, format string) (*qb.Compiled, error) {
		return call(ctx, ids[0], format)
	}, presentSQL)
}

// sqlRequest is the body of generate-sql: a definition and a format.
type sqlRequest[T any] struct {
	def    T
	format string
}

// generateSQL answers POST .../generate-sql (201) with the SQL of the body's
// definition, read by read; name and description are not part of its body.
func generateSQL[T any](read func(b *body) T, call func(ctx context.Context, def T, format string) (*qb.Compiled, error),
	members ...string) handler {
	dec := bodyOf(func(b *body) sqlRequest[T] {
		format := b.str("format", qb.Formats.Message("format")).OrZero()
		return sqlRequest[T]{def: read(b), format: format}
	}, append(members, "format")...)
	return decoded(http.StatusCreated, dec, func(ctx context.Context, in sqlRequest[T]) (*qb.Compiled, error) {
		return call(ctx, in.def, in.format)
	}, presentSQL)
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

// previewRequest is a definition to run and the query's limit.
type previewRequest[T any] struct {
	def   T
	limit int
}

// previewDecoder reads the query's limit (checked first), then the body.
func previewDecoder[T any](dec decoder[T]) decoder[previewRequest[T]] {
	return func(r *http.Request) (previewRequest[T], error) {
		limit, err := previewLimit(r)
		if err != nil {
			return previewRequest[T]{}, err
		}
		def, err := dec(r)
		return previewRequest[T]{def: def, limit: limit}, err
	}
}

// previewBody answers POST .../preview-from-body (201): the body's
// definition run with the query's limit.
func previewBody[T any](dec decoder[T], run func(ctx context.Context, def T, limit int) (*qb.PreviewResult, error)) handler {
	return decoded(http.StatusCreated, previewDecoder(dec), func(ctx context.Context, in previewRequest[T]) (*qb.PreviewResult, error) {
		return run(ctx, in.def, in.limit)
	}, same)
}

// emptyBody reads a body that must have no members.
var emptyBody = bodyOf(func(*body) struct{} { return struct{}{} })

// previewStored answers POST .../:id/preview (201): a stored definition run
// with the query's limit; the body, if any, must be empty.
func previewStored(run func(ctx context.Context, id uuid.UUID, limit int) (*qb.PreviewResult, error)) handler {
	return route(http.StatusCreated, idParam, previewDecoder(emptyBody),
		func(ctx context.Context, ids []uuid.UUID, in previewRequest[struct{}]) (*qb.PreviewResult, error) {
			return run(ctx, ids[0], in.limit)
		}, same)
}

// columnsOf answers GET .../tables/:tableName/columns with the table
// presented by present.
func columnsOf[D any](call func(ctx context.Context, table string) (*qb.Table, error), present func(*qb.Table) D) handler {
	return func(w http.ResponseWriter, r *http.Request) error {
		return writer(w, http.StatusOK, present)(call(r.Context(), urlParam(r, "tableName")))
	}
}
