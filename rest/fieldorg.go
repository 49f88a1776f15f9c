package rest

// fieldOrgHandlers maps the REST lines of tenancy.fieldOrgMatrix to their handlers.
func (a *api) fieldOrgHandlers() map[string]handler {
	return map[string]handler{}
}
