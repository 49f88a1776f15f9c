// Command gen regenerates the GraphQL server (make generate): gqlgen's own
// code generation (gqlgen.yml), plus the compiled connection writers
// (graph/generated/compiled_gen.go, writing with graph/compiled), which it
// derives from the same bindings; then Exec takes the input unmarshallers'
// map built once (unmarshalers.go), and the root query fields the writers
// wrote answer the writers' JSON instead of marshalling what gqlgen was
// handed in its place (written.go).
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
	// The files written beside gqlgen's go first: gqlgen compiles what it
	// generates, and they may name what it no longer does.
	dir := filepath.Dir(cfg.Exec.Filename)
	for _, name := range []string{"unmarshalers_gen.go", "compiled_gen.go"} {
		if err := os.Remove(filepath.Join(dir, name)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			log.Fatal(err)
		}
	}
	writers := &compiledWriters{filename: filepath.Join(dir, "compiled_gen.go")}
	if err := api.Generate(cfg, api.AddPlugin(writers)); err != nil {
		log.Fatalf("gqlgen: %v", err)
	}
	if err := shareUnmarshalers(cfg.Exec.Filename); err != nil {
		log.Fatal(err)
	}
	if err := skipWritten(cfg.Exec.Filename, writers.roots); err != nil {
		log.Fatal(err)
	}
}
