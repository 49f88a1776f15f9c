package app

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strings"

	"github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/errcode"
	"github.com/99designs/gqlgen/graphql/handler/transport"
	"github.com/vektah/gqlparser/v2/gqlerror"
)

// graphqlPOST is gqlgen's POST transport (transport.POST, with its default
// options: what it accepts, the content type it answers, its status codes
// and messages) but for how it writes an answer. transport.POST has
// encoding/json marshal the response, which checks and compacts the data
// gqlgen has just written compact: about a tenth of the CPU of a request
// for a connection. graphqlPOST writes an answer of data alone as it is,
// {"data":...}. The bytes are the same (TestGraphQLPOSTMatchesGqlgen): any
// other answer (errors, extensions, a deferred part), data holding a
// character encoding/json escapes (<, >, &, U+2028, U+2029) and data with
// a line break (gqlgen's Map and Any marshallers end theirs with one, which
// compaction drops) still go through encoding/json. gqlgen's other
// marshallers, and ours, write no space outside strings. It takes the body
// checkBody (limitRequest) has decoded rather than decoding it again.
type graphqlPOST struct{ transport.POST }

func (graphqlPOST) Do(w http.ResponseWriter, r *http.Request, exec graphql.GraphExecutor) {
	ctx := r.Context()
	contentType := responseContentType(r.Header.Get("Accept"))
	w.Header().Add("Content-Type", contentType)
	start := graphql.Now()
	var params *graphql.RawParams
	if rw, ok := ctx.Value(refusalKey{}).(*refusalWriter); ok && rw.params != nil {
		params = rw.params // checkBody decoded the body
	} else {
		body, err := io.ReadAll(r.Body)
		if err != nil {
			writeGraphQLResponse(w, exec.DispatchError(ctx, gqlerror.List{gqlerror.Errorf("could not read request body: %+v", err)}))
			return
		}
		if params, err = decodeParams(body); err != nil {
			w.WriteHeader(http.StatusBadRequest)
			writeGraphQLResponse(w, exec.DispatchError(ctx, gqlerror.List{gqlerror.Errorf(
				"json request body could not be decoded: %+v body:%s", err, string(body))}))
			return
		}
	}
	params.Headers = r.Header
	params.ReadTime = graphql.TraceTiming{Start: start, End: graphql.Now()}
	op, errs := exec.CreateOperationContext(ctx, params)
	if errs != nil {
		status := http.StatusOK
		if errcode.GetErrorKind(errs) == errcode.KindProtocol {
			status = http.StatusUnprocessableEntity
			if contentType == graphqlResponseJSON {
				status = http.StatusBadRequest
			}
		}
		w.WriteHeader(status)
		writeGraphQLResponse(w, exec.DispatchError(graphql.WithOperationContext(ctx, op), errs))
		return
	}
	responses, ctx := exec.DispatchOperation(ctx, op)
	writeGraphQLResponse(w, responses(ctx))
}

// decodeParams decodes a POST body as gqlgen's POST transport does.
func decodeParams(body []byte) (*graphql.RawParams, error) {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var p *graphql.RawParams
	if err := dec.Decode(&p); err != nil {
		return nil, err
	}
	if p == nil { // a body of null, which leaves gqlgen's transport without parameters (checkBody refuses it)
		p = &graphql.RawParams{}
	}
	return p, nil
}

const graphqlResponseJSON = "application/graphql-response+json"

// responseContentType is the content type transport.POST answers a request
// accepting accept with.
func responseContentType(accept string) string {
	if accept == "" {
		return "application/json"
	}
	for part := range strings.SplitSeq(accept, ",") {
		mediaType, _, err := mime.ParseMediaType(strings.TrimSpace(part))
		if err != nil {
			continue
		}
		switch mediaType {
		case "*/*", "application/*", "application/json":
			return "application/json"
		case graphqlResponseJSON:
			return graphqlResponseJSON
		}
	}
	return graphqlResponseJSON
}

// writeGraphQLResponse writes res as encoding/json would.
func writeGraphQLResponse(w io.Writer, res *graphql.Response) {
	if len(res.Errors) == 0 && res.Label == "" && len(res.Path) == 0 && res.HasNext == nil && len(res.Extensions) == 0 && !reencoded(res.Data) {
		data := res.Data
		if len(data) == 0 {
			data = json.RawMessage("null")
		}
		_, _ = io.WriteString(w, `{"data":`)
		_, _ = w.Write(data)
		_, _ = io.WriteString(w, "}")
		return
	}
	b, err := json.Marshal(res)
	if err != nil {
		panic(fmt.Errorf("unable to marshal %s: %w", string(res.Data), err))
	}
	_, _ = w.Write(b)
}

// reencoded reports whether encoding/json would write data otherwise:
// it holds <, >, &, U+2028 or U+2029 (whose UTF-8 starts with 0xE2), which
// it escapes, or a line break, which it drops.
func reencoded(data []byte) bool {
	for _, c := range []byte{'<', '>', '&', 0xE2, '\n'} {
		if bytes.IndexByte(data, c) >= 0 {
			return true
		}
	}
	return false
}
