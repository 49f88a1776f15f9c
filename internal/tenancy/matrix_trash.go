package tenancy

import "github.com/reten-io/reten/internal/auth"

// trashMatrix: the trash and its settings.
var trashMatrix = []Entry{
	{"GET", "/trash", TenantLevel, auth.PermTrashView},
	{"GET", "/trash/settings", TenantLevel, auth.PermTrashManageSettings},
	{"PATCH", "/trash/settings", TenantLevel, auth.PermTrashManageSettings},
	{"GET", "/trash/{id}", TenantLevel, auth.PermTrashView},
	// Restoring also needs the delete permission of the record's kind,
	// checked by the trash service once the record is known.
	{"POST", "/trash/{id}/restore", TenantLevel, auth.PermTrashRestore},
	{"DELETE", "/trash/{id}", TenantLevel, auth.PermTrashPurge},
	// GraphQL (same permissions as the REST routes they mirror).
	{"Query", "trashRecords", TenantLevel, auth.PermTrashView},
	{"Query", "trashSettings", TenantLevel, auth.PermTrashManageSettings},
	{"Mutation", "restoreTrashRecord", TenantLevel, auth.PermTrashRestore},
	{"Mutation", "purgeTrashRecord", TenantLevel, auth.PermTrashPurge},
	{"Mutation", "updateTrashSettings", TenantLevel, auth.PermTrashManageSettings},
}
