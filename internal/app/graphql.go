package app

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"maps"
	"net/http"
	"strings"

	"github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/handler"
	"github.com/99designs/gqlgen/graphql/handler/extension"
	"github.com/99designs/gqlgen/graphql/handler/lru"
	"github.com/99designs/gqlgen/graphql/handler/transport"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/graph"
	"github.com/reten-io/reten/graph/generated"
	"github.com/reten-io/reten/internal/apperr"
	"github.com/reten-io/reten/internal/auth"
	"github.com/reten-io/reten/internal/ratelimit"
	"github.com/reten-io/reten/internal/tenancy"
	"github.com/reten-io/reten/internal/viewer"
	"github.com/reten-io/reten/rest"
)

// graphqlHandler serves /graphql: credentials are resolved like a
// project-optional REST route (x-project-id is validated when sent), then the
// query runs with the viewer in context. A mutation's service method owns
// its transaction (internal/txn), as it does for REST.
//
// conns, when not nil, writes the connections of root query fields
// (graph/compiled); nil leaves every field to gqlgen's executor.
func graphqlHandler(client *ent.Client, tenancyResolver *tenancy.Resolver, limiter *ratelimit.Limiter, r *graph.Resolver, conns *compiledConnections) http.Handler {
	es := generated.NewExecutableSchema(generated.Config{Resolvers: r})
	srv := handler.New(es)
	srv.AddTransport(transport.Options{})
	srv.AddTransport(transport.GET{})
	srv.AddTransport(graphqlPOST{})
	srv.SetQueryCache(lru.New[*ast.QueryDocument](1000))
	srv.Use(extension.Introspection{})
	srv.Use(extension.AutomaticPersistedQuery{Cache: lru.New[string](100)})
	// After persisted queries, so that it sees the query a hash stands for.
	srv.Use(newRequestLimits(es))
	mws := []graphql.FieldMiddleware{
		fieldGuard(es.Schema()),
		whereScope(client), // edge filters get the data layer's tenant/project scope
		pageWindow(es.Schema()),
		mutationSelection(es.Schema()), // services commit: refuse before writing
		graph.InputNames(es.Schema()),  // messages name the GraphQL input members
	}
	// The compiled writers run none of these below a root field. They write
	// only fields without arguments, of which the others check nothing and
	// fieldGuard only guardField, which they ask of every object field. A
	// middleware that acts on such a field must be asked by them too
	// (graph/compiled.Guard).
	if conns != nil {
		srv.Use(conns)
		mws = append(mws, conns.field) // innermost: it sees the resolver's context and value
	}
	srv.AroundFields(skipLeaves(es.Schema(), mws...))
	srv.SetErrorPresenter(presentGraphQLError)
	srv.SetRecoverFunc(func(ctx context.Context, p any) error {
		slog.ErrorContext(ctx, "graphql panic", "panic", p)
		return apperr.Internal(errors.New("panic in resolver"))
	})
	return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		if req.Method == http.MethodOptions {
			srv.ServeHTTP(w, req)
			return
		}
		v, err := tenancyResolver.Resolve(req.Context(), rest.CredentialsFrom(req), tenancy.ProjectOptional)
		if err == nil {
			err = limiter.Credential(w, req, v)
		}
		if err != nil {
			writeGraphQLError(w, req.Context(), err)
			return
		}
		lw, lreq, err := limitRequest(w, req.WithContext(viewer.NewContext(req.Context(), v)))
		if err != nil {
			writeGraphQLError(w, req.Context(), err)
			return
		}
		srv.ServeHTTP(lw, lreq)
	})
}

// fieldGuard authorises every field resolution:
//   - a root field (Query or Mutation) must be in tenancy.Matrix: the
//     field is admitted to its line (tenancy.Admit: the project the scope
//     needs, then the permission, the SPEC.md order) before the resolver
//     decodes anything, and the access goes into the context of the
//     resolver and of the fields below it, where services read tenant,
//     project and principal. A tenant-level field's access has no project,
//     as on REST; the viewer keeps the request's project, so the edges the
//     document selects stay narrowed to it;
//   - any other field returning an entity (or a connection of it) needs that
//     entity's read permission, so edges cannot reach data the typed queries
//     would refuse: project { rootAudience } needs audience-criteria:view.
//     The fields of Viewer describe the caller and are exempt;
//   - a where argument may filter only on entities the caller may read
//     (projects(where: {hasRootAudienceWith: ...}) needs audience-criteria:view),
//     so filters cannot probe data either.
func fieldGuard(schema *ast.Schema) graphql.FieldMiddleware {
	return func(ctx context.Context, next graphql.Resolver) (any, error) {
		fc := graphql.GetFieldContext(ctx)
		if fc == nil || fc.Field.Definition == nil || guardExempt(fc.Object, fc.Field.Definition) {
			return next(ctx)
		}
		// ArgumentMap evaluates every argument: only when where is given or defaulted.
		if where := fc.Field.Definition.Arguments.ForName("where"); where != nil &&
			(where.DefaultValue != nil || fc.Field.Arguments.ForName("where") != nil) {
			raw := fc.Field.ArgumentMap(graphql.GetOperationContext(ctx).Variables)["where"]
			if err := checkWhere(ctx, schema, where.Type.Name(), raw); err != nil {
				return nil, err
			}
		}
		if fc.Object == "Query" || fc.Object == "Mutation" {
			e, ok := tenancy.Lookup(fc.Object + "." + fc.Field.Name)
			if !ok {
				return nil, apperr.Forbidden("Operation " + fc.Object + "." + fc.Field.Name + " is not authorised")
			}
			ctx, err := tenancy.Admit(ctx, viewer.FromContext(ctx), e)
			if err != nil {
				return nil, err
			}
			return next(ctx)
		}
		if err := guardField(ctx, fc.Object, fc.Field.Definition); err != nil {
			return nil, err
		}
		return next(ctx)
	}
}

// guardExempt: the fields of Viewer describe the caller; introspection
// describes the schema.
func guardExempt(object string, field *ast.FieldDefinition) bool {
	return object == "Viewer" || strings.HasPrefix(field.Name, "__")
}

// guardField is fieldGuard's check of a field below the root (its where
// argument aside): the read permission of the entity it returns. The
// compiled connections (graph/compiled) ask it of the fields they write.
func guardField(ctx context.Context, object string, field *ast.FieldDefinition) error {
	if guardExempt(object, field) {
		return nil
	}
	return requireRead(ctx, entityOf(field))
}

// entityOf is the entity a field returns: its type without Connection or Edge.
func entityOf(field *ast.FieldDefinition) string {
	return strings.TrimSuffix(strings.TrimSuffix(field.Type.Name(), "Connection"), "Edge")
}

// requireRead checks the read permission of an entity type, if it has one.
func requireRead(ctx context.Context, entity string) error {
	if perm, known := auth.ViewPermission(entity); known && perm != "" {
		return auth.Require(viewer.FromContext(ctx), perm)
	}
	return nil
}

// checkWhere walks a where-input value of input type typeName and requires
// the read permission of every entity it filters on (hasXWith nests XWhereInput).
func checkWhere(ctx context.Context, schema *ast.Schema, typeName string, value any) error {
	if value == nil {
		return nil
	}
	if err := requireRead(ctx, strings.TrimSuffix(typeName, "WhereInput")); err != nil {
		return err
	}
	switch v := value.(type) {
	case []any:
		for _, item := range v {
			if err := checkWhere(ctx, schema, typeName, item); err != nil {
				return err
			}
		}
	case map[string]any:
		def := schema.Types[typeName]
		if def == nil {
			return nil
		}
		for key, sub := range v {
			if f := def.Fields.ForName(key); f != nil && strings.HasSuffix(f.Type.Name(), "WhereInput") {
				if err := checkWhere(ctx, schema, f.Type.Name(), sub); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// presentGraphQLError maps typed errors to GraphQL errors with
// extensions.code and extensions.statusCode, the same mapping REST uses.
func presentGraphQLError(ctx context.Context, err error) *gqlerror.Error {
	var gqlErr *gqlerror.Error
	if errors.As(err, &gqlErr) && gqlErr.Err == nil {
		return gqlErr // parse and validation errors: already presented
	}
	if gqlErr != nil {
		if bad, ok := argumentError(ctx, gqlErr); ok {
			err = &gqlerror.Error{Err: bad, Message: bad.Error(), Path: gqlErr.Path}
		}
	}
	out := graphql.DefaultErrorPresenter(ctx, err)
	e := apperr.Normalize(err)
	switch e.Kind {
	case apperr.KindInternal:
		slog.ErrorContext(ctx, "graphql resolver failed", "err", err)
	case apperr.KindUnavailable:
		slog.WarnContext(ctx, "graphql resolver unavailable", "err", err)
	}
	out.Message = strings.Join(e.Messages, "; ")
	if out.Extensions == nil {
		out.Extensions = map[string]any{}
	}
	out.Extensions["code"] = e.GraphQLCode()
	out.Extensions["statusCode"] = e.Status()
	maps.Copy(out.Extensions, e.Details)
	if e.List {
		out.Extensions["messages"] = e.Messages
	}
	return out
}

// writeGraphQLError answers a request that failed before execution
// (authentication, tenant or project context) with a GraphQL error body and
// the HTTP status REST would use.
func writeGraphQLError(w http.ResponseWriter, ctx context.Context, err error) {
	e := apperr.Normalize(err)
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(e.Status())
	_ = json.NewEncoder(w).Encode(map[string]any{"errors": []*gqlerror.Error{presentGraphQLError(ctx, e)}})
}
