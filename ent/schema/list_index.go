package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema/index"
)

// listIndex serves a REST list (internal/paging.Fetch): the list's equality
// filters first (tenant, project, one documented filter), then its sort
// columns ending in id. The page's first row is then found by an index-only
// scan that skips the rows before it, the page is read from there in index
// order and the count reads the index only: a deep page costs what the
// first one does, and no plan sorts.
func listIndex(fields ...string) ent.Index { return index.Fields(fields...) }

// liveListIndex is a listIndex over live rows only: the data layer hides
// archived rows (archived_at IS NULL) from every list.
func liveListIndex(fields ...string) ent.Index {
	return index.Fields(fields...).Annotations(entsql.IndexWhere("archived_at IS NULL"))
}
