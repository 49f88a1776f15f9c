// Command openapidoc writes the OpenAPI document that the service serves at
// /api/openapi.yaml (rest.OpenAPI) to a file, for the linters of
// make lint-openapi.
package main

import (
	"fmt"
	"os"

	"github.com/reten-io/reten/rest"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: openapidoc FILE")
		os.Exit(2)
	}
	if err := os.WriteFile(os.Args[1], rest.OpenAPI, 0o644); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
