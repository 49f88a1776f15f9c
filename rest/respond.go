// Package rest is the chi adapter for /api: the route table, credential and
// permission checks, strict DTO decoding and presenters in the casing SPEC.md
// documents. It decides nothing itself; services in internal/ do.
//
// routes.go pairs every REST line of tenancy.Matrix with its handler, most
// of them one of the shapes of handlers.go (decode, one service call,
// present). Bodies are read by the path-aware decoder of decode.go and
// members.go: a wrong type says "<path> must be <kind>" by itself, members
// read as patch.Patch (absent, null or a value) and the service decides
// what null means. present.go holds the presenters every domain shares;
// each domain's file holds its DTOs, bodies and presenters.
package rest

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/reten-io/reten/internal/apperr"
)

// errorBody is the SPEC.md error envelope.
type errorBody struct {
	StatusCode int    `json:"statusCode"`
	Error      string `json:"error"`
	Message    any    `json:"message"`
	Code       string `json:"code,omitempty"`
	// Details are the members a coded error adds (apperr.Error.Details).
	Details map[string]any `json:"-"`
}

// MarshalJSON writes the envelope followed by the details' members.
func (b errorBody) MarshalJSON() ([]byte, error) {
	type envelope errorBody
	out, err := json.Marshal(envelope(b))
	if err != nil || len(b.Details) == 0 {
		return out, err
	}
	extra, err := json.Marshal(b.Details)
	if err != nil {
		return nil, err
	}
	return append(append(out[:len(out)-1], ','), extra[1:]...), nil
}

// writeJSON encodes v whole before it writes anything, so the answer
// carries its Content-Length (net/http chunks a longer body of unknown
// length, in more writes) and a value that fails to encode answers the 500
// envelope, not a cut body under the status.
func writeJSON(w http.ResponseWriter, status int, v any) {
	buf := bodies.Get().(*bytes.Buffer)
	defer func() {
		if buf.Cap() <= maxPooledBody {
			buf.Reset()
			bodies.Put(buf)
		}
	}()
	if err := json.NewEncoder(buf).Encode(v); err != nil {
		slog.Error("encode response", "err", err)
		e := apperr.Internal(err)
		status = e.Status()
		buf.Reset()
		_ = json.NewEncoder(buf).Encode(envelope(e))
	}
	h := w.Header()
	h.Set("Content-Type", "application/json; charset=utf-8")
	h.Set("Content-Length", strconv.Itoa(buf.Len()))
	w.WriteHeader(status)
	_, _ = w.Write(buf.Bytes())
}

// bodies holds the buffers writeJSON encodes into; one grown past
// maxPooledBody (a page of large records) is left to the collector.
var bodies = sync.Pool{New: func() any { return new(bytes.Buffer) }}

const maxPooledBody = 64 << 10

// WriteError writes err as the error envelope; unexpected errors are logged
// and answered with a 500 that reveals nothing.
func WriteError(w http.ResponseWriter, r *http.Request, err error) {
	e := apperr.Normalize(err)
	switch e.Kind {
	case apperr.KindInternal:
		slog.ErrorContext(r.Context(), "request failed", "err", err, "method", r.Method, "path", r.URL.Path)
	case apperr.KindUnavailable:
		slog.WarnContext(r.Context(), "request unavailable", "err", err, "method", r.Method, "path", r.URL.Path)
	}
	if e.RetryAfter > 0 {
		w.Header().Set("Retry-After", strconv.Itoa(int(e.RetryAfter.Round(time.Second)/time.Second)))
	}
	writeJSON(w, e.Status(), envelope(e))
}

// envelope is e as the error envelope.
func envelope(e *apperr.Error) errorBody {
	return errorBody{StatusCode: e.Status(), Error: e.StatusText(), Message: e.Message(), Code: e.Code, Details: e.Details}
}
