package app

import (
	"fmt"
	"slices"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/internal/catalog"
	"github.com/reten-io/reten/internal/commerce"
	"github.com/reten-io/reten/internal/fieldorg"
	"github.com/reten-io/reten/internal/generation"
	"github.com/reten-io/reten/internal/paging"
	"github.com/reten-io/reten/internal/patch"
)

// The demo's field organisation: two routes, each led by a salesman with
// a second salesman as member; the demo's commerces alternate between them.
var demoRoutes = []fieldorg.RouteItem{
	{Code: "DEMO-NORTE", Name: "Ruta Norte", Operators: []fieldorg.RouteItemOperator{
		{ExternalID: "V-01", Type: "SALESMAN", Role: "LEAD"}, {ExternalID: "V-02", Type: "SALESMAN"}}},
	{Code: "DEMO-SUR", Name: "Ruta Sur", Operators: []fieldorg.RouteItemOperator{
		{ExternalID: "V-03", Type: "SALESMAN", Role: "LEAD"}, {ExternalID: "V-04", Type: "SALESMAN"}}},
}

var demoOperators = []fieldorg.OperatorItem{
	{ExternalID: "V-01", Type: "SALESMAN", Name: "Valentina Rojas"}, {ExternalID: "V-02", Type: "SALESMAN", Name: "Matías Soto"},
	{ExternalID: "V-03", Type: "SALESMAN", Name: "Camila Muñoz"}, {ExternalID: "V-04", Type: "SALESMAN", Name: "Benjamín Díaz"},
}

// demoReasons are the activity reasons of the demo's rules.
var demoReasons = []catalog.ReasonInput{{Code: "visita_riesgo", Label: "Visita a comercio en riesgo"},
	{Code: "bienvenida", Label: "Bienvenida a comercio nuevo"}}

// demoRules are the demo AGC's generation rules: a salesman visit when a
// commerce becomes at_risk, a WhatsApp message when it becomes new.
func demoRules() map[string]generation.RuleFields {
	return map[string]generation.RuleFields{
		"Visita a comercio en riesgo": {Trigger: patch.Of("ENTER"), Stage: patch.Of("RESURRECTION"), StatusCode: patch.Of("at_risk"),
			Type: patch.Of("TASK"), Channel: patch.Of("SALESMAN"), ReasonCode: patch.Of("visita_riesgo"),
			TitleTemplate:        patch.Of("Visitar {{.commerce.name}} ({{.state.label}})"),
			InstructionsTemplate: patch.Of("{{.commerce.name}} ({{.commerce.external_id}}) lleva {{.metrics.days_since_last_row}} días sin comprar ({{.metrics.lifetime_actions}} compras en total): visitarlo y registrar el resultado."),
			OffsetDays:           patch.Of(1), TimeOfDay: patch.Of("10:00"), SkipWeekends: patch.Of(true), ExpiresAfterDays: patch.Of(7),
			Assignment: patch.Of("ROUTE_LEAD"), Priority: patch.Of(10)},
		"WhatsApp de bienvenida": {Trigger: patch.Of("ENTER"), Stage: patch.Of("ACTIVATION"), StatusCode: patch.Of("new"),
			Type: patch.Of("MESSAGE"), Channel: patch.Of("WHATSAPP"), ReasonCode: patch.Of("bienvenida"),
			TitleTemplate:        patch.Of("Bienvenida a {{.commerce.name}}"),
			InstructionsTemplate: patch.Of("¡Hola! Gracias por tu primera compra, {{.commerce.name}}."),
			TimeOfDay:            patch.Of("09:00"), ExpiresAfterDays: patch.Of(3), TargetRole: patch.Of("OWNER"), Priority: patch.Of(20)},
	}
}

// demoHoldout is the demo AGC's holdout group, so that the decisions show
// HELD_OUT commerces to measure the rules against: a fifth, so that the
// demo's control group (about 50 measured decisions) is large enough for
// the uplift's intervals.
const demoHoldout = 20

// demoFieldOrg upserts the demo's operators and routes (before the
// commerces, which are assigned to the routes).
func (a *App) demoFieldOrg(as enterFn) error {
	ctx, err := as(uuid.Nil, "POST /integration/operators/batch-upsert")
	if err != nil {
		return err
	}
	if err := batchOK(a.FieldOrg.BatchUpsertOperators(ctx, slices.Clone(demoOperators))); err != nil {
		return fmt.Errorf("operators: %w", err)
	}
	if ctx, err = as(uuid.Nil, "POST /integration/routes/batch-upsert"); err != nil {
		return err
	}
	if err := batchOK(a.FieldOrg.BatchUpsertRoutes(ctx, slices.Clone(demoRoutes))); err != nil {
		return fmt.Errorf("routes: %w", err)
	}
	return nil
}

func batchOK(res *fieldorg.BatchResult, err error) error {
	if err == nil && len(res.Errors) > 0 {
		err = fmt.Errorf("%v", res.Errors[0])
	}
	return err
}

// demoCommerceExtras completes the demo's commerce number i: its route
// (alternating) and its owner, with a WhatsApp number for nine commerces in
// ten (the tenth's welcome message stays UNRESOLVED until one is added).
func demoCommerceExtras(item *commerce.BatchItem, i int) {
	item.RouteCodes = []string{demoRoutes[i%len(demoRoutes)].Code}
	name := "Dueño de " + item.Name
	owner := commerce.BatchUser{ExternalID: item.ExternalID + "-owner", Name: &name, Roles: []string{"OWNER"}}
	if i%10 != 9 {
		primary := true
		owner.Contacts = []commerce.BatchContact{{ContactType: "WHATSAPP", Value: fmt.Sprintf("+5699%07d", i+1), IsPrimary: &primary}}
	}
	item.Users = []commerce.BatchUser{owner}
}

// demoGeneration creates what the demo AGC's activity generation needs
// and lacks: the reasons, the two rules (by name) and the holdout group.
func (a *App) demoGeneration(as enterFn, projectID, agcID uuid.UUID) error {
	ctx, err := as(uuid.Nil, "POST /activity-reason-configs")
	if err != nil {
		return err
	}
	have, err := a.Catalog.ListReasons(ctx)
	if err != nil {
		return err
	}
	for _, in := range demoReasons {
		if !slices.ContainsFunc(have, func(r *ent.ActivityReasonConfig) bool { return r.Code == in.Code }) {
			if _, err := a.Catalog.CreateReason(ctx, in); err != nil {
				return fmt.Errorf("reason %s: %w", in.Code, err)
			}
		}
	}
	if ctx, err = as(projectID, "POST /activity-generation-configs/{id}/generation-rules"); err != nil {
		return err
	}
	rules, err := a.Rules.ListRules(ctx, agcID, paging.Page{Page: 1, PerPage: paging.MaxPerPage})
	if err != nil {
		return err
	}
	for name, in := range demoRules() {
		if slices.ContainsFunc(rules.Items, func(r *ent.GenerationRule) bool { return r.Name == name }) {
			continue
		}
		in.Name = patch.Of(name)
		if _, err := a.Rules.CreateRule(ctx, agcID, in); err != nil {
			return fmt.Errorf("rule %q: %w", name, err)
		}
	}
	if ctx, err = as(projectID, "PUT /activity-generation-configs/{id}/generation-settings"); err != nil {
		return err
	}
	_, err = a.Rules.SetSettings(ctx, agcID, generation.SettingsInput{HoldoutPercent: demoHoldout})
	return err
}
