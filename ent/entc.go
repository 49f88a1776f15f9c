//go:build ignore

// entc.go drives ent code generation with the entgql extension; run through
// `go generate ./ent` (make generate).
package main

import (
	"log"

	"entgo.io/contrib/entgql"
	"entgo.io/ent/entc"
	"entgo.io/ent/entc/gen"

	"github.com/reten-io/reten/ent/gqldoc/describe"
	"github.com/reten-io/reten/ent/gqlenum"
	"github.com/reten-io/reten/ent/gqlid"
)

func main() {
	// entgql's templates, the connection query patched (see the template).
	paginate := gen.MustParse(gen.NewTemplate("entgql_paginate").Funcs(entgql.TemplateFuncs).
		ParseFiles("./entgqltemplate/paginate.tmpl"))
	ex, err := entgql.NewExtension(
		entgql.WithTemplates(append(entgql.AllTemplates, paginate)...),
		entgql.WithSchemaGenerator(),
		entgql.WithWhereInputs(true),
		entgql.WithConfigPath("../gqlgen.yml"),
		entgql.WithSchemaPath("../schema/ent.graphql"),
		// Descriptions of the generated types, filters, orders and enum values.
		entgql.WithSchemaHook(describe.Hook),
		// Every uuid is an ID, like the ids of nodes and edges.
		entgql.WithSchemaHook(gqlid.Hook),
		// An enum-typed string field filters like an enum.
		entgql.WithSchemaHook(gqlenum.Hook),
	)
	if err != nil {
		log.Fatalf("creating entgql extension: %v", err)
	}
	opts := []entc.Option{
		entc.Extensions(ex),
		// Client.DataScope (template/data_scope.tmpl): the data layer's scope
		// for the subqueries of where-input edge filters.
		entc.TemplateDir("./template"),
		entc.FeatureNames(
			"privacy",
			"entql",
			"intercept",
			"schema/snapshot",
			"sql/upsert",
			"sql/lock",
			"sql/modifier",
			"sql/execquery",
			"sql/versioned-migration",
			"namedges",
		),
	}
	if err := entc.Generate("./schema", &gen.Config{}, opts...); err != nil {
		log.Fatalf("running ent codegen: %v", err)
	}
}
