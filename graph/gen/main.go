// Command gen regenerates the GraphQL server (make generate): gqlgen's own
// code generation (gqlgen.yml), plus the compiled connection writers of
// graph/compiled, which it derives from the same bindings.
package main

import (
	"log"

	"github.com/99designs/gqlgen/api"
	"github.com/99designs/gqlgen/codegen/config"
)

func main() {
	cfg, err := config.LoadConfigFromDefaultLocations()
	if err != nil {
		log.Fatalf("gqlgen config: %v", err)
	}
	if err := api.Generate(cfg, api.AddPlugin(compiledWriters{filename: "graph/compiled/writers_gen.go"})); err != nil {
		log.Fatalf("gqlgen: %v", err)
	}
}
