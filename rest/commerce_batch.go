package rest

import (
	"encoding/json"

	"github.com/reten-io/reten/internal/commerce"
)

// commerceBatchResultDTO is the answer of the batch upsert.
type commerceBatchResultDTO struct {
	Created   int                     `json:"created"`
	Updated   int                     `json:"updated"`
	Unchanged int                     `json:"unchanged"`
	Total     int                     `json:"total"`
	Errors    []commerceBatchErrorDTO `json:"errors"`
}

type commerceBatchErrorDTO struct {
	Index    int      `json:"index"`
	Messages []string `json:"messages"`
}

func presentCommerceBatch(res *commerce.BatchResult) commerceBatchResultDTO {
	return commerceBatchResultDTO{Created: res.Created, Updated: res.Updated, Unchanged: res.Unchanged, Total: res.Total,
		Errors: presentAll(res.Errors, func(e commerce.BatchError) commerceBatchErrorDTO {
			return commerceBatchErrorDTO{Index: e.Index, Messages: e.Messages}
		})}
}

// msgCmItemNotObject is the problem of an item that is not an object.
const msgCmItemNotObject = "each value in items must be an object"

// commerceBatchBody reads {items: [...]} (required). Each item is decoded on
// its own: its problems, named by their path in the item, travel with it.
var commerceBatchBody = bodyOf(func(b *body) []commerce.BatchItem {
	raws := b.requiredArray("items")
	items := make([]commerce.BatchItem, len(raws))
	for i, raw := range raws {
		items[i] = commerceBatchItem(raw)
	}
	return items
}, "items")

func commerceBatchItem(raw json.RawMessage) commerce.BatchItem {
	b, ok := itemBody(raw, "external_id", "name", "tax_id", "segment", "is_active", "metadata", "addresses", "users", "route_codes")
	if !ok {
		return commerce.BatchItem{Problems: []string{msgCmItemNotObject}}
	}
	it := commerce.BatchItem{ExternalID: b.str("external_id").OrZero(), Name: b.str("name").OrZero(),
		TaxID: b.str("tax_id").Ptr(), Segment: b.str("segment").Ptr(), IsActive: b.boolean("is_active").Ptr(),
		Metadata: b.object("metadata").OrZero(), RouteCodes: b.strs("route_codes").OrZero()}
	b.forbidNull("route_codes", kindStrings)
	for i, raw := range b.array("addresses").OrZero() {
		if ab := b.elem("addresses", i, raw, append([]string{"is_primary"}, commerceAddressMembers...)...); ab != nil {
			it.Addresses = append(it.Addresses, commerce.BatchAddress{AddressFields: addressFields(ab),
				IsPrimary: ab.boolean("is_primary").Ptr(), IsActive: ab.boolean("is_active").Ptr()})
		}
	}
	for i, raw := range b.array("users").OrZero() {
		ub := b.elem("users", i, raw, "external_id", "name", "is_active", "roles", "contacts")
		if ub == nil {
			continue
		}
		u := commerce.BatchUser{ExternalID: ub.str("external_id").OrZero(), Name: ub.str("name").Ptr(),
			IsActive: ub.boolean("is_active").Ptr(), Roles: ub.strs("roles").OrZero()}
		for j, raw := range ub.array("contacts").OrZero() {
			if cb := ub.elem("contacts", j, raw, "contact_type", "value", "is_primary", "is_active"); cb != nil {
				u.Contacts = append(u.Contacts, commerce.BatchContact{ContactType: cb.str("contact_type", commerce.MsgContactType).OrZero(),
					Value: cb.str("value").OrZero(), IsPrimary: cb.boolean("is_primary").Ptr(), IsActive: cb.boolean("is_active").Ptr()})
			}
		}
		it.Users = append(it.Users, u)
	}
	it.Problems = b.messages()
	return it
}
