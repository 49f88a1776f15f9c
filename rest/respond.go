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
	"encoding/json"
	"log/slog"
	"net/http"
	"strconv"
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

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

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
	writeJSON(w, e.Status(), errorBody{StatusCode: e.Status(), Error: e.StatusText(), Message: e.Message(), Code: e.Code,
		Details: e.Details})
}
