package rest

// dispatchHandlers maps the REST lines of tenancy.dispatchMatrix to their handlers.
func (a *api) dispatchHandlers() map[string]handler {
	return map[string]handler{}
}
