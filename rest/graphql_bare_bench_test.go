package rest_test

import (
	"context"
	"database/sql"
	"fmt"
	"net/http/httptest"

	"entgo.io/contrib/entgql"
	"github.com/99designs/gqlgen/graphql/handler"
	"github.com/99designs/gqlgen/graphql/handler/lru"
	"github.com/99designs/gqlgen/graphql/handler/transport"
	"github.com/google/uuid"
	"github.com/vektah/gqlparser/v2/ast"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/graph"
	"github.com/reten-io/reten/graph/generated"
)

// bareGqlgen serves POST /graphql with gqlgen alone, as its documentation
// sets a server up (handler.New, the POST transport, a query cache), over
// the service's schema: no authentication, no middleware, no extension,
// gqlgen's own executor writing the answer. Its activities resolver runs
// st, the statement the service runs for the request, prepared once over
// the service's pool, scans the rows into ent nodes by column name and
// returns the first of them as a connection: the least a service that
// answers with gqlgen's executor spends on the request.
func (c *costBench) bareGqlgen(st statement, first int) *httptest.Server {
	stmt, err := c.l.db.Prepare(st.query)
	if err != nil {
		c.b.Fatal(err)
	}
	c.b.Cleanup(func() { _ = stmt.Close() })
	q := &bareQuery{stmt: stmt, args: st.args, first: first}
	srv := handler.New(generated.NewExecutableSchema(generated.Config{Resolvers: bareRoot{Resolver: &graph.Resolver{}, q: q}}))
	srv.AddTransport(transport.POST{})
	srv.SetQueryCache(lru.New[*ast.QueryDocument](1000))
	hs := httptest.NewServer(srv)
	c.b.Cleanup(hs.Close)
	return hs
}

type bareRoot struct {
	*graph.Resolver
	q *bareQuery
}

func (r bareRoot) Query() generated.QueryResolver { return r.q }

// bareQuery answers activities; the other fields of Query are the
// service's resolver's, never called.
type bareQuery struct {
	generated.QueryResolver
	stmt  *sql.Stmt
	args  []any
	first int
}

func (q *bareQuery) Activities(ctx context.Context, _ *entgql.Cursor[uuid.UUID], _ *int, _ *entgql.Cursor[uuid.UUID], _ *int,
	_ *ent.ActivityOrder, _ *ent.ActivityWhereInput) (*ent.ActivityConnection, error) {
	rows, err := q.stmt.QueryContext(ctx, q.args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return nil, err
	}
	conn := &ent.ActivityConnection{}
	dest := make([]any, len(cols))
	for rows.Next() {
		if len(conn.Edges) == q.first {
			conn.PageInfo.HasNextPage = true
			break
		}
		n := &ent.Activity{}
		for i, col := range cols {
			if dest[i], err = activityColumn(n, col); err != nil {
				return nil, err
			}
		}
		if err := rows.Scan(dest...); err != nil {
			return nil, err
		}
		conn.Edges = append(conn.Edges, &ent.ActivityEdge{Node: n, Cursor: entgql.Cursor[uuid.UUID]{ID: n.ID}})
	}
	if len(conn.Edges) > 0 {
		conn.PageInfo.StartCursor = &conn.Edges[0].Cursor
		conn.PageInfo.EndCursor = &conn.Edges[len(conn.Edges)-1].Cursor
	}
	return conn, rows.Err()
}

// activityColumn is where the column col of a row goes in n.
func activityColumn(n *ent.Activity, col string) (any, error) {
	switch col {
	case "id":
		return &n.ID, nil
	case "type":
		return &n.Type, nil
	case "channel":
		return &n.Channel, nil
	case "status":
		return &n.Status, nil
	case "scheduled_at":
		return &n.ScheduledAt, nil
	case "title":
		return &n.Title, nil
	case "tenant_id":
		return &n.TenantID, nil
	case "project_id":
		return &n.ProjectID, nil
	}
	return nil, fmt.Errorf("column %s: not one the request selects", col)
}
