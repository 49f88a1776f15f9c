// Package ent holds the generated data layer; schemas live in ent/schema.
package ent

//go:generate go run -mod=mod entc.go
