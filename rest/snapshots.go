package rest

// snapshotHandlers maps the REST lines of tenancy.snapshotMatrix to their handlers.
func (a *api) snapshotHandlers() map[string]handler {
	return map[string]handler{}
}
