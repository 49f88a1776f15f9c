package rest

// commerceHandlers maps the REST lines of tenancy.commerceMatrix to their handlers.
func (a *api) commerceHandlers() map[string]handler {
	return map[string]handler{}
}
