package rest

// trashHandlers maps the REST lines of tenancy.trashMatrix to their handlers.
func (a *api) trashHandlers() map[string]handler {
	return map[string]handler{}
}
