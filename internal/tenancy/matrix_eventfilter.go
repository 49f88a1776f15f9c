package tenancy

import "github.com/reten-io/reten/internal/auth"

// eventFilterMatrix: event filters (event criteria), project-scoped
// (SPEC.md "Endpoints > Event filters"): event-criteria:view reads filters
// and the catalog, view-sql covers SQL, validation and previews.
var eventFilterMatrix = []Entry{
	{"GET", "/event-criterias", ProjectScoped, auth.PermEventCriteriaView},
	{"POST", "/event-criterias", ProjectScoped, auth.PermEventCriteriaCreate},
	{"GET", "/event-criterias/tables", ProjectScoped, auth.PermEventCriteriaView},
	{"GET", "/event-criterias/tables/{tableName}/columns", ProjectScoped, auth.PermEventCriteriaView},
	{"POST", "/event-criterias/generate-sql", ProjectScoped, auth.PermEventCriteriaViewSQL},
	{"POST", "/event-criterias/validate-from-body", ProjectScoped, auth.PermEventCriteriaViewSQL},
	{"POST", "/event-criterias/preview-from-body", ProjectScoped, auth.PermEventCriteriaViewSQL},
	{"GET", "/event-criterias/{id}", ProjectScoped, auth.PermEventCriteriaView},
	{"PATCH", "/event-criterias/{id}", ProjectScoped, auth.PermEventCriteriaUpdate},
	{"DELETE", "/event-criterias/{id}", ProjectScoped, auth.PermEventCriteriaDelete},
	{"GET", "/event-criterias/{id}/sql", ProjectScoped, auth.PermEventCriteriaViewSQL},
	{"POST", "/event-criterias/{id}/preview", ProjectScoped, auth.PermEventCriteriaViewSQL},

	// GraphQL: the same scope and permissions as the REST routes.
	{"Query", "eventFilters", ProjectScoped, auth.PermEventCriteriaView},
	{"Query", "eventFilter", ProjectScoped, auth.PermEventCriteriaView},
	{"Query", "eventFilterTables", ProjectScoped, auth.PermEventCriteriaView},
	{"Query", "eventFilterColumns", ProjectScoped, auth.PermEventCriteriaView},
	{"Query", "eventFilterSQL", ProjectScoped, auth.PermEventCriteriaViewSQL},
	{"Query", "generateEventFilterSQL", ProjectScoped, auth.PermEventCriteriaViewSQL},
	{"Query", "validateEventFilter", ProjectScoped, auth.PermEventCriteriaViewSQL},
	{"Query", "previewEventFilter", ProjectScoped, auth.PermEventCriteriaViewSQL},
	{"Mutation", "createEventFilter", ProjectScoped, auth.PermEventCriteriaCreate},
	{"Mutation", "updateEventFilter", ProjectScoped, auth.PermEventCriteriaUpdate},
	{"Mutation", "deleteEventFilter", ProjectScoped, auth.PermEventCriteriaDelete},
}
