package app

import (
	"context"

	"github.com/99designs/gqlgen/graphql"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/vektah/gqlparser/v2/ast"

	"github.com/reten-io/reten/graph/compiled"
	"github.com/reten-io/reten/graph/generated"
)

// compiledConnections answers the connection of a root query field with
// the compiled writers (graph/generated/compiled_gen.go, with
// graph/compiled's Writer) instead of gqlgen's executor. gqlgen still
// resolves the field: its arguments, every field middleware, its resolver.
// Then the innermost field middleware (field) hands the value to the
// writer and gives gqlgen the zero value of its type in its place, which
// the root field's exec code does not marshal: it answers the writer's
// JSON instead (compiled.Written, graph/gen's skipWritten). When the
// writer declines (a field it does not compile, a null in a non-null
// field), gqlgen marshals the value as ever.
type compiledConnections struct {
	written, interpreted prometheus.Counter
}

func newCompiledConnections(reg prometheus.Registerer) *compiledConnections {
	total := prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "reten_graphql_compiled_connections_total",
		Help: "Connections of root query fields by how they were written: compiled (graph/compiled) or interpreted (gqlgen's executor, for a selection the writers do not compile).",
	}, []string{"writer"})
	reg.MustRegister(total)
	return &compiledConnections{written: total.WithLabelValues("compiled"), interpreted: total.WithLabelValues("interpreted")}
}

func (*compiledConnections) ExtensionName() string                   { return "CompiledConnections" }
func (*compiledConnections) Validate(graphql.ExecutableSchema) error { return nil }

// InterceptRootField gives each root query field of a compiled type its
// hand-over.
func (*compiledConnections) InterceptRootField(ctx context.Context, next graphql.RootResolver) graphql.Marshaler {
	if graphql.GetOperationContext(ctx).Operation.Operation != ast.Query ||
		!generated.CompiledConnection(graphql.GetRootFieldContext(ctx).Field.Definition.Type.Name()) {
		return next(ctx)
	}
	ctx, _ = compiled.WithHandover(ctx)
	return next(ctx)
}

// field is the innermost field middleware: at a root query field it runs
// the resolver, with the context the other middlewares made, and writes.
func (c *compiledConnections) field(ctx context.Context, next graphql.Resolver) (any, error) {
	root := compiled.GetHandover(ctx)
	if root == nil || root.Claimed {
		return next(ctx)
	}
	root.Claimed = true
	res, err := next(ctx)
	if err != nil {
		return res, err
	}
	out, zero, ok := compiled.Write(ctx, graphql.GetFieldContext(ctx).Field, res, guardField, generated.WriteCompiled)
	if !ok {
		c.interpreted.Inc()
		return res, nil
	}
	c.written.Inc()
	root.Out = out
	return zero, nil
}
