package generator

import (
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/ent/activity"
	"github.com/reten-io/reten/ent/generationrule"
	"github.com/reten-io/reten/ent/operator"
)

// TestTarget: a message goes to the first user holding the rule's role
// with a primary contact of the channel's kind (PUSH: the external id);
// otherwise it is unresolved, saying what is missing.
func TestTarget(t *testing.T) {
	ext := "app-7"
	owner := recipient{user: &ent.CommerceUser{ID: uuid.New()}, roles: []string{"OWNER"}, contacts: map[string]string{"WHATSAPP": "+569111", "EMAIL": "ana@x.test"}}
	orders := recipient{user: &ent.CommerceUser{ID: uuid.New(), ExternalID: &ext}, roles: []string{"ORDERS", "FINANCE"}, contacts: map[string]string{"PHONE": "+569222"}}
	users := []recipient{owner, orders}
	for _, c := range []struct {
		channel activity.Channel
		role    string
		to      string
		user    uuid.UUID
		why     string
	}{
		{activity.ChannelWHATSAPP, "OWNER", "+569111", owner.user.ID, ""},
		{activity.ChannelEMAIL, "OWNER", "ana@x.test", owner.user.ID, ""},
		{activity.ChannelSMS, "OWNER", "", uuid.Nil, "no active OWNER user of the commerce has an active primary PHONE contact"},
		{activity.ChannelSMS, "FINANCE", "+569222", orders.user.ID, ""},
		{activity.ChannelPUSH, "ORDERS", "app-7", orders.user.ID, ""},
		{activity.ChannelPUSH, "OWNER", "", uuid.Nil, "no active OWNER user of the commerce has an external id"},
		{activity.ChannelWHATSAPP, "ADMIN", "", uuid.Nil, "no active ADMIN user of the commerce has an active primary WHATSAPP contact"},
	} {
		w := &world{users: map[uuid.UUID][]recipient{{}: users}}
		a := &newActivity{channel: c.channel, attributes: map[string]string{}}
		w.target(a, c.role)
		if a.attributes[AttrRecipient] != c.to || a.unresolved != c.why || (c.to != "" && a.attributes[AttrRecipientUser] != c.user.String()) {
			t.Errorf("%s to %s: attributes %v, unresolved %q; want %q, %q", c.channel, c.role, a.attributes, a.unresolved, c.to, c.why)
		}
	}
}

// TestAssign: ROUTE_LEAD takes the first route (by code) that has a lead;
// the round robin the least recently assigned member of the operator type;
// a task without either is flagged with why.
func TestAssign(t *testing.T) {
	op := func(typ operator.Type) *ent.Operator { return &ent.Operator{ID: uuid.New(), Type: typ} }
	lead, sales1, sales2, caller := op("SALESMAN"), op("SALESMAN"), op("SALESMAN"), op("CALLCENTER")
	r1, r2, empty := &ent.Route{ID: uuid.New(), Code: "A"}, &ent.Route{ID: uuid.New(), Code: "B"}, &ent.Route{ID: uuid.New(), Code: "0"}
	now := time.Date(2026, 5, 4, 12, 0, 0, 0, time.UTC)
	w := &world{now: now, assigned: map[uuid.UUID]time.Time{sales1.ID: now.Add(-time.Hour)},
		routes:  map[uuid.UUID][]*ent.Route{{1}: {empty, r1, r2}, {2}: {empty}},
		members: map[uuid.UUID][]member{r1.ID: {{operator: sales1}, {operator: sales2}, {operator: caller}}, r2.ID: {{operator: lead, lead: true}}}}
	rr, any := generationrule.AssignmentROUTE_MEMBERS_ROUND_ROBIN, generationrule.AssignmentROUTE_LEAD
	salesman, callcenter := generationrule.OperatorTypeSALESMAN, generationrule.OperatorTypeCALLCENTER
	for _, c := range []struct {
		name     string
		commerce uuid.UUID
		rule     ent.GenerationRule
		operator *ent.Operator
		route    *ent.Route
		flag     string
	}{
		{"the lead of the first route that has one", uuid.UUID{1}, ent.GenerationRule{Assignment: &any}, lead, r2, ""},
		{"round robin: never assigned first", uuid.UUID{1}, ent.GenerationRule{Assignment: &rr, OperatorType: &salesman}, sales2, r1, ""},
		{"round robin: then the least recent", uuid.UUID{1}, ent.GenerationRule{Assignment: &rr, OperatorType: &salesman}, sales1, r1, ""},
		{"round robin: and around", uuid.UUID{1}, ent.GenerationRule{Assignment: &rr, OperatorType: &salesman}, sales2, r1, ""},
		{"round robin of a type", uuid.UUID{1}, ent.GenerationRule{Assignment: &rr, OperatorType: &callcenter}, caller, r1, ""},
		{"no lead", uuid.UUID{2}, ent.GenerationRule{Assignment: &any}, nil, empty, "NO_LEAD"},
		{"no member", uuid.UUID{2}, ent.GenerationRule{Assignment: &rr}, nil, empty, "NO_MEMBER"},
		{"no route", uuid.UUID{3}, ent.GenerationRule{Assignment: &any}, nil, nil, "NO_ROUTE"},
	} {
		w.created++
		a := &newActivity{commerce: c.commerce, created: now.Add(time.Duration(w.created) * time.Microsecond), attributes: map[string]string{}}
		w.assign(a, &c.rule)
		gotOp, gotRoute := uuid.Nil, uuid.Nil
		if a.operator != nil {
			gotOp = *a.operator
		}
		if a.route != nil {
			gotRoute = *a.route
		}
		wantOp, wantRoute := uuid.Nil, uuid.Nil
		if c.operator != nil {
			wantOp = c.operator.ID
		}
		if c.route != nil {
			wantRoute = c.route.ID
		}
		if gotOp != wantOp || gotRoute != wantRoute || a.attributes[AttrUnassigned] != c.flag {
			t.Errorf("%s: operator %v route %v flag %q; want %v %v %q", c.name, gotOp, gotRoute, a.attributes[AttrUnassigned], wantOp, wantRoute, c.flag)
		}
	}
}
