// Command graphqlsdl writes the GraphQL SDL that the service serves at
// /graphql/schema.graphql to a file, for GraphQL Code Generator in
// make codegen-check.
package main

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"

	"github.com/reten-io/reten/graph/generated"
	"github.com/reten-io/reten/internal/web"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: graphqlsdl FILE")
		os.Exit(2)
	}
	rec := httptest.NewRecorder()
	web.SDL(generated.NewExecutableSchema(generated.Config{}).Schema()).ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/graphql/schema.graphql", nil))
	if rec.Code != http.StatusOK {
		fmt.Fprintf(os.Stderr, "graphqlsdl: the SDL handler answered %d\n", rec.Code)
		os.Exit(1)
	}
	if err := os.WriteFile(os.Args[1], rec.Body.Bytes(), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
