package rest

import (
	"context"
	"net/http"

	"github.com/google/uuid"

	"github.com/reten-io/reten/internal/paging"
)

// handler answers one REST route.
type handler = func(w http.ResponseWriter, r *http.Request) error

// The handlers below are the shapes most routes share (decode, one service
// call, present); a route with its own shape has its own handler.

// decoder reads a request body into a service input.
type decoder[T any] func(r *http.Request) (T, error)

// bodyOf is the decoder of a body whose members must be in members: read
// takes them into the input; any type error or unknown member is a 400
// before the service is called.
func bodyOf[T any](read func(b *body) T, members ...string) decoder[T] {
	return func(r *http.Request) (T, error) {
		b, err := decodeBody(r, members...)
		if err != nil {
			var zero T
			return zero, err
		}
		in := read(b)
		return in, b.err()
	}
}

// writer writes the outcome of a service call: the presented value with
// status, or the error.
func writer[T, D any](w http.ResponseWriter, status int, present func(T) D) func(T, error) error {
	return func(v T, err error) error {
		if err != nil {
			return err
		}
		writeJSON(w, status, present(v))
		return nil
	}
}

// same presents a value as the service returns it.
func same[T any](v T) T { return v }

// all answers with the presented list call returns.
func all[T, D any](call func(context.Context) ([]T, error), present func(T) D) handler {
	return func(w http.ResponseWriter, r *http.Request) error {
		return writer(w, http.StatusOK, each(present))(call(r.Context()))
	}
}

// one answers with the presented value call returns.
func one[T, D any](call func(context.Context) (T, error), present func(T) D) handler {
	return func(w http.ResponseWriter, r *http.Request) error {
		return writer(w, http.StatusOK, present)(call(r.Context()))
	}
}

// route is the general shape: the path's UUID parameters (params, in
// order; a wrong one is a 400 before the body is read), the decoded body,
// one service call, its presented value answered with status.
func route[In, T, D any](status int, params []string, dec decoder[In],
	call func(ctx context.Context, ids []uuid.UUID, in In) (T, error), present func(T) D) handler {
	return func(w http.ResponseWriter, r *http.Request) error {
		ids, err := pathIDs(r, params...)
		if err != nil {
			return err
		}
		in, err := dec(r)
		if err != nil {
			return err
		}
		return writer(w, status, present)(call(r.Context(), ids, in))
	}
}

// idParam is the path of a route on one record: {id}.
var idParam = []string{"id"}

// noBody is the decoder of a route that reads no body.
func noBody(*http.Request) (struct{}, error) { return struct{}{}, nil }

// pathIDs parses the path's UUID parameters, in order.
func pathIDs(r *http.Request, names ...string) ([]uuid.UUID, error) {
	ids := make([]uuid.UUID, len(names))
	for i, name := range names {
		id, err := pathUUID(r, name)
		if err != nil {
			return nil, err
		}
		ids[i] = id
	}
	return ids, nil
}

// byID answers with the presented value call returns for the path's id.
func byID[T, D any](call func(context.Context, uuid.UUID) (T, error), present func(T) D) handler {
	return route(http.StatusOK, idParam, noBody, func(ctx context.Context, ids []uuid.UUID, _ struct{}) (T, error) {
		return call(ctx, ids[0])
	}, present)
}

// removed answers 204 once call has removed the record the path's UUID
// parameters name.
func removed(params []string, call func(ctx context.Context, ids []uuid.UUID) error) handler {
	return func(w http.ResponseWriter, r *http.Request) error {
		ids, err := pathIDs(r, params...)
		if err != nil {
			return err
		}
		if err := call(r.Context(), ids); err != nil {
			return err
		}
		w.WriteHeader(http.StatusNoContent)
		return nil
	}
}

// removeByID answers 204 once call has removed the record of the path's id.
func removeByID(call func(context.Context, uuid.UUID) error) handler {
	return removed(idParam, func(ctx context.Context, ids []uuid.UUID) error { return call(ctx, ids[0]) })
}

// discard drops the value of a call whose route answers without it.
func discard[T any](call func(context.Context, uuid.UUID) (T, error)) func(context.Context, uuid.UUID) error {
	return func(ctx context.Context, id uuid.UUID) error {
		_, err := call(ctx, id)
		return err
	}
}

// decoded answers status with the presented value call returns for the
// decoded body.
func decoded[In, T, D any](status int, dec decoder[In], call func(context.Context, In) (T, error), present func(T) D) handler {
	return route(status, nil, dec, func(ctx context.Context, _ []uuid.UUID, in In) (T, error) { return call(ctx, in) }, present)
}

// withID answers status with the presented value call returns for the
// path's id and the decoded body.
func withID[In, T, D any](status int, dec decoder[In], call func(context.Context, uuid.UUID, In) (T, error),
	present func(T) D) handler {
	return route(status, idParam, dec, func(ctx context.Context, ids []uuid.UUID, in In) (T, error) {
		return call(ctx, ids[0], in)
	}, present)
}

// update is withID answering 200 (a PATCH or PUT of the path's record).
func update[In, T, D any](dec decoder[In], call func(context.Context, uuid.UUID, In) (T, error), present func(T) D) handler {
	return withID(http.StatusOK, dec, call, present)
}

// paged answers a page of a list as {data, meta}: page and per_page, then
// the filter read from the query string (each reader adds its broken
// rules; all of them make one 400).
func paged[F, T, D any](filter func(q *query) F, call func(context.Context, F, paging.Page) (*paging.List[T], error),
	present func(T) D) handler {
	return func(w http.ResponseWriter, r *http.Request) error {
		q := queryOf(r)
		p := q.page()
		f := filter(q)
		if err := q.err(); err != nil {
			return err
		}
		return writer(w, http.StatusOK, func(l *paging.List[T]) pageOf[D] { return presentPage(l, present) })(call(listContext(r, p), f, p))
	}
}

// snakePaged answers a page of a snake_case list as {data, pagination}: page
// and per_page are read first (400 on either), then call reads the page.
func snakePaged[T, D any](call func(r *http.Request, p paging.Page) (*paging.List[T], error), present func(T) D) handler {
	return func(w http.ResponseWriter, r *http.Request) error {
		p, err := pageParams(r)
		if err != nil {
			return err
		}
		l, err := call(r.WithContext(listContext(r, p)), p)
		if err != nil {
			return err
		}
		writeJSON(w, http.StatusOK, presentSnakePage(l.Items, l.Total, p, present))
		return nil
	}
}

// search is the filter of the lists that only search.
func search(q *query) string { return q.Get("search") }

// pages answers a page of an unfiltered list as {data, meta}.
func pages[T, D any](call func(context.Context, paging.Page) (*paging.List[T], error), present func(T) D) handler {
	return pagesUnder(nil, func(ctx context.Context, _ []uuid.UUID, p paging.Page) (*paging.List[T], error) { return call(ctx, p) }, present)
}

// pagesUnder answers a page of the records under the path's UUID
// parameters (a commerce's addresses) as {data, meta}.
func pagesUnder[T, D any](params []string, call func(context.Context, []uuid.UUID, paging.Page) (*paging.List[T], error),
	present func(T) D) handler {
	return func(w http.ResponseWriter, r *http.Request) error {
		ids, err := pathIDs(r, params...)
		if err != nil {
			return err
		}
		return paged(func(*query) struct{} { return struct{}{} }, func(ctx context.Context, _ struct{}, p paging.Page) (*paging.List[T], error) {
			return call(ctx, ids, p)
		}, present)(w, r)
	}
}
