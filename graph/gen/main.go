// Command gen regenerates the GraphQL server (make generate): gqlgen's own
// code generation (gqlgen.yml), plus the compiled connection writers of
// graph/compiled, which it derives from the same bindings; then Exec takes
// the input unmarshallers' map built once (unmarshalers.go).
package main

import (
	"errors"
	"io/fs"
	"log"
	"os"
	"path/filepath"

	"github.com/99designs/gqlgen/api"
	"github.com/99designs/gqlgen/codegen/config"
)

func main() {
	cfg, err := config.LoadConfigFromDefaultLocations()
	if err != nil {
		log.Fatalf("gqlgen config: %v", err)
	}
	// Exec's old rewrite goes first: gqlgen compiles what it generates.
	if err := os.Remove(filepath.Join(filepath.Dir(cfg.Exec.Filename), "unmarshalers_gen.go")); err != nil && !errors.Is(err, fs.ErrNotExist) {
		log.Fatal(err)
	}
	if err := api.Generate(cfg, api.AddPlugin(compiledWriters{filename: "graph/compiled/writers_gen.go"})); err != nil {
		log.Fatalf("gqlgen: %v", err)
	}
	if err := shareUnmarshalers(cfg.Exec.Filename); err != nil {
		log.Fatal(err)
	}
}
