package rest

import (
	"github.com/google/uuid"

	"github.com/reten-io/reten/internal/fieldorg"
)

type supervisorDTO struct {
	ID          uuid.UUID   `json:"id"`
	Name        string      `json:"name"`
	Email       *string     `json:"email"`
	ExternalID  *string     `json:"externalId"`
	Phone       *string     `json:"phone"`
	IsActive    bool        `json:"isActive"`
	RouteIDs    []uuid.UUID `json:"routeIds"`
	OperatorIDs []uuid.UUID `json:"operatorIds"`
}

func presentSupervisor(d *fieldorg.SupervisorDetail) supervisorDTO {
	return supervisorDTO{ID: d.ID, Name: d.Name, Email: d.Email, ExternalID: d.ExternalID, Phone: d.Phone,
		IsActive: d.IsActive, RouteIDs: d.RouteIDs, OperatorIDs: d.OperatorIDs}
}

func supervisorFilter(q *query) fieldorg.SupervisorFilter {
	var f fieldorg.SupervisorFilter
	f.IsActive, f.Search = foFilter(q)
	return f
}

var supervisorBody = bodyOf(func(b *body) fieldorg.SupervisorInput {
	return fieldorg.SupervisorInput{Name: b.str("name").OrZero(), Email: b.str("email").Ptr(), ExternalID: b.str("external_id").Ptr(),
		Phone: b.str("phone").Ptr(), Metadata: foMetadata(b), RouteIDs: b.uuids("route_ids").OrZero(),
		OperatorIDs: b.uuids("operator_ids").OrZero()}
}, "name", "email", "external_id", "phone", "metadata", "route_ids", "operator_ids")

var supervisorPatchBody = bodyOf(func(b *body) fieldorg.SupervisorPatch {
	return fieldorg.SupervisorPatch{Name: foText(b, "name"), Email: foText(b, "email"), ExternalID: foText(b, "external_id"),
		Phone: foText(b, "phone"), IsActive: b.boolean("is_active").Ptr(), Metadata: foMetadata(b),
		RouteIDs: b.uuids("route_ids").OrZero(), OperatorIDs: b.uuids("operator_ids").OrZero()}
}, "name", "email", "external_id", "phone", "is_active", "metadata", "route_ids", "operator_ids")
