// Package dispatch manages dispatch providers, their channel definitions and
// the per-project dispatch configs that pick a provider per channel.
package dispatch

import "github.com/reten-io/reten/ent"

// Service manages dispatch configuration of the viewer's tenant.
type Service struct{ client *ent.Client }

// NewService returns a Service.
func NewService(client *ent.Client) *Service { return &Service{client: client} }
