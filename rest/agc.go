package rest

// agcHandlers maps the REST lines of tenancy.agcMatrix to their handlers.
func (a *api) agcHandlers() map[string]handler {
	return map[string]handler{}
}
