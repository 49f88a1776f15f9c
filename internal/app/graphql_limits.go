package app

import (
	"context"
	"fmt"
	"net/http"

	"github.com/99designs/gqlgen/complexity"
	"github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/handler/lru"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/reten-io/reten/internal/apperr"
)

// GraphQL limits (README "GraphQL limits"). The document limits bound the
// work of parsing and validating a request before gqlgen validates it:
// validation compares same-named fields pairwise, so an unbounded document
// costs quadratic time. Depth and complexity bound what an operation runs;
// connections are priced by their page (graphql_paging.go).
const (
	maxDocumentBytes   = 32 << 10 // the query text
	maxDocumentTokens  = 4000     // lexical tokens of the query text
	maxSelections      = 3000     // field selections, each fragment counted at every spread
	maxFieldRepeats    = 20       // selections of one response name at one place of the response
	maxQueryDepth      = 12       // nesting of fields; introspection (__schema, __type) is exempt
	maxQueryComplexity = 10000    // gqlgen's complexity, page sizes multiplying their selections
	maxVariablesDepth  = 32       // nesting of the variables (and extensions) values
)

// Messages of the limits, one per rule.
var (
	msgDocumentTooLarge  = fmt.Sprintf("The GraphQL document is larger than %d bytes", maxDocumentBytes)
	msgTooManyTokens     = fmt.Sprintf("The GraphQL document has more than %d tokens", maxDocumentTokens)
	msgTooManySelections = fmt.Sprintf("The GraphQL document selects more than %d fields (a fragment counts at every spread)", maxSelections)
	msgQueryTooDeep      = fmt.Sprintf("query is nested deeper than %d levels", maxQueryDepth)
	msgVariablesTooDeep  = fmt.Sprintf("variables and extensions must not be nested deeper than %d levels", maxVariablesDepth)
	msgBatchRequest      = "Batched operations are not supported: send one operation per request"
	msgRequestBody       = "The request body must be a JSON object {query, operationName, variables, extensions}"
)

// msgFieldRepeated names the response name selected too often.
func msgFieldRepeated(name string) string {
	return fmt.Sprintf("Field %q is selected more than %d times at one place of the response", name, maxFieldRepeats)
}

// msgFragmentCycle names a fragment that spreads itself.
func msgFragmentCycle(name string) string {
	return fmt.Sprintf("Fragment %q spreads itself", name)
}

// msgTooComplex keeps gqlgen's wording of the complexity limit.
func msgTooComplex(got int) string {
	return fmt.Sprintf("operation has complexity %d, which exceeds the limit of %d", got, maxQueryComplexity)
}

// requestLimits is the gqlgen extension that enforces the document limits
// before parsing and validation, and the complexity limit before execution.
// It must be registered after AutomaticPersistedQuery so that it sees the
// query a persisted hash stands for.
type requestLimits struct {
	costs graphql.ExecutableSchema
	// approved remembers documents that passed, so a repeated query is not
	// lexed and walked again (gqlgen caches its parse the same way).
	approved *lru.LRU[bool]
	// priced remembers the complexity of operations without variables,
	// which depends on their document alone, by operation name and query.
	priced *lru.LRU[int]
}

var _ interface {
	graphql.HandlerExtension
	graphql.OperationParameterMutator
	graphql.OperationContextMutator
} = requestLimits{}

// newRequestLimits prices operations with es's complexity plus the page
// sizes of connections.
func newRequestLimits(es graphql.ExecutableSchema) requestLimits {
	return requestLimits{costs: newCostedSchema(es), approved: lru.New[bool](1000), priced: lru.New[int](1000)}
}

func (requestLimits) ExtensionName() string                   { return "RequestLimits" }
func (requestLimits) Validate(graphql.ExecutableSchema) error { return nil }

// MutateOperationParameters refuses a document over the size, token,
// selection, repetition or depth limits before gqlgen parses or validates it.
func (l requestLimits) MutateOperationParameters(ctx context.Context, p *graphql.RawParams) *gqlerror.Error {
	if _, ok := l.approved.Get(ctx, p.Query); ok {
		return nil
	}
	if msg := checkDocument(p.Query); msg != "" {
		return refuse(ctx, msg)
	}
	l.approved.Add(ctx, p.Query, true)
	return nil
}

// MutateOperationContext refuses an operation whose complexity is over
// maxQueryComplexity before anything runs.
func (l requestLimits) MutateOperationContext(ctx context.Context, oc *graphql.OperationContext) *gqlerror.Error {
	if oc.Operation == nil {
		return nil
	}
	if c := l.price(ctx, oc); c > maxQueryComplexity {
		return refuse(ctx, msgTooComplex(c))
	}
	return nil
}

// price is the operation's complexity, computed once for an
// operation without variables.
func (l requestLimits) price(ctx context.Context, oc *graphql.OperationContext) int {
	if len(oc.Operation.VariableDefinitions) > 0 {
		return complexity.Calculate(ctx, l.costs, oc.Operation, oc.Variables)
	}
	key := oc.OperationName + "\x00" + oc.RawQuery
	if c, ok := l.priced.Get(ctx, key); ok {
		return c
	}
	c := complexity.Calculate(ctx, l.costs, oc.Operation, nil)
	l.priced.Add(ctx, key, c)
	return c
}

// refuse is a request-level 400: the same extensions as every other error
// (code BAD_REQUEST, statusCode 400) and the same HTTP status.
func refuse(ctx context.Context, msg string) *gqlerror.Error {
	e := apperr.Invalid(msg)
	if w, ok := ctx.Value(refusalKey{}).(*refusalWriter); ok {
		w.status = e.Status()
	}
	return &gqlerror.Error{Message: msg, Extensions: map[string]any{"code": e.GraphQLCode(), "statusCode": e.Status()}}
}

type refusalKey struct{}

// refusalWriter answers with the status an extension refused the request
// with: gqlgen's transports answer 200 to any error that is not a parse or
// validation failure.
type refusalWriter struct {
	http.ResponseWriter
	status int
	wrote  bool
	params *graphql.RawParams // the POST body checkBody decoded, for graphqlPOST
}

func (w *refusalWriter) WriteHeader(code int) {
	if w.wrote {
		return
	}
	w.wrote = true
	if w.status != 0 {
		code = w.status
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *refusalWriter) Write(b []byte) (int, error) {
	if !w.wrote {
		w.WriteHeader(http.StatusOK)
	}
	return w.ResponseWriter.Write(b)
}

// limitRequest refuses a request whose body breaks the limits gqlgen
// cannot report itself (a batch, a body that is not one JSON object,
// variables nested too deep), and otherwise returns the writer and request
// to serve it with, so the extension's refusals answer 400 too.
func limitRequest(w http.ResponseWriter, req *http.Request) (http.ResponseWriter, *http.Request, error) {
	params, err := checkBody(req)
	if err != nil {
		return w, req, err
	}
	rw := &refusalWriter{ResponseWriter: w, params: params}
	return rw, req.WithContext(context.WithValue(req.Context(), refusalKey{}, rw)), nil
}
