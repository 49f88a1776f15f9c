// Package graph holds the gqlgen resolvers. They stay thin: decode, call the
// same service method REST calls, return. Generated exec code is in
// graph/generated.
package graph

import (
	"github.com/reten-io/reten/internal/apikey"
	"github.com/reten-io/reten/internal/node"
	"github.com/reten-io/reten/internal/project"
	"github.com/reten-io/reten/internal/tenant"
	"github.com/reten-io/reten/internal/user"
)

// Resolver is the root resolver; it holds the services. Resolver methods
// reach them as r.Resolver.X, since query fields share their names.
type Resolver struct {
	APIKeys  *apikey.Service
	Nodes    *node.Service
	Projects *project.Service
	Tenants  *tenant.Service
	Users    *user.Service
}

// deref returns *s, or "" for nil (optional GraphQL strings).
func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
