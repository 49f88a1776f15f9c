package app

import (
	"bytes"
	"errors"
	"io"
	"mime"
	"net/http"

	"github.com/99designs/gqlgen/graphql"

	"github.com/reten-io/reten/internal/apperr"
)

// checkBody refuses, before gqlgen decodes it, a request gqlgen would answer
// with a 500 (it cannot present a decoding error) or decode at any cost: a
// batch (a JSON array of operations), a POST body that is not one JSON
// object of the GraphQL request shape, and variables or extensions nested
// deeper than maxVariablesDepth. The body is read once and put back; a
// JSON POST body comes back decoded too, as the POST transport decodes it,
// for graphqlPOST not to decode it again.
func checkBody(req *http.Request) (*graphql.RawParams, error) {
	switch req.Method {
	case http.MethodGet:
		q := req.URL.Query()
		for _, name := range []string{"variables", "extensions"} {
			if jsonDeeperThan([]byte(q.Get(name)), maxVariablesDepth) {
				return nil, apperr.Invalid(msgVariablesTooDeep)
			}
		}
	case http.MethodPost:
		if mt, _, err := mime.ParseMediaType(req.Header.Get("Content-Type")); err != nil || mt != "application/json" {
			return nil, nil // gqlgen answers that no transport serves it
		}
		body, err := io.ReadAll(req.Body)
		if err != nil {
			if _, tooLarge := errors.AsType[*http.MaxBytesError](err); tooLarge {
				return nil, apperr.TooLarge(msgBodyTooLarge)
			}
			return nil, apperr.Invalid(msgRequestBody)
		}
		req.Body = io.NopCloser(bytes.NewReader(body))
		switch trimmed := bytes.TrimLeft(body, " \t\r\n"); {
		case len(trimmed) > 0 && trimmed[0] == '[':
			return nil, apperr.Invalid(msgBatchRequest)
		case len(trimmed) == 0 || trimmed[0] != '{':
			// null would even leave the transport without parameters.
			return nil, apperr.Invalid(msgRequestBody)
		}
		// The body object holds variables and extensions one level down.
		if jsonDeeperThan(body, maxVariablesDepth+1) {
			return nil, apperr.Invalid(msgVariablesTooDeep)
		}
		p, err := decodeParams(body)
		if err != nil {
			return nil, apperr.Invalid(msgRequestBody)
		}
		return p, nil
	}
	return nil, nil
}

// jsonDeeperThan reports whether the JSON text nests objects and arrays
// deeper than limit; it does not validate the text.
func jsonDeeperThan(text []byte, limit int) bool {
	depth := 0
	inString, escaped := false, false
	for _, c := range text {
		switch {
		case inString:
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
		case c == '"':
			inString = true
		case c == '{' || c == '[':
			if depth++; depth > limit {
				return true
			}
		case c == '}' || c == ']':
			depth--
		}
	}
	return false
}
