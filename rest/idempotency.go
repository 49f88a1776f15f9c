package rest

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"

	"github.com/go-chi/chi/v5"

	"github.com/reten-io/reten/internal/apperr"
	"github.com/reten-io/reten/internal/idempotency"
)

// idempotent answers the value of work with status. When the request carries
// an Idempotency-Key, work runs at most once per key (internal/idempotency):
// a retry with the same body gets the first response again, byte for byte,
// with Idempotent-Replayed: true; another body gets 409. raw is the request
// body, already validated as a JSON object.
func (a *api) idempotent(w http.ResponseWriter, r *http.Request, raw []byte, status int,
	work func(ctx context.Context) (any, error)) error {
	keys, sent := r.Header[http.CanonicalHeaderKey(idempotency.Header)]
	if !sent {
		v, err := work(r.Context())
		if err != nil {
			return err
		}
		writeJSON(w, status, v)
		return nil
	}
	if len(keys) != 1 {
		return apperr.Invalid(idempotency.MsgKeyFormat)
	}
	var body any
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber() // numbers hash as sent
	if len(bytes.TrimSpace(raw)) > 0 {
		if err := dec.Decode(&body); err != nil {
			return apperr.Invalid(msgMalformedJSON)
		}
	}
	req := idempotency.Request{Key: keys[0], Method: r.Method, Path: chi.RouteContext(r.Context()).RoutePattern(), Body: body}
	resp, replayed, err := a.Idempotency.Do(r.Context(), req, func(ctx context.Context) (idempotency.Response, error) {
		v, err := work(ctx)
		if err != nil {
			return idempotency.Response{}, err
		}
		b, err := json.Marshal(v)
		// writeJSON's encoder ends the body with a newline: so does a recorded one.
		return idempotency.Response{Status: status, Body: append(b, '\n')}, err
	})
	if err != nil {
		return err
	}
	if replayed {
		w.Header().Set(idempotency.ReplayedHeader, "true")
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(resp.Status)
	_, _ = w.Write(resp.Body)
	return nil
}
