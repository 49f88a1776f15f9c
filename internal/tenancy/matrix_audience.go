package tenancy

import "github.com/reten-io/reten/internal/auth"

// audienceMatrix: audience criteria, project-scoped (SPEC.md "Endpoints >
// Audiences"): audience-criteria:view reads audiences and the catalog,
// :create, :update and :delete write them, :view-sql covers SQL,
// validation, previews and the membership change.
var audienceMatrix = []Entry{
	{"GET", "/audience-criterias", ProjectScoped, auth.PermAudienceView},
	{"POST", "/audience-criterias", ProjectScoped, auth.PermAudienceCreate},
	{"GET", "/audience-criterias/tables", ProjectScoped, auth.PermAudienceView},
	{"GET", "/audience-criterias/tables/{tableName}/columns", ProjectScoped, auth.PermAudienceView},
	{"POST", "/audience-criterias/generate-sql", ProjectScoped, auth.PermAudienceViewSQL},
	{"POST", "/audience-criterias/validate-from-body", ProjectScoped, auth.PermAudienceViewSQL},
	{"POST", "/audience-criterias/preview-from-body", ProjectScoped, auth.PermAudienceViewSQL},
	{"GET", "/audience-criterias/{id}", ProjectScoped, auth.PermAudienceView},
	{"PATCH", "/audience-criterias/{id}", ProjectScoped, auth.PermAudienceUpdate},
	{"DELETE", "/audience-criterias/{id}", ProjectScoped, auth.PermAudienceDelete},
	{"GET", "/audience-criterias/{id}/sql", ProjectScoped, auth.PermAudienceViewSQL},
	{"POST", "/audience-criterias/{id}/preview", ProjectScoped, auth.PermAudienceViewSQL},
	{"POST", "/audience-criterias/{id}/preview-change", ProjectScoped, auth.PermAudienceViewSQL},

	// GraphQL: the same scope and permissions as the REST routes.
	{"Query", "audiences", ProjectScoped, auth.PermAudienceView},
	{"Query", "audience", ProjectScoped, auth.PermAudienceView},
	{"Query", "audienceTables", ProjectScoped, auth.PermAudienceView},
	{"Query", "audienceColumns", ProjectScoped, auth.PermAudienceView},
	{"Query", "audienceSQL", ProjectScoped, auth.PermAudienceViewSQL},
	{"Query", "generateAudienceSQL", ProjectScoped, auth.PermAudienceViewSQL},
	{"Query", "validateAudience", ProjectScoped, auth.PermAudienceViewSQL},
	{"Query", "previewAudience", ProjectScoped, auth.PermAudienceViewSQL},
	{"Query", "audienceMembershipChange", ProjectScoped, auth.PermAudienceViewSQL},
	{"Mutation", "createAudience", ProjectScoped, auth.PermAudienceCreate},
	{"Mutation", "updateAudience", ProjectScoped, auth.PermAudienceUpdate},
	{"Mutation", "deleteAudience", ProjectScoped, auth.PermAudienceDelete},
}
