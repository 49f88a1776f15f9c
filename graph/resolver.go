// Package graph holds the gqlgen resolvers. They stay thin: decode, call the
// same service method REST calls, return. Generated exec code is in
// graph/generated.
package graph

import (
	"github.com/google/uuid"
	"github.com/reten-io/reten/internal/fields"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/graph/model"
	"github.com/reten-io/reten/internal/activity"
	"github.com/reten-io/reten/internal/agc"
	"github.com/reten-io/reten/internal/apikey"
	"github.com/reten-io/reten/internal/audience"
	"github.com/reten-io/reten/internal/catalog"
	"github.com/reten-io/reten/internal/commerce"
	"github.com/reten-io/reten/internal/cutoff"
	"github.com/reten-io/reten/internal/dataset"
	"github.com/reten-io/reten/internal/dispatch"
	"github.com/reten-io/reten/internal/engine"
	"github.com/reten-io/reten/internal/eventfilter"
	"github.com/reten-io/reten/internal/fieldorg"
	"github.com/reten-io/reten/internal/generation"
	"github.com/reten-io/reten/internal/generator"
	"github.com/reten-io/reten/internal/idempotency"
	"github.com/reten-io/reten/internal/insights"
	"github.com/reten-io/reten/internal/node"
	"github.com/reten-io/reten/internal/patch"
	"github.com/reten-io/reten/internal/project"
	"github.com/reten-io/reten/internal/result"
	"github.com/reten-io/reten/internal/resulttype"
	"github.com/reten-io/reten/internal/snapshot"
	"github.com/reten-io/reten/internal/tenant"
	"github.com/reten-io/reten/internal/trash"
	"github.com/reten-io/reten/internal/uplift"
	"github.com/reten-io/reten/internal/user"
	"github.com/reten-io/reten/internal/webhook"
)

// Resolver is the root resolver; it holds the services. Resolver methods
// reach them as r.Resolver.X, since query fields share their names.
type Resolver struct {
	AGCs      *agc.Service
	Engine    *engine.Service
	Runs      *engine.Runs
	Rules     *generation.Service
	Generator *generator.Service
	APIKeys   *apikey.Service
	Audiences *audience.Service
	Catalog   *catalog.Service
	Commerces *commerce.Service
	Dataset   *dataset.Service
	Dispatch  *dispatch.Service
	FieldOrg  *fieldorg.Service
	Nodes     *node.Service
	Projects  *project.Service
	Snapshots *snapshot.Service
	Tenants   *tenant.Service
	Trash     *trash.Service
	Users     *user.Service

	// EventFilters serves the event filter operations.
	EventFilters *eventfilter.Service

	// Activities serves the activity operations.
	Activities *activity.Service

	// ResultTypes and TenantSettings serve the result type configs and the
	// tenant day settings.
	ResultTypes    *resulttype.Service
	TenantSettings *cutoff.Service

	// Results serves the activity result mutations.
	Results *result.Service
	// Idempotency replays submissions that carry an idempotency key.
	Idempotency *idempotency.Service

	// Webhooks serves the webhook endpoints; Uplift the uplift reports.
	Webhooks *webhook.Service
	Uplift   *uplift.Service
	// Insights serves the console's aggregations.
	Insights *insights.Service
}

// deref returns *s, or "" for nil (optional GraphQL strings).
func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// done turns the error of a delete-like service call into a Boolean! answer.
func done(err error) (bool, error) { return err == nil, err }

// enumStrings converts ent enum values to strings; nil stays nil.
func enumStrings[E ~string](es []E) []string {
	if es == nil {
		return nil
	}
	out := make([]string, len(es))
	for i, e := range es {
		out[i] = string(e)
	}
	return out
}

// nonNil answers [] rather than null for a list field.
func nonNil(ids []uuid.UUID) []uuid.UUID {
	if ids == nil {
		return []uuid.UUID{}
	}
	return ids
}

// supervisorOf returns the supervisor of a service detail (its routeIDs and
// operatorIDs resolve on their own).
func supervisorOf(d *fieldorg.SupervisorDetail, err error) (*ent.Supervisor, error) {
	if err != nil {
		return nil, err
	}
	return d.Supervisor, nil
}

// fieldOrgBatch presents the outcome of an operator or route sync/batch upsert.
func fieldOrgBatch(res *fieldorg.BatchResult, err error) (*model.BatchUpsertResult, error) {
	if err != nil {
		return nil, err
	}
	out := &model.BatchUpsertResult{Created: res.Created, Updated: res.Updated, Total: res.Total, Errors: []*model.BatchItemError{}}
	for _, e := range res.Errors {
		out.Errors = append(out.Errors, &model.BatchItemError{Index: e.Index, Messages: e.Messages})
	}
	return out, nil
}

// commerceBatchItems maps batchUpsertCommerces items to the service's items.
func commerceBatchItems(items []*model.CommerceBatchItemInput) []commerce.BatchItem {
	out := make([]commerce.BatchItem, len(items))
	for i, it := range items {
		b := commerce.BatchItem{ExternalID: it.ExternalID, Name: it.Name, TaxID: it.TaxID, Segment: it.Segment,
			IsActive: it.IsActive, Metadata: it.Metadata, RouteCodes: it.RouteCodes}
		for _, a := range it.Addresses {
			b.Addresses = append(b.Addresses, commerce.BatchAddress{AddressFields: commerce.AddressFields{
				AddressAlias: a.AddressAlias, CountryCode: a.CountryCode, Region: a.Region, Commune: a.Commune, City: a.City,
				Street: a.Street, StreetNumber: a.StreetNumber, Unit: a.Unit, FormattedAddress: a.FormattedAddress,
				Latitude: a.Latitude, Longitude: a.Longitude}, IsPrimary: a.IsPrimary, IsActive: a.IsActive})
		}
		for _, u := range it.Users {
			bu := commerce.BatchUser{ExternalID: u.ExternalID, Name: u.Name, IsActive: u.IsActive, Roles: enumStrings(u.Roles)}
			for _, c := range u.Contacts {
				bu.Contacts = append(bu.Contacts, commerce.BatchContact{ContactType: string(c.ContactType), Value: c.Value,
					IsPrimary: c.IsPrimary, IsActive: c.IsActive})
			}
			b.Users = append(b.Users, bu)
		}
		out[i] = b
	}
	return out
}

// definitionInput maps a channel definition input to the service's.
func definitionInput(in model.ChannelDefinitionInput) dispatch.DefinitionInput {
	out := dispatch.DefinitionInput{Name: in.Name, Channel: fields.EnumText(in.Channel), Template: in.Template, Sender: in.Sender,
		RatePerMinute: in.RatePerMinute, ClearRatePerMinute: in.ClearRatePerMinute != nil && *in.ClearRatePerMinute,
		IsActive: in.IsActive}
	if in.Settings != nil {
		out.Settings = &in.Settings
	}
	return out
}

// listPtr distinguishes an omitted list (nil: unchanged) from a sent one.
func listPtr[T any](s []T) *[]T {
	if s == nil {
		return nil
	}
	return &s
}

// pillarFields maps the fields common to the three pillar inputs.
func pillarFields(name, description, sourceTable *string, sourceColumns []string, dateColumn *string) agc.PillarFields {
	return agc.PillarFields{Name: name, Description: description, SourceTable: sourceTable,
		SourceColumns: listPtr(sourceColumns), DateColumn: dateColumn}
}

// mapList maps a sent list (nil, an omitted one, stays nil).
func mapList[T, U any](items []T, f func(T) U) *[]U {
	if items == nil {
		return nil
	}
	out := mapAll(items, f)
	return &out
}

// activationInput maps an activation pillar input to the service's (nil stays nil).
func activationInput(in *model.ActivationConfigInput) *agc.ActivationInput {
	if in == nil {
		return nil
	}
	return &agc.ActivationInput{PillarFields: pillarFields(in.Name, in.Description, in.SourceTable, in.SourceColumns, in.DateColumn),
		AggregationMethod: fields.EnumText(in.AggregationMethod),
		Moments: mapList(in.ActivationMoments, func(m *model.ActivationMomentInput) agc.MomentInput {
			return agc.MomentInput{ID: m.ID, StatusCode: m.StatusCode, UserRetentionStatusConfigID: m.UserRetentionStatusConfigID,
				MinActions: m.MinActions, WindowDays: m.WindowDays, TimeWindow: m.TimeWindow, Priority: m.Priority}
		})}
}

// engagementInput maps an engagement pillar input to the service's (nil stays nil).
func engagementInput(in *model.EngagementConfigInput) *agc.EngagementInput {
	if in == nil {
		return nil
	}
	return &agc.EngagementInput{PillarFields: pillarFields(in.Name, in.Description, in.SourceTable, in.SourceColumns, in.DateColumn),
		EngagementWindowDays: in.EngagementWindowDays, MinLifetimeActionsForEngaged: in.MinLifetimeActionsForEngaged,
		CountingMethod: in.CountingMethod,
		Levels: mapList(in.EngagementLevels, func(l *model.EngagementLevelInput) agc.LevelInput {
			return agc.LevelInput{ID: l.ID, StatusCode: l.StatusCode, UserRetentionStatusConfigID: l.UserRetentionStatusConfigID,
				Label: l.Label, MinThreshold: l.MinThreshold, MaxThreshold: l.MaxThreshold, Order: l.Order}
		})}
}

// resurrectionInput maps a resurrection pillar input to the service's (nil stays nil).
func resurrectionInput(in *model.ResurrectionConfigInput) *agc.ResurrectionInput {
	if in == nil {
		return nil
	}
	return &agc.ResurrectionInput{PillarFields: pillarFields(in.Name, in.Description, in.SourceTable, in.SourceColumns, in.DateColumn),
		Thresholds: mapList(in.ResurrectionThresholds, func(t *model.ResurrectionThresholdInput) agc.ThresholdInput {
			return agc.ThresholdInput{ID: t.ID, StatusCode: t.StatusCode, UserRetentionStatusConfigID: t.UserRetentionStatusConfigID,
				Label: t.Label, ThresholdDays: t.ThresholdDays, Order: t.Order}
		})}
}

// agcOf returns the entity of a service AGC.
func agcOf(a *agc.AGC, err error) (*ent.ActivityGenerationConfig, error) {
	if err != nil {
		return nil, err
	}
	return a.ActivityGenerationConfig, nil
}

// optionalList is the patch of an optional list argument: absent when the
// argument was omitted (nil), the list otherwise.
func optionalList[T any](l []T) patch.Patch[[]T] {
	if l == nil {
		return patch.Patch[[]T]{}
	}
	return patch.Of(l)
}

// refs returns a slice of pointers to the items of a service's answer
// (gqlgen's lists of objects), or its error.
func refs[T any](items []T, err error) ([]*T, error) {
	if err != nil {
		return nil, err
	}
	out := make([]*T, len(items))
	for i := range items {
		out[i] = &items[i]
	}
	return out, nil
}
