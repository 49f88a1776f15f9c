package rest

import (
	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/internal/fieldorg"
)

// Operators, their sync and batch upsert, and the list filters and batch
// outcome the field organisation routes share.

// operatorDTO is the SPEC.md operator shape.
type operatorDTO struct {
	ID            uuid.UUID `json:"id"`
	Name          string    `json:"name"`
	Email         *string   `json:"email"`
	Phone         *string   `json:"phone"`
	Type          string    `json:"type"`
	ExternalID    *string   `json:"externalId"`
	IsActive      bool      `json:"isActive"`
	IsPlaceholder bool      `json:"isPlaceholder"`
}

func presentOperator(o *ent.Operator) operatorDTO {
	return operatorDTO{ID: o.ID, Name: o.Name, Email: o.Email, Phone: o.Phone, Type: string(o.Type),
		ExternalID: o.ExternalID, IsActive: o.IsActive, IsPlaceholder: o.IsPlaceholder}
}

// foFilter reads is_active and search, the filter every field
// organisation list has.
func foFilter(q *query) (active *bool, search string) { return q.flag("is_active"), q.Get("search") }

func operatorFilter(q *query) fieldorg.OperatorFilter {
	f := fieldorg.OperatorFilter{Type: q.Get("type")}
	f.IsActive, f.Search = foFilter(q)
	return f
}

// foText reads a text member; the service says what its null means.
func foText(b *body, name string) *string { return fieldorg.Text(b.str(name)) }

// foMetadata reads metadata; the service says what its null means.
func foMetadata(b *body) map[string]any { return fieldorg.Metadata(b.object("metadata")) }

var operatorBody = bodyOf(func(b *body) fieldorg.OperatorInput {
	return fieldorg.OperatorInput{Type: b.str("type", fieldorg.MsgTypeValues).OrZero(), Name: b.str("name").OrZero(),
		Email: b.str("email").Ptr(), Phone: b.str("phone").Ptr(), ExternalID: b.str("external_id").Ptr(),
		IsPlaceholder: b.boolean("is_placeholder").Ptr(), Metadata: foMetadata(b)}
}, "type", "name", "email", "phone", "external_id", "is_placeholder", "metadata")

var operatorPatchBody = bodyOf(func(b *body) fieldorg.OperatorPatch {
	return fieldorg.OperatorPatch{Name: foText(b, "name"), Email: foText(b, "email"), Phone: foText(b, "phone"),
		ExternalID: foText(b, "external_id"), IsActive: b.boolean("is_active").Ptr(),
		IsPlaceholder: b.boolean("is_placeholder").Ptr(), Metadata: foMetadata(b)}
}, "name", "email", "phone", "external_id", "is_active", "is_placeholder", "metadata")

// foItems decodes the required items of a sync or batch upsert, each item
// on its own: its problems travel with it, and an item that is not an
// object carries fieldorg.MsgItemNotObject.
func foItems[T any](b *body, allowed []string, read func(ib *body) T, invalid func(*T, []string)) []T {
	raws := b.requiredArray("items")
	items := make([]T, len(raws))
	for i, raw := range raws {
		ib, ok := itemBody(raw, allowed...)
		if !ok {
			ib.fail("", fieldorg.MsgItemNotObject)
		}
		items[i] = read(ib)
		invalid(&items[i], ib.messages())
	}
	return items
}

// operatorItemsBody reads the items of a sync (withActive false) or a batch upsert.
func operatorItemsBody(withActive bool) decoder[[]fieldorg.OperatorItem] {
	allowed := []string{"external_id", "type", "name", "email", "phone", "metadata"}
	if withActive {
		allowed = append(allowed, "is_active")
	}
	return bodyOf(func(b *body) []fieldorg.OperatorItem {
		return foItems(b, allowed, func(ib *body) fieldorg.OperatorItem {
			it := fieldorg.OperatorItem{ExternalID: ib.str("external_id").OrZero(), Type: ib.str("type", fieldorg.MsgTypeValues).OrZero(),
				Name: ib.str("name").OrZero(), Email: foText(ib, "email"), Phone: foText(ib, "phone")}
			if withActive {
				it.IsActive = ib.boolean("is_active").Ptr()
			}
			it.Metadata = foMetadata(ib)
			return it
		}, func(it *fieldorg.OperatorItem, msgs []string) { it.Invalid = msgs })
	}, "items")
}

// foBatchDTO is the outcome of a sync ({created, updated, total}) or a
// batch upsert (plus errors).
type foBatchDTO struct {
	Created int               `json:"created"`
	Updated int               `json:"updated"`
	Total   int               `json:"total"`
	Errors  *[]foItemErrorDTO `json:"errors,omitempty"`
}

type foItemErrorDTO struct {
	Index    int      `json:"index"`
	Messages []string `json:"messages"`
}

// presentSync is the outcome of a sync: no errors (any item error fails it whole).
func presentSync(res *fieldorg.BatchResult) foBatchDTO {
	return foBatchDTO{Created: res.Created, Updated: res.Updated, Total: res.Total}
}

// presentFOBatch is the outcome of a batch upsert with its item errors.
func presentFOBatch(res *fieldorg.BatchResult) foBatchDTO {
	out := presentSync(res)
	errs := presentAll(res.Errors, func(e fieldorg.ItemError) foItemErrorDTO { return foItemErrorDTO{Index: e.Index, Messages: e.Messages} })
	out.Errors = &errs
	return out
}
