// Command contract writes a published contract of the service to a file,
// as the service serves it: `contract openapi FILE` the OpenAPI document of
// /api/openapi.yaml (for make lint-openapi), `contract sdl FILE` the GraphQL
// SDL of /graphql/schema.graphql (for make codegen-check).
package main

import (
	"fmt"
	"os"

	"github.com/reten-io/reten/graph/generated"
	"github.com/reten-io/reten/internal/web"
	"github.com/reten-io/reten/rest"
)

func main() {
	docs := map[string]func() []byte{
		"openapi": func() []byte { return rest.OpenAPI() },
		"sdl":     func() []byte { return web.FormatSDL(generated.NewExecutableSchema(generated.Config{}).Schema()) },
	}
	var doc func() []byte
	if len(os.Args) == 3 {
		doc = docs[os.Args[1]]
	}
	if doc == nil {
		fmt.Fprintln(os.Stderr, "usage: contract openapi|sdl FILE")
		os.Exit(2)
	}
	if err := os.WriteFile(os.Args[2], doc(), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
