package demo

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"
)

// attr and item are the elements of the attributes and items RECORD columns;
// the JSON keys are the catalog sub-field names.
type attr struct {
	Key   string `json:"key"`
	Value string `json:"value"`
}

type item struct {
	ProductID string  `json:"product_id"`
	Quantity  int64   `json:"quantity"`
	Price     float64 `json:"price"`
}

type event struct {
	id, commerce, name, platform, session string // session "" is NULL
	ts                                    time.Time
	attrs                                 []attr
	items                                 []item
}

var (
	utmSources     = []string{"organic", "push", "email", "whatsapp", "sales_rep"}
	utmWeights     = []float64{55, 20, 10, 10, 5}
	lists          = []string{"home", "search", "promotions", "reorder"}
	listWeights    = []float64{30, 30, 20, 20}
	payments       = []string{"cash_on_delivery", "credit", "bank_transfer", "card"}
	paymentWeights = []float64{45, 30, 15, 10}
	cancelReasons  = []string{"out_of_stock", "customer_request", "payment_failed", "duplicate_order"}
	visitOutcomes  = []string{"order_taken", "no_order", "store_closed", "follow_up"}
	outcomeWeights = []float64{50, 25, 10, 15}
	// Conversion of a session with a filled cart, per profile.
	buyRate = map[string]float64{"loyal": 0.7, "occasional": 0.5, "dormant": 0.6, "new": 0.55}
)

// genEvents draws sessions of weighted commerces at plausible local times
// until exactly n events exist, then orders them by time.
func (g *generator) genEvents(n int) [][]any {
	evs := make([]event, 0, n+32)
	for len(evs) < n {
		c := &g.commerces[g.index(g.activity)]
		evs = g.session(c, g.when(c.from, c.until), evs)
	}
	evs = evs[:n]
	slices.SortFunc(evs, func(a, b event) int {
		if c := a.ts.Compare(b.ts); c != 0 {
			return c
		}
		return strings.Compare(a.id, b.id)
	})
	rows := make([][]any, len(evs))
	for i, e := range evs {
		var session, value, quantity any
		if e.session != "" {
			session = e.session
		}
		if len(e.items) > 0 {
			var v money
			var q int64
			for _, it := range e.items {
				v += cents(it.Price, 1) * money(it.Quantity)
				q += it.Quantity
			}
			value, quantity = v.Float(), q
		}
		rows[i] = []any{e.id, e.commerce, e.name, e.ts, e.platform, session, value, quantity,
			toJSON(e.attrs), toJSON(e.items)}
	}
	return rows
}

// toJSON encodes a RECORD column value; nil slices become empty arrays
// (repeated columns are never NULL).
func toJSON[T any](v []T) jsonArray {
	if v == nil {
		v = []T{}
	}
	// Cannot fail: plain structs of strings, integers and finite floats.
	b, _ := json.Marshal(v)
	return jsonArray(b)
}

// when draws an instant in [from, until] following business hours, the
// week, a December peak and a slow growth over the year.
func (g *generator) when(from, until time.Time) time.Time {
	const peak = 1.25
	for {
		t := g.between(from, until)
		l := t.In(local)
		w := hourWeight[l.Hour()] * dayWeight[l.Weekday()]
		switch l.Month() {
		case time.December:
			w *= 1.25
		case time.January:
			w *= 0.85
		}
		w *= 0.8 + 0.2*float64(t.Sub(g.start))/float64(year)
		if g.r.Float64()*peak < w {
			return t
		}
	}
}

var (
	hourWeight = [24]float64{0.02, 0.01, 0.01, 0.01, 0.02, 0.05, 0.3, 0.7, 1, 1, 1, 1,
		0.7, 0.7, 0.9, 0.9, 0.9, 0.9, 0.6, 0.6, 0.6, 0.3, 0.3, 0.1}
	dayWeight = [7]float64{0.35, 1, 1, 1, 1, 1, 0.8} // Sunday first
)

func (g *generator) uuid() string {
	a, b := g.r.Uint64(), g.r.Uint64()
	return fmt.Sprintf("%08x-%04x-4%03x-%04x-%012x", a>>32, (a>>16)&0xffff, a&0xfff,
		0x8000|(b>>48)&0x3fff, b&0xffffffffffff)
}

// session appends one visit of a sales representative or one app session:
// app_open, product views, cart additions and sometimes a purchase, which
// the backend sometimes cancels later. Nothing happens after Now.
func (g *generator) session(c *commerce, t time.Time, out []event) []event {
	add := func(e event) bool {
		if e.ts.After(g.now) {
			return false
		}
		e.id, e.commerce = g.uuid(), c.id
		out = append(out, e)
		return true
	}
	if g.chance(0.1) {
		add(event{name: "visit_registered", platform: "sales_app", ts: t, attrs: []attr{
			{"rep_id", c.rep},
			{"visit_type", g.pick([]string{"in_person", "phone"}, []float64{80, 20})},
			{"outcome", g.pick(visitOutcomes, outcomeWeights)},
		}})
		return out
	}
	platform := c.platform
	if g.chance(0.1) {
		platform = platforms[g.r.IntN(len(platforms))]
	}
	session := fmt.Sprintf("%016x", g.r.Uint64())
	utm := g.pick(utmSources, utmWeights)
	open := []attr{{"utm_source", utm}}
	if utm == "push" || utm == "email" || utm == "whatsapp" {
		l := t.In(local)
		open = append(open, attr{"campaign", fmt.Sprintf("promo_%d_%02d", l.Year(), int(l.Month()))})
	}
	if platform != "web" {
		open = append(open, attr{"app_version", g.appVersion(t)})
	}
	open = append(open, attr{"screen", "home"})
	app := func(name string, ts time.Time, attrs []attr, items []item) bool {
		return add(event{name: name, platform: platform, session: session, ts: ts, attrs: attrs, items: items})
	}
	if !app("app_open", t, open, nil) || g.chance(0.2) {
		return out // bounced
	}
	var cart []item
	for range 1 + g.r.IntN(5) {
		t = t.Add(g.seconds(15, 120))
		p := g.productFor(c.seg, t)
		list := g.pick(lists, listWeights)
		price := p.price
		if list == "promotions" {
			price = cents(price.Float()*0.9, 5)
		}
		it := item{ProductID: p.id, Quantity: 1, Price: price.Float()}
		if !app("view_item", t, []attr{{"screen", "product_detail"}, {"list", list}}, []item{it}) {
			return out
		}
		if g.chance(0.55) {
			t = t.Add(g.seconds(10, 60))
			it.Quantity = 1 + g.r.Int64N(12)
			if !app("add_to_cart", t, []attr{{"screen", "product_detail"}}, []item{it}) {
				return out
			}
			cart = mergeItem(cart, it)
		}
	}
	if len(cart) == 0 || !g.chance(buyRate[c.profile]) {
		return out
	}
	t = t.Add(g.seconds(60, 600))
	attrs := []attr{{"screen", "checkout"}, {"utm_source", utm}, {"payment_method", g.pick(payments, paymentWeights)}}
	if g.chance(0.1) {
		attrs = append(attrs, attr{"coupon", "DESCUENTO10"})
	}
	if !app("purchase", t, attrs, cart) {
		return out
	}
	if g.chance(0.06) {
		add(event{name: "order_canceled", platform: "backend", ts: t.Add(g.seconds(3600, 48*3600)), items: cart,
			attrs: []attr{{"reason", cancelReasons[g.r.IntN(len(cancelReasons))]}}})
	}
	return out
}

// seconds is a uniform duration in [lo, hi] seconds, millisecond precision.
func (g *generator) seconds(lo, hi int64) time.Duration {
	return time.Duration(lo*1000+g.r.Int64N((hi-lo)*1000+1)) * time.Millisecond
}

// appVersion is the app version most commerces run at t (releases roll out).
func (g *generator) appVersion(t time.Time) string {
	age := g.now.Sub(t)
	v := []string{"5.4.0", "5.3.2", "5.2.1", "5.1.0", "4.9.3"}
	i := min(int(age/(75*day)), len(v)-1)
	if i+1 < len(v) && g.chance(0.2) {
		i++ // some never update on time
	}
	return v[i]
}

// mergeItem adds it to the cart, summing quantities of the same product.
func mergeItem(cart []item, it item) []item {
	for i := range cart {
		if cart[i].ProductID == it.ProductID {
			cart[i].Quantity += it.Quantity
			return cart
		}
	}
	return append(cart, it)
}

// genTransactions draws n ERP orders of weighted commerces (app, sales
// representatives and phone orders alike), ordered by time.
func (g *generator) genTransactions(n int) [][]any {
	type tx struct {
		commerce string
		amount   money
		status   string
		at       time.Time
		lines    int64
	}
	txs := make([]tx, n)
	for i := range txs {
		c := &g.commerces[g.index(g.activity)]
		at := g.when(c.from, c.until)
		amount := cents(c.ticket*math.Exp(0.45*g.r.NormFloat64()), 1)
		lines := int64(math.Round(amount.Float() / 18 * g.uniform(0.6, 1.4)))
		status := g.pick([]string{"completed", "canceled", "refunded"}, []float64{90, 6, 4})
		if g.now.Sub(at) < 72*time.Hour && g.chance(0.4) {
			status = "pending"
		}
		txs[i] = tx{commerce: c.id, amount: amount, status: status, at: at, lines: min(max(lines, 1), 60)}
	}
	slices.SortStableFunc(txs, func(a, b tx) int { return a.at.Compare(b.at) })
	rows := make([][]any, n)
	for i, t := range txs {
		rows[i] = []any{fmt.Sprintf("TX-%07d", i+1), t.commerce, t.amount, "USD", t.status, t.at, t.lines}
	}
	return rows
}
