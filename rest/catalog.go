package rest

// catalogHandlers maps the REST lines of tenancy.catalogMatrix to their handlers.
func (a *api) catalogHandlers() map[string]handler {
	return map[string]handler{}
}
